// Word expansion: quoting and word splitting, command substitution, arithmetic. Each node kind
// has its own piece; parameters (`$X`, `${X:-d}`, arrays) are in expand_param.cpp. Values the
// script does not fix stay symbolic with their origin; values an outsider controls are tainted.
#include <fmt/format.h>
#include <algorithm>

#include <cctype>
#include <optional>
#include <string_view>

#include "analyzer/render/bash/evaluator.h"
#include "analyzer/render/bash/expand_param.h"
#include "analyzer/render/bash/fields.h"
#include "analyzer/support/strings.h"

namespace sbr::bash {
namespace {

// The text of a double-quoted run: `\` escapes only `$`, backquote, `"`, `\` and a newline.
std::string unescape_dquoted(std::string_view t) {
  std::string u;
  for (size_t i = 0; i < t.size(); ++i) {
    if (t[i] == '\\' && i + 1 < t.size() &&
        std::string_view("$`\"\\\n").find(t[i + 1]) != std::string_view::npos) {
      if (t[i + 1] != '\n') u += t[i + 1];
      ++i;
    } else {
      u += t[i];
    }
  }
  return u;
}

// The words of an unquoted word's text after brace expansion, each unescaped; past the bound,
// one open word: what bash would pass there is not known (SB0013 where an option goes), never
// the unexpanded text read as if bash passed it.
// Nothing when the word has no brace group (it is its own text).
std::optional<std::vector<EWord>> brace_words(std::string_view raw) {
  std::vector<std::string> words = brace_expand(raw);
  if (words.empty()) return std::vector<EWord>{symbolic_word("brace expansion past 1,024 words")};
  if (words.size() == 1 && words[0] == raw) return std::nullopt;
  std::vector<EWord> out;
  out.reserve(words.size());
  for (const std::string& w : words) out.push_back(literal(unescape_word(w)));
  return out;
}

}  // namespace

Value Evaluator::expand_word(TSNode n, Ctx& ctx, bool assignment) {
  if (ts_node_is_null(n)) return Value(std::vector<EWord>{});
  step(n, ctx);
  Nest nest(*this, n, ctx);
  K k = sym(n);
  // A word a parse repair rewrote (recover.cpp): its value is not known, never the x's.
  if (ctx.tree->touches_repair(n)) {
    return finish_expansion(
        n, ctx, Value({symbolic_word("`" + short_text(ctx.tree->shown(n)) + "`, not parsed")}));
  }
  if (k == K::translated_string) {
    for (TSNode c : named_children(n)) return expand_word(c, ctx, assignment);
    return expand_literal(n, ctx);
  }
  if (k == K::string) return expand_string(n, ctx);
  if (k == K::concatenation) return expand_concatenation(n, ctx, assignment);
  if (k == K::simple_expansion || k == K::expansion) return expand_parameter(n, ctx, assignment);
  if (k == K::command_substitution) {
    Value out = command_substitution(n, ctx);
    if (!assignment)  // unquoted: an unknown output may split at run time
      for (Alt& a : out.alts)
        for (EWord& w : a.elems) w.split_open = w.split_open || w.w.symbolic;
    return finish_expansion(n, ctx, std::move(out));
  }
  if (k == K::process_substitution) return finish_expansion(n, ctx, process_substitution(n, ctx));
  if (k == K::arithmetic_expansion) return expand_arithmetic(n, ctx);
  if (k == K::word)
    if (auto v = reparsed_word(n, ctx, assignment)) return std::move(*v);
  return expand_literal(n, ctx, assignment);
}

namespace {

// An unescaped `$` that starts a parameter, a `${`, or a `$(`.
bool holds_expansion(std::string_view s) {
  for (std::size_t i = 0; i + 1 < s.size(); ++i) {
    if (s[i] == '\\') {
      ++i;
      continue;
    }
    const char c = s[i + 1];
    if (s[i] == '$' &&
        (std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '{' || c == '('))
      return true;
  }
  return false;
}

}  // namespace

// tree-sitter-bash reads some expansions as plain text: the default of `${1:-$_DEFAULT}` (a
// name that starts with `_`) and the tail of `"$PWD":/home/$USER/work` come out as the words
// `$_DEFAULT` and `$USER/work`. Bash expands them, so such a word is parsed again on its own
// (once: a word that parses as a word again stays text).
[[gnu::noinline]] std::optional<Value> Evaluator::reparsed_word(TSNode n, Ctx& ctx,
                                                                bool assignment) {
  const std::string_view text = ctx.tree->slice(n);
  if (reparsing_ > 0 || !holds_expansion(text)) return std::nullopt;
  return reparsed_text(std::string(text), loc(n, ctx.tree), ctx, assignment);
}

std::optional<Value> Evaluator::reparsed_text(const std::string& text, Location at, Ctx& ctx,
                                              bool assignment) {
  // Parsed as the argument of `: `, which stands before the word's column.
  const SyntaxTree* t = placed_tree(": " + text, at, at.column >= 3 ? at.column - 3 : 0);
  TSNode cmd = ts_node_named_child(t->root(), 0);
  if (ts_node_is_null(cmd) || sym(cmd) != K::command || ts_node_named_child_count(cmd) != 2)
    return std::nullopt;
  TSNode arg = ts_node_named_child(cmd, 1);
  if (sym(arg) == K::word) return std::nullopt;
  Ctx wc = ctx;
  wc.tree = t;
  ++reparsing_;
  Value v = expand_word(arg, wc, assignment);
  --reparsing_;
  return v;
}

// A word that expands to its own text: a plain word, '...', $'...', a brace expression. Not
// inlined into expand_word, whose frame every level of a nested expansion holds.
[[gnu::noinline]] Value Evaluator::expand_literal(TSNode n, Ctx& ctx, bool assignment) {
  K k = sym(n);
  std::string text;
  if (k == K::raw_string) {
    std::string_view s = ctx.tree->slice(n);
    text = std::string(s.size() >= 2 ? s.substr(1, s.size() - 2) : s);
  } else if (k == K::ansi_c_string) {
    text = ansi_c(ctx.tree->slice(n));
  } else if (k == K::brace_expression) {
    text = std::string(ctx.tree->slice(n));
  } else if (k == K::word && !assignment) {
    // An unquoted word is brace-expanded first: `--{privileged,rm}` is two options (not the
    // value of an assignment, which bash does not brace-expand).
    if (auto fields = brace_words(ctx.tree->slice(n)))
      return finish_expansion(n, ctx, Value(std::move(*fields)));
    text = unescape_word(ctx.tree->slice(n));
  } else if (k != K::translated_string) {
    // number, extglob_pattern, regex, variable names, test operators, and anything else.
    text = unescape_word(ctx.tree->slice(n));
  }
  return finish_expansion(n, ctx, Value({literal(std::move(text))}));
}

// Moves every alternative's words to their place of use.
Value Evaluator::finish_expansion(TSNode n, Ctx& ctx, Value v) {
  Provenance use = prov(n, ctx);
  std::size_t words = 0;
  for (const Alt& a : v.alts) words += a.elems.size();
  if (words > limits_.max_value_words)
    abort_budget(fmt::format("an expansion of more than {} words", limits_.max_value_words),
                 use.at);
  for (Alt& a : v.alts) {
    for (EWord& w : a.elems) {
      if (w.keep_from) {
        // An array element or a function argument stays at the place it is written (where a
        // fix goes); the use joins its chain.
        w.w.from.set_condition(join(ctx.cond, w.w.from.condition()));
        note_use(w, use);
      } else {
        move_to_use(w, use);
      }
      // Origins describe; they must not grow with every operator applied in a loop.
      w.w.origin = shorten(w.w.origin, 160);
      charge_bytes(w.w.text.size() + kWordBytes, use.at);
    }
  }
  return v;
}

// Double quotes: no splitting, except "$@" / "${a[@]}" which keep one field per element.
Value Evaluator::expand_string(TSNode n, Ctx& ctx) {
  Value acc;
  bool started = false;
  uint32_t pos = ts_node_start_byte(n) + 1;
  uint32_t end = ts_node_end_byte(n) - 1;
  auto text = [&](uint32_t from, uint32_t to) {
    return Value({literal(std::string(ctx.tree->text.substr(from, to - from)))});
  };
  for (TSNode c : named_children(n)) {
    uint32_t cb = ts_node_start_byte(c);
    if (cb > pos) acc = join_values(std::move(acc), text(pos, cb), started, ctx.cond);
    acc = join_values(std::move(acc), quoted_part(c, ctx), started, ctx.cond);
    pos = ts_node_end_byte(c);
  }
  if (pos < end) acc = join_values(std::move(acc), text(pos, end), started, ctx.cond);
  for (Alt& a : acc.alts) {
    if (!started) a.elems = {literal("")};
    for (auto& w : a.elems) {
      if (w.w.text.empty() && !w.w.symbolic) w.keep_from = false;
      w.in_quotes = true;  // observe_splice.cpp: one argument, not split
    }
  }
  return finish_expansion(n, ctx, std::move(acc));
}

// One child of a double-quoted string: its text, or its expansion as the fields it keeps.
Value Evaluator::quoted_part(TSNode c, Ctx& ctx) {
  if (is(c, K::string_content)) return Value({literal(unescape_dquoted(ctx.tree->slice(c)))});
  Value part = expand_word(c, ctx, true);  // quoted: the callee does not split
  // A quoted array expansion keeps its fields; a quoted scalar is one field.
  std::string_view ct = ctx.tree->slice(c);
  if (ct.find("[@]") != std::string_view::npos || ct == "$@" || ct == "${@}") return part;
  for (Alt& a : part.alts) {
    if (a.elems.size() == 1) continue;
    EWord j = literal("");
    bool first = true;
    for (auto& p : a.elems) {
      if (!first) j.w.text += ' ';
      concat_into(j, p);
      first = false;
    }
    a.elems = {std::move(j)};
  }
  return part;
}

Value Evaluator::expand_concatenation(TSNode n, Ctx& ctx, bool assignment) {
  // tree-sitter-bash splits `--{privileged,rm}` into the words `--`, `{`, `privileged,rm` and
  // `}`: a concatenation of plain words is brace-expanded as the one word bash sees.
  auto children = named_children(n);
  if (!assignment &&
      std::all_of(children.begin(), children.end(), [](TSNode c) { return sym(c) == K::word; })) {
    if (auto fields = brace_words(ctx.tree->slice(n)))
      return finish_expansion(n, ctx, Value(std::move(*fields)));
  }
  Value acc;
  bool started = false;
  for (TSNode c : named_children(n))
    acc = join_values(std::move(acc), expand_word(c, ctx, assignment), started, ctx.cond);
  // A `$` at the end of a word is text (`cost=5$`); tree-sitter-bash makes it a token.
  if (!ts_node_is_null(trailing_dollar(n)))
    acc = join_values(std::move(acc), Value({literal("$")}), started, ctx.cond);
  for (Alt& a : acc.alts)
    for (auto& w : a.elems) w.keep_from = false;
  return finish_expansion(n, ctx, std::move(acc));
}

// `$(( ... ))`: the number when the script fixes it, else a symbolic word.
Value Evaluator::expand_arithmetic(TSNode n, Ctx& ctx) {
  std::optional<long long> v;
  for (TSNode c : named_children(n)) v = arith(c, ctx);
  if (v) return finish_expansion(n, ctx, Value({literal(std::to_string(*v))}));
  EWord w;
  w.w.symbolic = true;
  w.w.origin = "arithmetic " + std::string(ctx.tree->slice(n));
  w.default_known = false;
  return finish_expansion(n, ctx, Value({w}));
}

}  // namespace sbr::bash
