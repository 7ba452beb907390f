// Compiling a rule's `where:` tree against the field table: fields resolved (with a "did you
// mean" for typos), quantifiers over child objects, and predicates that can never match refused.
#include <fmt/format.h>

#include <algorithm>

#include "analyzer/check/matcher.h"
#include "analyzer/check/matcher_tests.h"

namespace sbr::match {

namespace {

size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

// "unknown field `x` of KIND", with the nearest field's name when one is a typo away, else
// where the kind's fields are listed (a workload has a hundred: a list would bury the error).
std::string unknown_field(std::string_view name, const KindDef& k) {
  const FieldDef* best = nullptr;
  size_t best_d = 3;  // at most two edits
  for (const FieldDef& f : k.fields) {
    size_t d = edit_distance(name, f.name);
    if (d < best_d) {
      best = &f;
      best_d = d;
    }
  }
  if (best != nullptr) {
    return fmt::format("unknown field `{}` of {}: did you mean `{}`?", name, k.name, best->name);
  }
  return fmt::format("unknown field `{}` of {} (its fields: docs/rules/match-reference.md#{})",
                     name, k.name, k.name);
}

Result<Pred> compile_field(const CompileScope& cs, const yaml::Node& key, const yaml::Node& val) {
  auto ref = resolve_field(cs, key.scalar, key);
  if (!ref) return ref.error();
  Pred p;
  p.k = Pred::K::Field;
  p.field = *ref;
  const FieldType type = ref->def->type;
  auto add = [&](Op op, const yaml::Node& at, const yaml::Node& v) -> std::optional<Error> {
    auto t = compile_test(cs, p.field, op, at, v);
    if (!t) return t.error();
    p.tests.push_back(std::move(*t));
    return std::nullopt;
  };
  std::optional<Error> e;
  if (val.is_scalar()) {
    e = add(type == FieldType::List ? Op::Has : Op::Eq, key, val);
  } else if (val.is_seq()) {
    e = add(type == FieldType::List ? Op::HasAny : Op::In, key, val);
  } else if (val.is_map()) {
    for (const auto& [k, v] : val.entries) {
      std::optional<Op> op = op_named(k->scalar);
      if (!op) {
        return Error{
            cs.err(*k, fmt::format("unknown test `{}` (tests: {})", k->scalar, op_names()))};
      }
      if ((e = add(*op, *k, *v))) break;
    }
    if (!e && p.tests.empty()) e = Error{cs.err(val, "an empty test")};
  } else {
    e = Error{cs.err(val, fmt::format("`{}` needs a value or a test", key.scalar))};
  }
  if (e) return *e;
  if (auto c = contradiction(p.tests)) return Error{cs.err(val, *c)};
  return p;
}

Result<Pred> compile_quantifier(const CompileScope& cs, Pred::K k, const yaml::Node& key,
                                const yaml::Node& val) {
  if (!val.is_map() || val.get("each") == nullptr || !val.get("each")->is_scalar()) {
    return Error{cs.err(val, fmt::format("`{}` takes {{each: KIND, where: ...}}", key.scalar))};
  }
  for (const auto& [qk, qv] : val.entries) {
    if (qk->scalar != "each" && qk->scalar != "where") {
      return Error{cs.err(*qk, fmt::format("unknown key `{}` in `{}`", qk->scalar, key.scalar))};
    }
  }
  const yaml::Node& each = *val.get("each");
  const KindDef* kind = find_kind(each.scalar);
  if (kind == nullptr)
    return Error{cs.err(each, fmt::format("unknown object kind `{}`", each.scalar))};
  int hops = -1;
  for (size_t i = 0; i < cs.chain.size(); ++i) {
    if (cs.chain[i]->name == kind->parent) {
      hops = static_cast<int>(i);
      break;
    }
  }
  if (hops < 0) {
    return Error{
        cs.err(each, fmt::format("`{}` objects are not inside a {}", each.scalar, cs.kind().name))};
  }
  Pred p;
  p.k = k;
  p.each = kind;
  p.each_hops = hops;
  CompileScope inner{cs.file, {kind}};
  for (size_t i = static_cast<size_t>(hops); i < cs.chain.size(); ++i) {
    inner.chain.push_back(cs.chain[i]);
  }
  const yaml::Node* where = val.get("where");
  if (where == nullptr) {
    p.children.emplace_back();  // every object: an empty All
    return p;
  }
  auto w = compile_where(inner, *where);
  if (!w) return w.error();
  p.children.push_back(std::move(*w));
  return p;
}

// `eq` on one field twice with different values, in one `all`.
std::optional<std::string> all_contradiction(const std::vector<Pred>& cs) {
  for (size_t i = 0; i < cs.size(); ++i) {
    for (size_t j = i + 1; j < cs.size(); ++j) {
      const Pred& a = cs[i];
      const Pred& b = cs[j];
      if (a.k != Pred::K::Field || b.k != Pred::K::Field || a.field.def != b.field.def ||
          a.field.hops != b.field.hops)
        continue;
      for (const Test& x : a.tests) {
        for (const Test& y : b.tests) {
          if (x.op == Op::Eq && y.op == Op::Eq && (x.s != y.s || x.b != y.b || x.i != y.i)) {
            return fmt::format("`{}` cannot equal two values at once: it can never match",
                               a.field.path);
          }
        }
      }
    }
  }
  return std::nullopt;
}

}  // namespace

Result<FieldRef> resolve_field(const CompileScope& cs, std::string_view name,
                               const yaml::Node& at) {
  FieldRef ref;
  ref.path = std::string(name);
  if (const FieldDef* f = cs.kind().field(name)) {
    ref.def = f;
    ref.kind = &cs.kind();
    return ref;
  }
  size_t dot = name.find('.');
  if (dot != std::string_view::npos) {
    std::string_view prefix = name.substr(0, dot), rest = name.substr(dot + 1);
    for (size_t i = 0; i < cs.chain.size(); ++i) {  // `gate.name` works inside a gate too
      if (cs.chain[i]->name != prefix) continue;
      if (const FieldDef* f = cs.chain[i]->field(rest)) {
        ref.def = f;
        ref.kind = cs.chain[i];
        ref.hops = static_cast<int>(i);
        return ref;
      }
      return Error{cs.err(at, unknown_field(rest, *cs.chain[i]))};
    }
  }
  return Error{cs.err(at, unknown_field(name, cs.kind()))};
}

Result<Pred> compile_where(const CompileScope& cs, const yaml::Node& node) {
  if (node.is_seq()) {  // a list: every item must hold
    Pred p;
    p.k = Pred::K::All;
    for (const yaml::Node* item : node.items) {
      auto c = compile_where(cs, *item);
      if (!c) return c.error();
      p.children.push_back(std::move(*c));
    }
    if (auto c = all_contradiction(p.children)) return Error{cs.err(node, *c)};
    return p;
  }
  if (!node.is_map() || node.entries.empty()) {
    return Error{cs.err(node, "a predicate is a mapping of fields to tests, or all/any/not")};
  }
  Pred all;
  all.k = Pred::K::All;
  for (const auto& [k, v] : node.entries) {
    const std::string& key = k->scalar;
    Result<Pred> c = Error{};
    if (key == "all" || key == "any") {
      if (!v->is_seq()) return Error{cs.err(*v, fmt::format("`{}` takes a list", key))};
      if (key == "any" && v->items.empty()) {
        return Error{cs.err(*v, "`any: []` can never match")};
      }
      Pred p;
      p.k = key == "all" ? Pred::K::All : Pred::K::Any;
      for (const yaml::Node* item : v->items) {
        auto ci = compile_where(cs, *item);
        if (!ci) return ci.error();
        p.children.push_back(std::move(*ci));
      }
      if (key == "all") {
        if (auto e = all_contradiction(p.children)) return Error{cs.err(*v, *e)};
      }
      c = std::move(p);
    } else if (key == "not") {
      auto inner = compile_where(cs, *v);
      if (!inner) return inner.error();
      Pred p;
      p.k = Pred::K::Not;
      p.children.push_back(std::move(*inner));
      c = std::move(p);
    } else if (key == "exists" || key == "none" || key == "every") {
      c = compile_quantifier(cs,
                             key == "exists" ? Pred::K::Exists
                             : key == "none" ? Pred::K::None
                                             : Pred::K::Every,
                             *k, *v);
    } else {
      c = compile_field(cs, *k, *v);
    }
    if (!c) return c.error();
    all.children.push_back(std::move(*c));
  }
  if (auto e = all_contradiction(all.children)) return Error{cs.err(node, *e)};
  if (all.children.size() == 1) return std::move(all.children.front());
  return all;
}

}  // namespace sbr::match
