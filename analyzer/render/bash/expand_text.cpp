// Expansions that yield one piece of text rather than fields: a word joined as "$*" joins, and
// heredoc bodies (expanded when the delimiter is unquoted).
#include <fmt/format.h>

#include <algorithm>

#include "analyzer/render/bash/evaluator.h"
#include "analyzer/render/bash/fields.h"

namespace sbr::bash {

EWord Evaluator::expand_joined(TSNode n, Ctx& ctx) {
  if (ts_node_is_null(n)) return literal("");
  const Value v = expand_word(n, ctx, true);
  return join_words(v.words(), v.words().empty() ? prov(n, ctx) : Provenance{});
}

// The body's pieces on every path: its text and each expansion's value, the product of the
// expansions' values (an `$ALLOW` set by an option gives the body once per value).
Value Evaluator::expand_heredoc(TSNode body, Ctx& ctx, bool quoted) {
  Value out;
  uint32_t pos = ts_node_start_byte(body), end = ts_node_end_byte(body);
  auto append = [&](const Value& piece) {
    out = product_values(std::move(out), piece, ctx.cond, [](Alt& r, const Alt& b) {
      r.elems.insert(r.elems.end(), b.elems.begin(), b.elems.end());
    });
  };
  auto lit = [&](uint32_t a, uint32_t b) {
    if (b <= a) return;
    std::string s(ctx.tree->text.substr(a, b - a));
    if (!quoted) {
      std::string u;
      for (size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '\\' && i + 1 < s.size() &&
            std::string_view("$`\\").find(s[i + 1]) != std::string_view::npos) {
          u += s[++i];
        } else {
          u += s[i];
        }
      }
      s = u;
    }
    EWord w = literal(s);
    w.w.from = prov(body, ctx);
    for (Alt& a : out.alts) a.elems.push_back(w);
  };
  if (!quoted) {
    for (TSNode c : named_children(body)) {
      K ck = sym(c);
      if (ck == K::heredoc_content) continue;
      lit(pos, ts_node_start_byte(c));
      Value v = joined_value(c, ctx);
      for (Alt& a : v.alts) a.elems.front().w.from = prov(c, ctx);
      append(v);
      pos = ts_node_end_byte(c);
    }
  }
  lit(pos, end);
  return out;
}

}  // namespace sbr::bash
