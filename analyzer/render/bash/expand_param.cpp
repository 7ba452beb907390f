// Parameter expansion: `$X`, `${X}`, `${#X}`, `${!X}`, `${a[i]}`, `${a[@]}`, the positional and
// special parameters. The value is found here (parameter_values), on every path that reaches
// the expansion; then the operator is applied to it and it is split unless quoted
// (expand_param_ops.cpp).
#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "analyzer/render/bash/evaluator.h"
#include "analyzer/render/bash/expand_param.h"
#include "analyzer/render/bash/fields.h"
#include "analyzer/render/bash/observe.h"
#include "analyzer/render/bash/words.h"
#include "analyzer/support/secrets.h"

namespace sbr::bash {

EWord symbolic_word(std::string origin) {
  EWord w;
  w.w.symbolic = true;
  w.w.origin = std::move(origin);
  w.default_known = false;
  return w;
}

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

}  // namespace

// Expansion recurses through here (`${a:-${b:-...}}`, `${a[${i}]}`): the words built on the
// way out are made in the helpers marked noinline, so that their temporaries are not part of
// every level's stack frame.
Value Evaluator::expand_parameter(TSNode n, Ctx& ctx, bool assignment) {
  ParamRef p = parse_parameter(n, ctx);
  if (p.name.empty() || (p.indirect && !resolve_indirect(p)))
    return unresolved_parameter(n, ctx, p);
  return operated_value(n, ctx, p, parameter_values(n, ctx, p), assignment);
}

// `${}` without a name as written; `${!X}` with X unknown.
[[gnu::noinline]] Value Evaluator::unresolved_parameter(TSNode n, Ctx& ctx, const ParamRef& p) {
  if (p.name.empty())
    return finish_expansion(n, ctx, Value({literal(std::string(ctx.tree->slice(n)))}));
  return finish_expansion(n, ctx, Value({symbolic_word("indirect ${!" + p.name + "}")}));
}

// `${!X}`: the parameter X names, when X holds a concrete name.
bool Evaluator::resolve_indirect(ParamRef& p) {
  const Var* v = lookup(p.name);
  if (!v || v->elems().empty() || v->elems()[0].w.symbolic) return false;
  p.name = v->elems()[0].w.text;
  return true;
}

// The parameter's value on every path that reaches here, before its operator; p.set_on says
// on which of them it is set.
[[gnu::noinline]] Value Evaluator::parameter_values(TSNode n, Ctx& ctx, ParamRef& p) {
  Location at = loc(n, ctx.tree);
  std::vector<EWord> vals;
  if (special_parameter(p, at, ctx, vals)) {
    p.set_on = {p.is_set};
    return Value(std::move(vals));
  }
  if (const Var* v = lookup(p.name)) {
    if (p.all) return array_value(*v, p, ctx);
    if (!p.index.empty() && v->array) return element_value(*v, p, ctx);
    return scalar_value(*v, p, ctx);
  }
  vals = env_word(p.name, at);
  // Validated by a check that exits (`[[ $PORT =~ ... ]] || exit`): no longer input.
  if (validated_.count(p.name)) vals[0].w.tainted = false;
  p.is_set = false;
  p.set_on = {false};
  return Value(std::move(vals));
}

namespace {

// The alternatives of a variable's value a path under `path` can see: the default's, and each
// other one that does not contradict it, at most kMaxValueAlts. The words of another path's
// value carry that path's condition.
template <class F>
Value visible_alternatives(const std::string& name, const Var& v, const Condition& path,
                           F&& words_of) {
  Value out;
  out.alts.clear();
  for (std::size_t i = 0; i < v.value.size() && out.size() < kMaxValueAlts; ++i) {
    const Alt& a = v.value.alts[i];
    if (i > 0 && path.contradicts(a.cond)) continue;  // no path reaching here has it
    Alt r{words_of(a), a.cond, a.picks, a.paths};
    if (v.value.size() > 1) r.picks.push_back(Pick{name, v.serial, i});
    if (i > 0)
      for (EWord& w : r.elems) w.w.from.set_condition(join(a.cond, w.w.from.condition()));
    out.alts.push_back(std::move(r));
  }
  return out;
}

}  // namespace

// `"${a[@]}"`: the elements on every path; an element added on a path this one contradicts is
// not in the array here.
Value Evaluator::array_value(const Var& v, ParamRef& p, const Ctx& ctx) {
  Value out = visible_alternatives(p.name, v, ctx.cond, [](const Alt& a) { return a.elems; });
  for (Alt& a : out.alts) {
    std::erase_if(a.elems,
                  [&](const EWord& w) { return ctx.cond.contradicts(w.w.from.condition()); });
    for (auto& w : a.elems) w.keep_from = true;
  }
  p.set_on.assign(out.size(), true);
  return out;
}

// A scalar's value on every path. A value set only on some paths (empty by default,
// `$publish` unquoted) is no exception: each other path's words are an alternative.
Value Evaluator::scalar_value(const Var& v, ParamRef& p, const Ctx& ctx) {
  Value out = visible_alternatives(p.name, v, ctx.cond, [&](const Alt& a) {
    if (a.elems.empty()) return std::vector<EWord>{literal("")};
    return &a == &v.value.alts.front() ? std::vector<EWord>{a.elems.front()} : a.elems;
  });
  p.set_on.clear();
  for (const Alt& a : v.value.alts) {
    if (p.set_on.size() == out.size()) break;
    if (&a != &v.value.alts.front() && ctx.cond.contradicts(a.cond)) continue;
    p.set_on.push_back(!a.elems.empty() || v.array);
  }
  p.is_set = p.set_on.front();
  return out;
}

// `${a[i]}` / `${m[key]}`: one element, or empty and unset when there is none; a key with
// other values on other paths reads each path's element.
Value Evaluator::element_value(const Var& v, ParamRef& p, Ctx& ctx) {
  if (!v.assoc) {
    auto iv = arith(p.index_node, ctx);
    p.set_on = {false};
    if (iv && *iv >= 0 && static_cast<size_t>(*iv) < v.elems().size()) {
      EWord w = v.elems()[static_cast<size_t>(*iv)];
      w.keep_from = true;
      p.set_on = {true};
      Value out({std::move(w)});
      element_alternatives(v, p, static_cast<size_t>(*iv), ctx, out);
      return out;
    }
    p.is_set = false;
    return Value({literal("")});
  }
  const Value keys = joined_value(p.index_node, ctx);
  Value out;
  out.alts.clear();
  p.set_on.clear();
  for (const Alt& ka : keys.alts) {
    const std::string& key = ka.elems.front().w.text;
    auto it = std::find(v.keys.begin(), v.keys.end(), key);
    const bool found = it != v.keys.end();
    EWord w = found ? v.elems()[static_cast<size_t>(it - v.keys.begin())] : literal("");
    if (&ka != &keys.alts.front()) w.keep_from = true;
    out.alts.push_back(Alt{{std::move(w)}, ka.cond, ka.picks, word_paths(ka)});
    p.set_on.push_back(found);
  }
  p.is_set = p.set_on.front();
  const EWord& key = keys.words().front();
  auto it = std::find(v.keys.begin(), v.keys.end(), key.w.text);
  if (it != v.keys.end())
    element_alternatives(v, p, static_cast<size_t>(it - v.keys.begin()), ctx, out);
  if (key.w.symbolic && !v.keys.empty()) key_alternatives(v, p, key.w.text, ctx, out);
  return out;
}

// The element at `at` on the array's other paths (`m[key]=$net` with net set on a branch):
// each other value of the array that holds the same elements in the same places.
void Evaluator::element_alternatives(const Var& v, ParamRef& p, std::size_t at, const Ctx& ctx,
                                     Value& out) {
  if (v.value.size() < 2) return;
  out.alts.front().picks.push_back(Pick{p.name, v.serial, 0});
  for (std::size_t i = 1; i < v.value.size() && out.size() < kMaxValueAlts; ++i) {
    const Alt& a = v.value.alts[i];
    if (a.elems.size() != v.elems().size() || ctx.cond.contradicts(a.cond)) continue;
    EWord w = a.elems[at];
    w.keep_from = true;
    out.alts.push_back(Alt{{std::move(w)}, a.cond, a.picks, a.paths});
    out.alts.back().picks.push_back(Pick{p.name, v.serial, i});
    p.set_on.push_back(true);
  }
}

// An unknown key: this path's element is the one its default names (if any); each other
// element is the value on the path where the key is its own, so that every handler a dispatch
// table names is reached (`"${handlers[$cmd]}" "$@"`).
void Evaluator::key_alternatives(const Var& v, ParamRef& p, const std::string& key_default,
                                 const Ctx& ctx, Value& out) {
  const std::string key_var = var_in(p.index);
  if (key_var.empty()) return;
  const std::string subject = subject_of(key_var);
  for (std::size_t ki = 0; ki < v.keys.size() && out.size() < kMaxKeyAlts; ++ki) {
    const std::string& key = v.keys[ki];
    if (key == key_default) continue;  // the default path's element
    CondAtom atom{key_var + "=" + key, key_var + "!=" + key, subject, key, ""};
    Condition cond = Condition::when(atom, true);
    if (ctx.cond.contradicts(cond)) continue;
    EWord w = v.elems()[ki];
    w.keep_from = true;
    out.alts.push_back(Alt{{std::move(w)}, std::move(cond)});
    p.set_on.push_back(true);
  }
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
    // Unknown arguments inside a function are an entry point's, not the script's.
    if (!st_.frames.empty() && !call_path_.empty()) w.args_of = call_path_.back();
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

}  // namespace sbr::bash
