// Parameter expansion: `$X`, `${X}`, `${#X}`, `${!X}`, `${a[i]}`, `${a[@]}`, the positional and
// special parameters, and the operators (`:-`, `:=`, `:+`, `#`, `%`, `/`, `^^`). The value is
// found first (parameter_values), then the operator is applied to it, then it is split unless
// quoted.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "analyzer/render/bash/evaluator.h"
#include "analyzer/render/bash/fields.h"
#include "analyzer/render/bash/observe.h"
#include "analyzer/render/bash/words.h"
#include "analyzer/support/secrets.h"

namespace sbr::bash {

// One `${...}` as written, and what is known of its value so far.
struct Evaluator::ParamRef {
  std::string name;
  std::string index;  // "@", "*", a number or a key
  bool length = false, indirect = false;
  std::string op;  // the operator as written: `:-`, `##`
  std::vector<TSNode> operands;
  TSNode index_node{};
  bool all = false;    // every element ("$@", "${a[*]}")
  bool is_set = true;  // false: unset, or unknown (defaults apply as the default guess)
};

namespace {

Evaluator::ParamRef parse_parameter(TSNode n, const Ctx& ctx) {
  Evaluator::ParamRef p;
  bool seen_name = false;
  for (TSNode c : children(n)) {
    K ck = sym(c);
    if (!seen_name) {
      if (ck == K::variable_name || ck == K::special_variable_name) {
        p.name = std::string(ctx.tree->slice(c));
        seen_name = true;
      } else if (ck == K::subscript) {
        p.name = std::string(ctx.tree->slice(field(c, F::name)));
        p.index_node = field(c, F::index);
        p.index = std::string(ctx.tree->slice(p.index_node));
        seen_name = true;
      } else if (ck == K::hash && sym(n) == K::expansion) {
        p.length = true;
      } else if (ck == K::bang) {
        p.indirect = true;
      }
      continue;
    }
    if (!ts_node_is_named(c)) {
      if (ck != K::brace_close && p.op.empty()) p.op = std::string(kind(c));
      continue;
    }
    p.operands.push_back(c);
  }
  p.all = p.index == "@" || p.index == "*";
  return p;
}

EWord symbolic_word(std::string origin) {
  EWord w;
  w.w.symbolic = true;
  w.w.origin = std::move(origin);
  w.default_known = false;
  return w;
}

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

bool parameter_empty(const std::vector<EWord>& vals) {
  return vals.empty() || (vals.size() == 1 && !vals[0].w.symbolic && vals[0].w.text.empty());
}

}  // namespace

// Expansion recurses through here (`${a:-${b:-...}}`, `${a[${i}]}`): the words built on the
// way out are made in the helpers marked noinline, so that their temporaries are not part of
// every level's stack frame.
std::vector<EWord> Evaluator::expand_parameter(TSNode n, Ctx& ctx, bool assignment) {
  ParamRef p = parse_parameter(n, ctx);
  if (p.name.empty() || (p.indirect && !resolve_indirect(p)))
    return unresolved_parameter(n, ctx, p);
  std::vector<EWord> vals;
  if (auto alt_words = parameter_values(n, ctx, p, assignment, vals)) return std::move(*alt_words);
  mark_secret(p, vals);
  if (p.length) return finish_expansion(n, ctx, {parameter_length(p, vals)});
  apply_parameter_op(p, vals, ctx);
  return parameter_fields(n, ctx, std::move(vals), assignment);
}

// `${}` without a name as written; `${!X}` with X unknown.
[[gnu::noinline]] std::vector<EWord> Evaluator::unresolved_parameter(TSNode n, Ctx& ctx,
                                                                     const ParamRef& p) {
  if (p.name.empty()) return finish_expansion(n, ctx, {literal(std::string(ctx.tree->slice(n)))});
  return finish_expansion(n, ctx, {symbolic_word("indirect ${!" + p.name + "}")});
}

void Evaluator::mark_secret(const ParamRef& p, std::vector<EWord>& vals) {
  if (!secrets::is_secret_name(p.name)) return;
  for (auto& w : vals) w.secret_var = p.name;
}

// The value as the expansion's words: as is when quoted or assigned, else split.
[[gnu::noinline]] std::vector<EWord> Evaluator::parameter_fields(TSNode n, Ctx& ctx,
                                                                 std::vector<EWord> vals,
                                                                 bool assignment) {
  for (EWord& w : vals) w.in_quotes = false;  // the string around it, if any, sets it
  if (assignment) return finish_expansion(n, ctx, vals);
  // Unquoted: split concrete values.
  std::vector<EWord> fields;
  for (const EWord& w : vals) {
    for (EWord& f : split_fields(w)) fields.push_back(std::move(f));
  }
  return finish_expansion(n, ctx, std::move(fields));
}

// `${!X}`: the parameter X names, when X holds a concrete name.
bool Evaluator::resolve_indirect(ParamRef& p) {
  const Var* v = lookup(p.name);
  if (!v || v->elems().empty() || v->elems()[0].w.symbolic) return false;
  p.name = v->elems()[0].w.text;
  return true;
}

// The value as fields into `vals`. Returns the finished words when a scalar set only on other
// paths stands for its alternatives instead.
std::optional<std::vector<EWord>> Evaluator::parameter_values(TSNode n, Ctx& ctx, ParamRef& p,
                                                              bool assignment,
                                                              std::vector<EWord>& vals) {
  Location at = loc(n, ctx.tree);
  if (special_parameter(p, at, ctx, vals)) return std::nullopt;
  if (const Var* v = lookup(p.name)) {
    if (p.all) {
      // The array on the path being rendered (expand_value), or its default words.
      if (alt_override_.first == p.name && alt_override_.second < v->value.size()) {
        const Alt& a = v->value.alts[alt_override_.second];
        vals = a.elems;
        for (EWord& w : vals) w.w.from.condition = join(a.cond, w.w.from.condition);
      } else {
        vals = v->elems();
        if (v->value.size() > 1 &&
            std::find(alt_probe_.begin(), alt_probe_.end(), p.name) == alt_probe_.end())
          alt_probe_.push_back(p.name);
      }
      // An element added on a path this one contradicts is not in the array here.
      std::erase_if(vals, [&](const EWord& w) { return ctx.cond.contradicts(w.w.from.condition); });
      for (auto& w : vals) w.keep_from = true;
    } else if (!p.index.empty() && v->array) {
      vals = {array_element(*v, p, ctx)};
    } else {
      scalar_value(*v, p, vals);
    }
    return std::nullopt;
  }
  vals = env_word(p.name, at);
  // Validated by a check that exits (`[[ $PORT =~ ... ]] || exit`): no longer input.
  if (validated_.count(p.name)) vals[0].w.tainted = false;
  p.is_set = false;
  return std::nullopt;
}

// The positional and special parameters (`$@`, `$#`, `$0`, `$1`, `$?`, BASH_SOURCE); false
// for any other name.
bool Evaluator::special_parameter(ParamRef& p, Location at, const Ctx& ctx,
                                  std::vector<EWord>& vals) {
  const std::string& name = p.name;
  auto argument_word = [&](std::string origin, std::string var) {
    EWord w;
    w.w.symbolic = true;
    w.w.origin = std::move(origin);
    w.w.tainted = true;
    w.taint_var = std::move(var);
    w.taint_at = at;
    w.taint_source = ValueSource::Argument;
    return w;
  };
  if (name == "@" || name == "*") {
    p.all = true;
    if (st_.positional_unknown) {
      EWord w = argument_word("script arguments", "arguments");
      w.default_known = false;
      vals = {w};
    } else {
      vals = st_.positional;
      for (auto& w : vals) w.keep_from = true;
    }
  } else if (name == "#") {
    if (st_.positional_unknown) {
      EWord w = argument_word("argument count", "arguments");
      w.default_known = false;
      vals = {w};
    } else {
      vals = {literal(std::to_string(st_.positional.size()))};
    }
  } else if (name == "0") {
    vals = {literal(file_.path)};
  } else if (!name.empty() && std::isdigit(static_cast<unsigned char>(name[0]))) {
    size_t i = std::stoul(name);
    if (st_.positional_unknown) {
      vals = {argument_word("argument " + name, "argument " + name)};
      // The script's (i + shifted)-th argument, while the shifts are known.
      if (st_.shifted >= 0)
        vals[0].w.identity = fmt::format("${}", i + static_cast<size_t>(st_.shifted));
      p.is_set = false;  // unknown: defaults apply as the default guess
    } else if (i >= 1 && i <= st_.positional.size()) {
      vals = {st_.positional[i - 1]};
    } else {
      vals = {literal("")};
      p.is_set = false;
    }
  } else if (name == "?" || name == "$" || name == "!" || name == "-" || name == "_") {
    vals = {symbolic_word("special parameter $" + name)};
    if (name == "$") vals[0].w.identity = "$$";  // the script's pid: one value for the run
  } else if (name == "BASH_SOURCE") {
    vals = {literal(path_of(ctx.tree))};  // the file being read, also inside a sourced one
  } else {
    return false;
  }
  return true;
}

// `${a[i]}` / `${m[key]}`: one element, or empty and unset when there is none.
EWord Evaluator::array_element(const Var& v, ParamRef& p, Ctx& ctx) {
  if (v.assoc) {
    EWord key = expand_joined(p.index_node, ctx);
    if (key_override_.first == p.name && key_override_.second < v.keys.size()) {
      EWord w = v.elems()[key_override_.second];
      w.keep_from = true;
      return w;
    }
    if (key.w.symbolic && !v.keys.empty()) {
      // An unknown key: this path's element is the one its default names (if any); each other
      // element is the value on the path where the key is its own (expand_value).
      std::string key_var = var_in(p.index);
      bool seen = std::any_of(key_probe_.begin(), key_probe_.end(),
                              [&](const KeyProbe& k) { return k.array == p.name; });
      if (!key_var.empty() && !seen) key_probe_.push_back({p.name, key_var, key.w.text});
    }
    auto it = std::find(v.keys.begin(), v.keys.end(), key.w.text);
    if (it != v.keys.end()) return v.elems()[static_cast<size_t>(it - v.keys.begin())];
  } else {
    auto iv = arith(p.index_node, ctx);
    if (iv && *iv >= 0 && static_cast<size_t>(*iv) < v.elems().size()) {
      EWord w = v.elems()[static_cast<size_t>(*iv)];
      w.keep_from = true;
      return w;
    }
  }
  p.is_set = false;
  return literal("");
}

// A scalar's value here, or the value it has on the path being rendered (alt_override_). A
// value set only on some paths (empty by default, `$publish` unquoted) is no exception: the
// word is expanded once more per other path's value (value_of), each its own alternative.
void Evaluator::scalar_value(const Var& v, ParamRef& p, std::vector<EWord>& vals) {
  const std::string& name = p.name;
  if (v.elems().empty()) {
    vals = {literal("")};
    p.is_set = v.array;
  } else {
    vals = {v.elems()[0]};
  }
  // Expanding the word once more with this variable's value on another path (expand_value).
  if (alt_override_.first == name && alt_override_.second < v.value.size()) {
    const Alt& a = v.value.alts[alt_override_.second];
    vals = a.elems.empty() ? std::vector<EWord>{literal("")} : a.elems;
    for (EWord& w : vals) w.w.from.condition = join(a.cond, w.w.from.condition);
  } else if (v.value.size() > 1 &&
             std::find(alt_probe_.begin(), alt_probe_.end(), name) == alt_probe_.end()) {
    alt_probe_.push_back(name);
  }
}

// `${#X}`, `${#a[@]}`.
EWord Evaluator::parameter_length(const ParamRef& p, const std::vector<EWord>& vals) {
  if (p.all) return literal(std::to_string(vals.size()));
  if (vals.size() == 1 && !vals[0].w.symbolic)
    return literal(std::to_string(vals[0].w.text.size()));
  return symbolic_word("length of " + p.name);
}

// The operand of the operator, joined as one word.
EWord Evaluator::parameter_operand(const ParamRef& p, Ctx& ctx) {
  EWord acc = literal("");
  for (TSNode o : p.operands) concat_into(acc, expand_joined(o, ctx));
  return acc;
}

void Evaluator::apply_parameter_op(ParamRef& p, std::vector<EWord>& vals, Ctx& ctx) {
  const std::string& op = p.op;
  if (op == ":-" || op == "-" || op == ":=" || op == "=") {
    apply_default(p, vals, ctx);
  } else if (op == ":+" || op == "+") {
    apply_alternative(p, vals, ctx);
  } else if (op == ":?" || op == "?") {
    // Fails when unset: the value is what it is.
  } else if (op == "#" || op == "##" || op == "%" || op == "%%") {
    apply_affix_removal(p, vals, ctx);
  } else if (op == "/" || op == "//") {
    apply_substitution(p, vals, ctx);
  } else if (!op.empty()) {
    apply_other_op(p, vals);
  }
}

// `${X#p}`, `${X##p}`, `${X%p}`, `${X%%p}`.
void Evaluator::apply_affix_removal(ParamRef& p, std::vector<EWord>& vals, Ctx& ctx) {
  EWord pat = parameter_operand(p, ctx);
  remove_affixes(p, vals, pat);
}

[[gnu::noinline]] void Evaluator::remove_affixes(const ParamRef& p, std::vector<EWord>& vals,
                                                 const EWord& pat) {
  for (EWord& w : vals) {
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

// `${X:-d}`, `${X-d}`, `${X:=d}`, `${X=d}`.
void Evaluator::apply_default(ParamRef& p, std::vector<EWord>& vals, Ctx& ctx) {
  const std::string& op = p.op;
  bool unknown = vals.size() == 1 && vals[0].w.symbolic && !p.is_set;
  bool use_default = op[0] == ':' ? parameter_empty(vals) : !p.is_set;
  EWord d = parameter_operand(p, ctx);
  place_default(p, vals, d, unknown, use_default, ctx);
}

[[gnu::noinline]] void Evaluator::place_default(const ParamRef& p, std::vector<EWord>& vals,
                                                EWord& d, bool unknown, bool use_default,
                                                Ctx& ctx) {
  const std::string& op = p.op;
  // The default's own place is a step of the value's chain (`${X:-...}`).
  if (!p.operands.empty()) {
    Provenance def_at = prov(p.operands[0], ctx);
    def_at.via = std::move(d.w.from.via);
    d.w.from = std::move(def_at);
    mark_site(d, StepRole::Default, p.name);
  }
  if (unknown) {
    // Unknown value: symbolic, with the default as the best guess.
    EWord w = vals[0];
    w.w.text = d.w.text;
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
  if ((op == ":=" || op == "=") && (unknown || use_default)) {
    assign_slot(p.name, false).value.reset(vals);
  }
}

// `${X:+a}`, `${X+a}`.
void Evaluator::apply_alternative(ParamRef& p, std::vector<EWord>& vals, Ctx& ctx) {
  bool unknown = vals.size() == 1 && vals[0].w.symbolic && !p.is_set;
  bool use_alt = p.op[0] == ':' ? !parameter_empty(vals) : p.is_set;
  EWord a = parameter_operand(p, ctx);
  place_alternative(p, vals, a, unknown, use_alt);
}

[[gnu::noinline]] void Evaluator::place_alternative(const ParamRef& p, std::vector<EWord>& vals,
                                                    const EWord& a, bool unknown, bool use_alt) {
  if (unknown) {
    EWord w = a;
    w.w.symbolic = true;
    w.w.identity.clear();
    w.w.origin = fmt::format("{} when {} is set", a.w.text, p.name);
    w.w.text = "";
    vals = {w};
  } else {
    vals = {use_alt ? a : literal("")};
  }
}

// `${X/pat/rep}`, `${X//pat/rep}`: literal patterns on concrete values.
void Evaluator::apply_substitution(ParamRef& p, std::vector<EWord>& vals, Ctx& ctx) {
  EWord pat = p.operands.empty() ? literal("") : expand_joined(p.operands[0], ctx);
  EWord rep = p.operands.size() > 1 ? expand_joined(p.operands[1], ctx) : literal("");
  substitute(p, vals, pat, rep);
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
