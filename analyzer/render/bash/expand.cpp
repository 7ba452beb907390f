// Word expansion: parameters (with defaults, arrays, the common operators), quoting and word
// splitting, command substitution, arithmetic, heredoc bodies. Values the script does not fix
// stay symbolic with their origin; values an outsider controls are tainted.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "analyzer/render/bash/evaluator.h"
#include "analyzer/render/bash/fields.h"
#include "analyzer/render/bash/observe.h"
#include "analyzer/render/bash/words.h"
#include "analyzer/support/secrets.h"

namespace sbr::bash {

std::vector<EWord> Evaluator::expand_word(TSNode n, Ctx& ctx, bool assignment) {
  if (ts_node_is_null(n)) return {};
  step(n, ctx);
  Nest nest(*this, n, ctx);
  K k = sym(n);
  std::vector<EWord> out;
  auto finish = [&](std::vector<EWord> v) {
    Provenance use = prov(n, ctx);
    for (EWord& w : v) {
      if (w.keep_from) {
        // An array element or a function argument stays at the place it is written (where a
        // fix goes); the use joins its chain.
        w.w.from.condition = join(ctx.cond, w.w.from.condition);
        note_use(w, use);
      } else {
        move_to_use(w, use);
      }
      // Origins describe; they must not grow with every operator applied in a loop.
      if (w.w.origin.size() > 160) w.w.origin = w.w.origin.substr(0, 157) + "...";
      charge_bytes(w.w.text.size(), use.at);
    }
    return v;
  };
  if (k == K::word || k == K::number || k == K::extglob_pattern || k == K::regex ||
      k == K::special_variable_name || k == K::variable_name || k == K::test_operator) {
    return finish({literal(unescape_word(ctx.tree->slice(n)))});
  }
  if (k == K::raw_string) {
    std::string_view s = ctx.tree->slice(n);
    return finish({literal(std::string(s.size() >= 2 ? s.substr(1, s.size() - 2) : s))});
  }
  if (k == K::ansi_c_string) return finish({literal(ansi_c(ctx.tree->slice(n)))});
  if (k == K::translated_string) {
    for (TSNode c : named_children(n)) return expand_word(c, ctx, assignment);
    return finish({literal("")});
  }
  if (k == K::string) {
    // Double quotes: no splitting, except "$@" / "${a[@]}" which keep one field per element.
    std::vector<EWord> acc;
    bool started = false;
    uint32_t pos = ts_node_start_byte(n) + 1;
    uint32_t end = ts_node_end_byte(n) - 1;
    for (TSNode c : named_children(n)) {
      uint32_t cb = ts_node_start_byte(c);
      if (cb > pos) {
        std::string gap(ctx.tree->text.substr(pos, cb - pos));
        join_fields(acc, {literal(gap)}, started);
      }
      std::vector<EWord> part;
      if (is(c, K::string_content)) {
        std::string t(ctx.tree->slice(c));
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
        part = {literal(u)};
      } else {
        part = expand_word(c, ctx, true);  // quoted: the callee does not split
        // A quoted array expansion keeps its fields; a quoted scalar is one field.
        bool multi = false;
        std::string_view ct = ctx.tree->slice(c);
        multi = ct.find("[@]") != std::string_view::npos || ct == "$@" || ct == "${@}";
        if (!multi && part.size() != 1) {
          EWord j = literal("");
          bool first = true;
          for (auto& p : part) {
            if (!first) j.w.text += ' ';
            concat_into(j, p);
            first = false;
          }
          part = {j};
        }
        if (multi && part.empty()) part = {};
      }
      join_fields(acc, std::move(part), started);
      pos = ts_node_end_byte(c);
    }
    if (pos < end)
      join_fields(acc, {literal(std::string(ctx.tree->text.substr(pos, end - pos)))}, started);
    if (!started) acc = {literal("")};
    for (auto& w : acc) {
      if (w.w.text.empty() && !w.w.symbolic) w.keep_from = false;
      w.in_quotes = true;  // observe_splice.cpp: one argument, not split
    }
    return finish(std::move(acc));
  }
  if (k == K::concatenation) {
    std::vector<EWord> acc;
    bool started = false;
    for (TSNode c : named_children(n)) join_fields(acc, expand_word(c, ctx, assignment), started);
    for (auto& w : acc) w.keep_from = false;
    return finish(std::move(acc));
  }
  if (k == K::simple_expansion || k == K::expansion) {
    // Find the parameter and the operator.
    std::string name;
    std::string index;  // "@", "*", a number or a key
    bool length = false, indirect = false;
    std::string op;
    std::vector<TSNode> operands;
    bool seen_name = false;
    TSNode index_node{};
    for (TSNode c : children(n)) {
      K ck = sym(c);
      if (!seen_name) {
        if (ck == K::variable_name || ck == K::special_variable_name) {
          name = std::string(ctx.tree->slice(c));
          seen_name = true;
        } else if (ck == K::subscript) {
          name = std::string(ctx.tree->slice(field(c, F::name)));
          index_node = field(c, F::index);
          index = std::string(ctx.tree->slice(index_node));
          seen_name = true;
        } else if (ck == K::hash && k == K::expansion) {
          length = true;
        } else if (ck == K::bang) {
          indirect = true;
        }
        continue;
      }
      if (!ts_node_is_named(c)) {
        if (ck != K::brace_close && op.empty())
          op = std::string(kind(c));  // the operator as written: `:-`, `##`
        continue;
      }
      operands.push_back(c);
    }
    if (name.empty()) return finish({literal(std::string(ctx.tree->slice(n)))});
    Location at = loc(n, ctx.tree);
    // The value as fields.
    std::vector<EWord> vals;
    bool is_set = true;
    bool all = index == "@" || index == "*";
    if (indirect) {
      Var* v = lookup(name);
      if (v && !v->elems.empty() && !v->elems[0].w.symbolic)
        name = v->elems[0].w.text;
      else {
        EWord w;
        w.w.symbolic = true;
        w.w.origin = "indirect ${!" + name + "}";
        w.default_known = false;
        return finish({w});
      }
    }
    if (name == "@" || name == "*") {
      all = true;
      if (st_.positional_unknown) {
        EWord w;
        w.w.symbolic = true;
        w.w.origin = "script arguments";
        w.w.tainted = true;
        w.taint_var = "arguments";
        w.taint_at = at;
        w.taint_source = ValueSource::Argument;
        w.default_known = false;
        vals = {w};
      } else {
        vals = st_.positional;
        for (auto& w : vals) w.keep_from = true;
      }
    } else if (name == "#") {
      if (st_.positional_unknown) {
        EWord w;
        w.w = Word{"", true, "argument count", true, {}};
        w.taint_var = "arguments";
        w.taint_at = at;
        w.taint_source = ValueSource::Argument;
        w.default_known = false;
        vals = {w};
      } else {
        vals = {literal(std::to_string(st_.positional.size()))};
      }
    } else if (name == "0") {
      vals = {literal(file_.path)};
    } else if (!name.empty() && std::isdigit(static_cast<unsigned char>(name[0]))) {
      size_t i = std::stoul(name);
      if (!st_.positional_unknown) {
        if (i >= 1 && i <= st_.positional.size())
          vals = {st_.positional[i - 1]};
        else {
          vals = {literal("")};
          is_set = false;
        }
      } else {
        EWord w;
        w.w.symbolic = true;
        w.w.origin = "argument " + name;
        w.w.tainted = true;
        w.taint_var = "argument " + name;
        w.taint_at = at;
        w.taint_source = ValueSource::Argument;
        vals = {w};
        is_set = false;  // unknown: defaults apply as the default guess
      }
    } else if (name == "?" || name == "$" || name == "!" || name == "-" || name == "_") {
      EWord w;
      w.w.symbolic = true;
      w.w.origin = "special parameter $" + name;
      w.default_known = false;
      vals = {w};
    } else if (name == "BASH_SOURCE") {
      vals = {literal(path_of(ctx.tree))};  // the file being read, also inside a sourced one
    } else if (Var* v = lookup(name)) {
      if (all) {
        vals = v->elems;
        // An element added on a path this one contradicts is not in the array here.
        std::erase_if(vals,
                      [&](const EWord& w) { return ctx.cond.contradicts(w.w.from.condition); });
        for (auto& w : vals) w.keep_from = true;
      } else if (!index.empty() && v->array) {
        if (v->assoc) {
          EWord key = expand_joined(index_node, ctx);
          auto it = std::find(v->keys.begin(), v->keys.end(), key.w.text);
          if (it != v->keys.end())
            vals = {v->elems[static_cast<size_t>(it - v->keys.begin())]};
          else {
            vals = {literal("")};
            is_set = false;
          }
        } else {
          auto iv = arith(index_node, ctx);
          if (iv && *iv >= 0 && static_cast<size_t>(*iv) < v->elems.size()) {
            vals = {v->elems[static_cast<size_t>(*iv)]};
            vals[0].keep_from = true;
          } else {
            vals = {literal("")};
            is_set = false;
          }
        }
      } else {
        if (v->elems.empty()) {
          vals = {literal("")};
          is_set = v->array;
        } else
          vals = {v->elems[0]};
        // Rendering a variant of the command with this variable's value on another path.
        if (alt_override_.first == name && alt_override_.second < v->alts.size()) {
          const Alt& a = v->alts[alt_override_.second];
          vals = a.elems.empty() ? std::vector<EWord>{literal("")} : a.elems;
          for (EWord& w : vals) w.w.from.condition = join(a.cond, w.w.from.condition);
        } else if (!v->alts.empty() &&
                   std::find(alt_probe_.begin(), alt_probe_.end(), name) == alt_probe_.end()) {
          alt_probe_.push_back(name);
        }
        // A scalar set only on a non-default path: unquoted and empty by default, the
        // alternative's words appear with that path's condition.
        if (alt_override_.first != name && !v->alts.empty() && !assignment && vals.size() == 1 &&
            !vals[0].w.symbolic && vals[0].w.text.empty() && op.empty()) {
          std::vector<EWord> alt_words;
          for (const Alt& a : v->alts) {
            for (const EWord& w : a.elems) {
              if (w.w.text.empty() && !w.w.symbolic) continue;
              for (EWord& f : split_fields(w)) {
                move_to_use(f, prov(n, ctx));
                f.w.from.condition = a.cond;
                alt_words.push_back(f);
              }
            }
          }
          if (!alt_words.empty()) {
            for (auto& w : alt_words) charge_bytes(w.w.text.size(), at);
            alt_probe_.erase(std::remove(alt_probe_.begin(), alt_probe_.end(), name),
                             alt_probe_.end());
            return alt_words;
          }
        }
      }
    } else {
      vals = env_word(name, at);
      // Validated by a check that exits (`[[ $PORT =~ ... ]] || exit`): no longer input.
      if (validated_.count(name)) vals[0].w.tainted = false;
      is_set = false;
    }
    if (secrets::is_secret_name(name)) {
      for (auto& w : vals) w.secret_var = name;
    }
    if (length) {
      if (all) return finish({literal(std::to_string(vals.size()))});
      if (vals.size() == 1 && !vals[0].w.symbolic)
        return finish({literal(std::to_string(vals[0].w.text.size()))});
      EWord w;
      w.w.symbolic = true;
      w.w.origin = "length of " + name;
      w.default_known = false;
      return finish({w});
    }
    auto operand = [&]() {
      EWord acc = literal("");
      for (TSNode o : operands) concat_into(acc, expand_joined(o, ctx));
      return acc;
    };
    bool empty =
        vals.empty() || (vals.size() == 1 && !vals[0].w.symbolic && vals[0].w.text.empty());
    bool unknown = vals.size() == 1 && vals[0].w.symbolic && !is_set;
    if (op == ":-" || op == "-" || op == ":=" || op == "=") {
      bool use_default = op[0] == ':' ? empty : !is_set;
      EWord d = operand();
      // The default's own place is a step of the value's chain (`${X:-...}`).
      if (!operands.empty()) {
        Provenance def_at = prov(operands[0], ctx);
        def_at.via = std::move(d.w.from.via);
        d.w.from = std::move(def_at);
        mark_site(d, StepRole::Default, name);
      }
      if (unknown) {
        // Unknown value: symbolic, with the default as the best guess.
        EWord w = vals[0];
        w.w.text = d.w.text;
        // An empty default is said in words: "default " would read as a missing word.
        w.w.origin = fmt::format("{}, default {}", w.w.origin,
                                 d.w.text.empty() ? std::string("empty") : d.w.text);
        w.default_known = d.default_known;
        w.w.from = d.w.from;
        w.site_role = d.site_role;
        w.site_note = d.site_note;
        vals = {w};
      } else if (use_default) {
        vals = {d};
      }
      if ((op == ":=" || op == "=") && (unknown || use_default)) {
        Var& slot = assign_slot(name, false);
        slot.elems = vals;
        slot.alts.clear();
      }
    } else if (op == ":+" || op == "+") {
      bool use_alt = op[0] == ':' ? !empty : is_set;
      EWord a = operand();
      if (unknown) {
        EWord w = a;
        w.w.symbolic = true;
        w.w.origin = fmt::format("{} when {} is set", a.w.text, name);
        w.w.text = "";
        vals = {w};
      } else {
        vals = {use_alt ? a : literal("")};
      }
    } else if (op == ":?" || op == "?") {
      // Fails when unset: the value is what it is.
    } else if (op == "#" || op == "##" || op == "%" || op == "%%") {
      EWord p = operand();
      for (EWord& w : vals) {
        if (w.w.symbolic || p.w.symbolic) {
          w.w.symbolic = true;
          w.w.origin = fmt::format("{} with `{}{}` removed", w.w.origin.empty() ? name : w.w.origin,
                                   op, p.w.text);
          continue;
        }
        const std::string& s = w.w.text;
        bool front = op[0] == '#';
        bool longest = op.size() == 2;
        std::string result = s;
        if (front) {
          for (size_t l = 0; l <= s.size(); ++l) {
            size_t len = longest ? s.size() - l : l;
            if (glob_match(p.w.text, std::string_view(s).substr(0, len))) {
              result = s.substr(len);
              break;
            }
          }
        } else {
          for (size_t l = 0; l <= s.size(); ++l) {
            size_t start = longest ? l : s.size() - l;
            if (glob_match(p.w.text, std::string_view(s).substr(start))) {
              result = s.substr(0, start);
              break;
            }
          }
        }
        w.w.text = result;
      }
    } else if (op == "/" || op == "//") {
      EWord pat = operands.empty() ? literal("") : expand_joined(operands[0], ctx);
      EWord rep = operands.size() > 1 ? expand_joined(operands[1], ctx) : literal("");
      for (EWord& w : vals) {
        if (w.w.symbolic || pat.w.symbolic || pat.w.text.empty()) {
          if (w.w.symbolic) w.w.origin += " (substituted)";
          continue;
        }
        std::string s = w.w.text;
        size_t p = 0;
        while ((p = s.find(pat.w.text, p)) != std::string::npos) {
          s.replace(p, pat.w.text.size(), rep.w.text);
          p += rep.w.text.size();
          if (op == "/") break;
        }
        w.w.text = s;
      }
    } else if (op == "^^" || op == ",," || op == "^" || op == ",") {
      for (EWord& w : vals) {
        for (char& ch : w.w.text)
          ch = op[0] == '^' ? static_cast<char>(std::toupper(ch))
                            : static_cast<char>(std::tolower(ch));
      }
    } else if (!op.empty()) {
      for (EWord& w : vals) {
        if (!w.w.symbolic) {
          w.w.symbolic = true;
          w.w.origin = "${" + name + op + "...}";
          w.default_known = false;
        }
      }
    }
    for (EWord& w : vals) w.in_quotes = false;  // the string around it, if any, sets it
    if (assignment) return finish(vals);
    // Unquoted: split concrete values.
    std::vector<EWord> fields;
    for (const EWord& w : vals) {
      for (EWord& f : split_fields(w)) fields.push_back(std::move(f));
    }
    return finish(std::move(fields));
  }
  if (k == K::command_substitution) return finish(command_substitution(n, ctx));
  if (k == K::process_substitution) return finish(process_substitution(n, ctx));
  if (k == K::arithmetic_expansion) {
    std::optional<long long> v;
    for (TSNode c : named_children(n)) v = arith(c, ctx);
    if (v) return finish({literal(std::to_string(*v))});
    EWord w;
    w.w.symbolic = true;
    w.w.origin = "arithmetic " + std::string(ctx.tree->slice(n));
    w.default_known = false;
    return finish({w});
  }
  if (k == K::brace_expression) return finish({literal(std::string(ctx.tree->slice(n)))});
  return finish({literal(unescape_word(ctx.tree->slice(n)))});
}

}  // namespace sbr::bash
