// Parameter operators (`:-`, `:=`, `:+`, `#`, `%`, `/`, `^^`) applied to a parameter's value on
// every path (expand_param.cpp finds it), and the result split unless quoted. The operands are
// values too: `${X:-$Y}` where X is empty takes each of Y's values, and `${X#$p}` or
// `${X/$a/$b}` is the product of X's values and the operands'.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "analyzer/render/bash/evaluator.h"
#include "analyzer/render/bash/expand_param.h"
#include "analyzer/render/bash/fields.h"
#include "analyzer/render/bash/observe.h"
#include "analyzer/render/bash/unknown_parts.h"
#include "analyzer/render/bash/words.h"
#include "analyzer/support/secrets.h"

namespace sbr::bash {
namespace {

// `${s#p}`, `${s##p}`, `${s%p}`, `${s%%p}` on a concrete value.
std::string remove_affix(const std::string& s, const std::string& pat, const std::string& op) {
  bool front = op[0] == '#';
  bool longest = op.size() == 2;
  for (size_t l = 0; l <= s.size(); ++l) {
    if (front) {
      size_t len = longest ? s.size() - l : l;
      if (glob_match(pat, std::string_view(s).substr(0, len))) return s.substr(len);
    } else {
      size_t start = longest ? l : s.size() - l;
      if (glob_match(pat, std::string_view(s).substr(start))) return s.substr(0, start);
    }
  }
  return s;
}

// `${dir#"$HOME"/}` with dir=$HOME/.pi is `.pi`: the pattern starts with the same variable of
// the operator's, quoted, so it matches that prefix whatever its value, and the rest decides.
// False (nothing done) unless both are such words and the pattern matches.
bool remove_host_variable_prefix(EWord& w, const EWord& pat, const std::string& op) {
  if (op[0] != '#') return false;
  auto rests = same_host_variable(w, pat);
  if (!rests) return false;
  const auto& [rest, pattern] = *rests;
  std::string removed = remove_affix(rest, pattern, op);
  if (removed == rest && !glob_match(pattern, "")) return false;  // no prefix matched
  w.w.text = std::move(removed);
  w.w.symbolic = false;
  w.w.origin.clear();
  w.w.identity.clear();
  return true;
}

bool parameter_empty(const std::vector<EWord>& vals) {
  return vals.empty() || (vals.size() == 1 && !vals[0].w.symbolic && vals[0].w.text.empty());
}

bool is_choice(const std::string& op) {
  return op == ":-" || op == "-" || op == ":=" || op == "=" || op == ":+" || op == "+";
}

}  // namespace

[[gnu::noinline]] Value Evaluator::operated_value(TSNode n, Ctx& ctx, ParamRef& p, Value vals,
                                                  bool assignment) {
  for (Alt& a : vals.alts) mark_secret(p, a.elems);
  if (p.length) {
    for (Alt& a : vals.alts) a.elems = {parameter_length(p, a.elems)};
    return finish_expansion(n, ctx, std::move(vals));
  }
  if (!p.op.empty()) vals = apply_parameter_op(p, std::move(vals), ctx);
  return parameter_fields(n, ctx, std::move(vals), assignment);
}

void Evaluator::mark_secret(const ParamRef& p, std::vector<EWord>& vals) {
  if (!secrets::is_secret_name(p.name)) return;
  for (auto& w : vals) w.secret_var = p.name;
}

// The value as the expansion's words: as is when quoted or assigned, else split.
[[gnu::noinline]] Value Evaluator::parameter_fields(TSNode n, Ctx& ctx, Value vals,
                                                    bool assignment) {
  for (Alt& a : vals.alts) {
    for (EWord& w : a.elems) {
      // How the value was quoted where it was assigned says nothing of this use: the string
      // around it, if any, sets it.
      w.in_quotes = false;
      w.open_quoted = false;
    }
    if (assignment) continue;
    // Unquoted: split concrete values; an unknown one may split too, at run time.
    for (EWord& w : a.elems) w.split_open = w.split_open || w.w.symbolic;
    std::vector<EWord> fields;
    const std::string ifs = current_ifs();
    for (const EWord& w : a.elems) {
      for (EWord& f : split_fields(w, ifs)) fields.push_back(std::move(f));
    }
    a.elems = std::move(fields);
  }
  return finish_expansion(n, ctx, std::move(vals));
}

// The characters unquoted expansions split on: IFS when the script set it to one known value
// (`IFS=,` then `$opts` splits `--privileged,--rm` into two options), else bash's default.
std::string Evaluator::current_ifs() const {
  const Var* v = lookup("IFS");
  if (v == nullptr || v->value.alts.size() != 1 || v->value.alts[0].elems.size() != 1)
    return " \t\n";
  const EWord& w = v->value.alts[0].elems[0];
  return w.w.symbolic ? std::string(" \t\n") : w.w.text;
}

// `${#X}`, `${#a[@]}`.
EWord Evaluator::parameter_length(const ParamRef& p, const std::vector<EWord>& vals) {
  if (p.all) return literal(std::to_string(vals.size()));
  if (vals.size() == 1 && !vals[0].w.symbolic)
    return literal(std::to_string(vals[0].w.text.size()));
  return symbolic_word("length of " + p.name);
}

// The operands on every path, joined as one word each.
Value Evaluator::operand_value(const ParamRef& p, Ctx& ctx) {
  Value acc({literal("")});
  bool started = true;
  for (TSNode o : p.operands)
    acc = join_values(std::move(acc), pattern_value(o, ctx), started, ctx.cond);
  return acc;
}

// tree-sitter-bash reads the pattern of `${X#$p}` and `${X%$p}` as one regex token: a pattern
// that is one parameter (`$p`, `${p}`) is that parameter's value on every path, not its text.
Value Evaluator::pattern_value(TSNode o, Ctx& ctx) {
  if (sym(o) != K::regex) return joined_value(o, ctx);
  std::string_view t = ctx.tree->slice(o);
  const bool braced = t.size() > 3 && t.substr(0, 2) == "${" && t.back() == '}';
  std::string name(braced                        ? t.substr(2, t.size() - 3)
                   : t.size() > 1 && t[0] == '$' ? t.substr(1)
                                                 : "");
  const bool plain = !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0])) &&
                     std::all_of(name.begin(), name.end(), [](char c) {
                       return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
                     });
  if (!plain) return joined_value(o, ctx);
  if (const Var* v = lookup(name)) {
    ParamRef r;
    r.name = name;
    return joined_alternatives(scalar_value(*v, r, ctx), prov(o, ctx));
  }
  EWord w = symbolic_word("$" + name);
  w.w.from = prov(o, ctx);
  return Value({w});
}

// `${a[@]+"${a[@]}"}`: the idiom that expands an array that may be empty under `set -u` (bash
// before 4.4) is the array's elements themselves, on every path. Read as a choice, the operand
// was joined into one open word, taken for an option (SB0013) on every launch that uses it.
bool Evaluator::array_guard_idiom(const ParamRef& p, const Ctx& ctx) const {
  if (!p.all || (p.op != "+" && p.op != ":+") || p.operands.size() != 1) return false;
  std::string_view t = ctx.tree->slice(p.operands[0]);
  if (t.size() >= 2 && t.front() == '"' && t.back() == '"') t = t.substr(1, t.size() - 2);
  return t == "${" + p.name + "[@]}" || t == "${" + p.name + "[*]}";
}

Value Evaluator::apply_parameter_op(ParamRef& p, Value vals, Ctx& ctx) {
  const std::string& op = p.op;
  if (array_guard_idiom(p, ctx)) return vals;
  if (is_choice(op)) return apply_choice(p, vals, ctx);
  if (op == ":?" || op == "?") return vals;  // fails when unset: the value is what it is
  // The pattern operators: each path's value with each path's pattern (and replacement).
  if (op == "#" || op == "##" || op == "%" || op == "%%") {
    return product_values(vals, operand_value(p, ctx), ctx.cond, [&](Alt& r, const Alt& pat) {
      remove_affixes(p, r.elems, pat.elems.front());
    });
  }
  if (op == "/" || op == "//") {
    auto operand = [&](std::size_t i) {
      return i < p.operands.size() ? joined_value(p.operands[i], ctx) : Value({literal("")});
    };
    const Value pattern = operand(0);
    const Value operands = product_values(pattern, operand(1), ctx.cond, [](Alt& r, const Alt& b) {
      r.elems.push_back(b.elems.front());
    });
    return product_values(vals, operands, ctx.cond, [&](Alt& r, const Alt& pr) {
      substitute(p, r.elems, pr.elems[0], pr.elems[1]);
    });
  }
  if (op == ":") {
    if (auto bounds = slice_bounds(p, ctx)) {
      for (Alt& a : vals.alts) slice(p, *bounds, a.elems);
      return vals;
    }
  }
  for (Alt& a : vals.alts) apply_other_op(p, a.elems);
  return vals;
}

// `${X:offset}` and `${X:offset:length}` with literal numbers: the offset and the length
// (-1: to the end); nothing when either is not a literal number (then the value is open).
std::optional<std::pair<long, long>> Evaluator::slice_bounds(const ParamRef& p, Ctx& ctx) {
  auto number = [&](std::size_t i) -> std::optional<long> {
    if (i >= p.operands.size()) return std::nullopt;
    Value v = joined_value(p.operands[i], ctx);
    if (v.alts.size() != 1 || v.alts[0].elems.size() != 1) return std::nullopt;
    const EWord& w = v.alts[0].elems[0];
    std::string t(trim(w.w.text));
    if (w.w.symbolic || t.empty()) return std::nullopt;
    char* end = nullptr;
    long n = std::strtol(t.c_str(), &end, 10);
    if (end == nullptr || *end != '\0') return std::nullopt;
    return n;
  };
  auto offset = number(0);
  if (!offset) return std::nullopt;
  if (p.operands.size() < 2) return std::pair{*offset, -1L};
  auto length = number(1);
  if (!length || *length < 0) return std::nullopt;
  return std::pair{*offset, *length};
}

// Applies a slice: of the elements of "${a[@]:1}", of the text of each word otherwise (an open
// word stays open).
void Evaluator::slice(const ParamRef& p, std::pair<long, long> bounds, std::vector<EWord>& vals) {
  auto range = [&](std::size_t size, std::size_t& from, std::size_t& count) {
    long start = bounds.first < 0 ? static_cast<long>(size) + bounds.first : bounds.first;
    from = static_cast<std::size_t>(std::clamp(start, 0L, static_cast<long>(size)));
    count = bounds.second < 0 ? size - from
                              : std::min(size - from, static_cast<std::size_t>(bounds.second));
  };
  std::size_t from = 0, count = 0;
  if (p.all) {
    range(vals.size(), from, count);
    vals = std::vector<EWord>(vals.begin() + static_cast<long>(from),
                              vals.begin() + static_cast<long>(from + count));
    return;
  }
  for (EWord& w : vals) {
    if (w.w.symbolic) {
      apply_other_op(p, vals);
      return;
    }
    range(w.w.text.size(), from, count);
    w.w.text = w.w.text.substr(from, count);
  }
}

// `${X:-d}`, `${X-d}`, `${X:=d}`, `${X=d}`, `${X:+a}`, `${X+a}`: on each path, X's value or
// the operand's; a path whose X decides without the operand takes its value once. `:=`
// assigns the result on every path.
Value Evaluator::apply_choice(ParamRef& p, const Value& vals, Ctx& ctx) {
  const Value operand = operand_value(p, ctx);
  const std::size_t bound = std::max({kMaxValueAlts, vals.size(), operand.size()});
  Value out;
  out.alts.clear();
  bool assigned = false;
  const bool assigns = p.op == ":=" || p.op == "=";
  for (std::size_t i = 0; i < vals.size(); ++i) {
    p.is_set = i < p.set_on.size() ? static_cast<bool>(p.set_on[i]) : true;
    const Alt& a = vals.alts[i];
    for (std::size_t j = 0; j < operand.size() && out.size() < bound; ++j) {
      const Alt& o = operand.alts[j];
      Condition cond = join(a.cond, o.cond);
      if (i + j > 0 && (a.cond.contradicts(o.cond) || ctx.cond.contradicts(cond) ||
                        !picks_agree(a.picks, o.picks)))
        continue;
      std::vector<EWord> words = a.elems;
      const bool read = choose(p, words, o.elems.front(), ctx);
      out.alts.push_back(Alt{std::move(words), std::move(cond), a.picks, a.paths});
      add_picks(out.alts.back().picks, o.picks);
      if (read) out.alts.back().paths = join(a.paths, word_paths(o));
      assigned = assigned || (read && assigns);
      if (!read) break;  // the operand's other values change nothing on this path
    }
  }
  p.is_set = p.set_on.empty() || static_cast<bool>(p.set_on.front());
  if (assigned) assign_slot(p.name, false).value = out;
  return out;
}

// One path's value with one value of the operand; true when the operand decided it.
bool Evaluator::choose(const ParamRef& p, std::vector<EWord>& vals, EWord operand, Ctx& ctx) {
  const bool unknown = vals.size() == 1 && vals[0].w.symbolic && !p.is_set;
  if (p.op[0] == '+' || (p.op.size() == 2 && p.op[1] == '+')) {
    const bool use_alt = p.op[0] == ':' ? !parameter_empty(vals) : p.is_set;
    place_alternative(p, vals, operand, unknown, use_alt);
    return unknown || use_alt;
  }
  const bool use_default = p.op[0] == ':' ? parameter_empty(vals) : !p.is_set;
  place_default(p, vals, operand, unknown, use_default, ctx);
  return unknown || use_default;
}

[[gnu::noinline]] void Evaluator::remove_affixes(const ParamRef& p, std::vector<EWord>& vals,
                                                 const EWord& pat) {
  for (EWord& w : vals) {
    if (remove_host_variable_prefix(w, pat, p.op)) continue;
    if (w.w.symbolic || pat.w.symbolic) {
      w.w.symbolic = true;
      w.w.identity.clear();
      w.w.origin = fmt::format("{} with `{}{}` removed", w.w.origin.empty() ? p.name : w.w.origin,
                               p.op, pat.w.text);
      continue;
    }
    w.w.text = remove_affix(w.w.text, pat.w.text, p.op);
  }
}

// `${X^^}`, `${X,,}`, `${X^}`, `${X,}`; any other operator makes the value unknown.
[[gnu::noinline]] void Evaluator::apply_other_op(const ParamRef& p, std::vector<EWord>& vals) {
  const std::string& op = p.op;
  if (op == "^^" || op == ",," || op == "^" || op == ",") {
    for (EWord& w : vals) {
      for (char& ch : w.w.text)
        ch = op[0] == '^' ? static_cast<char>(std::toupper(ch))
                          : static_cast<char>(std::tolower(ch));
    }
    return;
  }
  for (EWord& w : vals) {
    w.w.identity.clear();
    if (!w.w.symbolic) {
      w.w.symbolic = true;
      w.w.origin = "${" + p.name + op + "...}";
      w.default_known = false;
    }
  }
}

[[gnu::noinline]] void Evaluator::place_default(const ParamRef& p, std::vector<EWord>& vals,
                                                EWord& d, bool unknown, bool use_default,
                                                Ctx& ctx) {
  const std::string& op = p.op;
  // The default's own place is a step of the value's chain (`${X:-...}`).
  if (!p.operands.empty()) {
    Provenance def_at = prov(p.operands[0], ctx);
    def_at.set_via(d.w.from.via());
    d.w.from = std::move(def_at);
    mark_site(d, StepRole::Default, p.name);
  }
  if (unknown) {
    // Unknown value: symbolic, with the default as the best guess.
    EWord w = vals[0];
    w.w.text = d.w.text;
    w.w.unknown_parts = d.w.unknown_parts;  // the parts of the guess, not of the value
    // An empty default is said in words: "default " would read as a missing word.
    w.w.origin = fmt::format("{}, default {}", w.w.origin,
                             d.w.text.empty() ? std::string("empty") : d.w.text);
    // `${X:-agent}` is the same value wherever X is; a default that is itself unknown is not.
    w.w.identity = d.w.symbolic || w.w.identity.empty()
                       ? std::string()
                       : fmt::format("{}{}{}", w.w.identity, op, d.w.text);
    w.default_known = d.default_known;
    w.w.from = d.w.from;
    w.site_role = d.site_role;
    w.site_note = d.site_note;
    vals = {w};
  } else if (use_default) {
    vals = {d};
  }
}

[[gnu::noinline]] void Evaluator::place_alternative(const ParamRef& p, std::vector<EWord>& vals,
                                                    const EWord& a, bool unknown, bool use_alt) {
  if (unknown) {
    EWord w = a;
    w.w.symbolic = true;
    w.w.identity.clear();
    w.w.origin = fmt::format("{} when {} is set", a.w.text, p.name);
    w.w.text = "";
    w.w.unknown_parts.clear();
    vals = {w};
  } else {
    vals = {use_alt ? a : literal("")};
  }
}

[[gnu::noinline]] void Evaluator::substitute(const ParamRef& p, std::vector<EWord>& vals,
                                             const EWord& pat, const EWord& rep) {
  for (EWord& w : vals) {
    if (w.w.symbolic || pat.w.symbolic || pat.w.text.empty()) {
      if (w.w.symbolic) w.w.origin += " (substituted)";
      if (!pat.w.text.empty() || pat.w.symbolic) w.w.identity.clear();
      continue;
    }
    std::string s = w.w.text;
    size_t at = 0;
    while ((at = s.find(pat.w.text, at)) != std::string::npos) {
      s.replace(at, pat.w.text.size(), rep.w.text);
      at += rep.w.text.size();
      if (p.op == "/") break;
    }
    w.w.text = s;
  }
}

}  // namespace sbr::bash
