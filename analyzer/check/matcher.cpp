#include "analyzer/check/matcher.h"

#include <fmt/format.h>

#include <algorithm>

#include "analyzer/engine/paths.h"

namespace sbr::match {

std::string CompileScope::err(const yaml::Node& at, std::string_view what) const {
  return fmt::format("{}:{}:{}: {}", file, at.line, at.column, what);
}

Value get(const FieldRef& ref, const Scope& s) {
  const Scope* at = &s;
  for (int i = 0; i < ref.hops && at != nullptr; ++i) at = at->parent;
  return at == nullptr ? Value{} : ref.def->get(*at);
}

// ------------------------------------------------------------------ evaluation

namespace {

std::string_view host_class_of(std::string_view path) {
  static constexpr std::string_view kNames[] = {
      "none",     "device", "runtime-socket", "credential-store",  "instruction-dir",
      "auto-run", "home",   "system-path",    "public-system-file"};
  return kNames[static_cast<int>(engine::classify_host_path(path).kind)];
}

bool in_set(const std::vector<std::string>& set, std::string_view v) {
  return std::find(set.begin(), set.end(), v) != set.end();
}

bool cmp_int(Op op, std::int64_t a, std::int64_t b) {
  switch (op) {
    case Op::Lt:
      return a < b;
    case Op::Le:
      return a <= b;
    case Op::Gt:
      return a > b;
    case Op::Ge:
      return a >= b;
    default:
      return false;
  }
}

bool condition_is(const Provenance* p, std::string_view want) {
  bool always = p == nullptr || p->condition().always();
  if (want == "none") return always;
  if (want == "conditional") return !always;
  if (want == "switch") return !always && p->condition().needs_switch;
  return !always && !p->condition().needs_switch;  // "default"
}

bool cidr_test(const Test& t, std::string_view v) {
  auto c = engine::parse_cidr(v);
  if (!c) return false;
  return std::any_of(t.cidrs.begin(), t.cidrs.end(), [&](const engine::Cidr& x) {
    switch (t.op) {
      case Op::Within:
        return engine::cidr_contains(x, *c);
      case Op::Contains:
        return engine::cidr_contains(*c, x);
      default:
        return engine::cidr_overlaps(x, *c);
    }
  });
}

bool test_string(const Test& t, std::string_view v) {
  switch (t.op) {
    case Op::Eq:
      return v == t.s;
    case Op::Ne:
      return v != t.s;
    case Op::In:
      return in_set(t.set, v);
    case Op::NotIn:
      return !in_set(t.set, v);
    case Op::Regex:
      return RE2::PartialMatch(re2::StringPiece(v.data(), v.size()), *t.re);
    case Op::NotRegex:
      return !RE2::PartialMatch(re2::StringPiece(v.data(), v.size()), *t.re);
    case Op::Prefix:
      return v.substr(0, t.s.size()) == t.s;
    case Op::Suffix:
      return v.size() >= t.s.size() && v.substr(v.size() - t.s.size()) == t.s;
    case Op::Under:
      return engine::path_within(engine::normalize_path(v), t.s);
    case Op::Class:
      return in_set(t.set, host_class_of(v));
    case Op::Within:
    case Op::Contains:
    case Op::Overlaps:
      return cidr_test(t, v);
    default:
      return false;
  }
}

bool test_list(const Test& t, const std::vector<std::string>& l) {
  switch (t.op) {
    case Op::Has:
      return in_set(l, t.s);
    case Op::HasAny:
      return std::any_of(t.set.begin(), t.set.end(), [&](const auto& x) { return in_set(l, x); });
    case Op::HasAll:
      return std::all_of(t.set.begin(), t.set.end(), [&](const auto& x) { return in_set(l, x); });
    case Op::Empty:
      return l.empty() == t.b;
    default:
      return false;
  }
}

bool test_one(const Test& t, const Value& v) {
  if (t.op == Op::Present) return v.set() == t.b;
  if (!v.set()) return false;  // unset is not false
  if (t.op == Op::Condition) return condition_is(v.from, t.s);
  switch (v.kind) {
    case Value::Kind::Bool:
      return t.op == Op::Eq ? v.b == t.b : v.b != t.b;
    case Value::Kind::Int:
      switch (t.op) {
        case Op::Eq:
          return v.i == t.i;
        case Op::Ne:
          return v.i != t.i;
        case Op::In:
          return std::find(t.set.begin(), t.set.end(), std::to_string(v.i)) != t.set.end();
        case Op::NotIn:
          return std::find(t.set.begin(), t.set.end(), std::to_string(v.i)) == t.set.end();
        default:
          return cmp_int(t.op, v.i, t.i);
      }
    case Value::Kind::Str:
      return test_string(t, v.s);
    case Value::Kind::List:
      return test_list(t, *v.list);
    case Value::Kind::Unset:
      return false;
  }
  return false;
}

struct Quantified {
  const Pred* where;
  const Scope* parent;
  const KindDef* kind;
  int matched = 0;
  int seen = 0;
};

void visit_child(const void* obj, void* user) {
  auto* q = static_cast<Quantified*>(user);
  Scope s;
  s.model = q->parent->model;
  s.kind = q->kind;
  s.object = obj;
  s.parent = q->parent;
  ++q->seen;
  if (eval(*q->where, s)) ++q->matched;
}

}  // namespace

bool eval(const Pred& p, const Scope& s) {
  switch (p.k) {
    case Pred::K::All:
      return std::all_of(p.children.begin(), p.children.end(),
                         [&](const Pred& c) { return eval(c, s); });
    case Pred::K::Any:
      return std::any_of(p.children.begin(), p.children.end(),
                         [&](const Pred& c) { return eval(c, s); });
    case Pred::K::Not:
      return !eval(p.children.front(), s);
    case Pred::K::Field: {
      Value v = get(p.field, s);
      return std::all_of(p.tests.begin(), p.tests.end(), [&](const Test& t) {
        if (t.op != Op::SameAs) return test_one(t, v);
        Value o = get(t.other, s);
        return v.set() && o.set() && v.kind == o.kind && v.s == o.s && v.i == o.i && v.b == o.b;
      });
    }
    case Pred::K::Exists:
    case Pred::K::None:
    case Pred::K::Every: {
      const Scope* parent = &s;
      for (int i = 0; i < p.each_hops && parent != nullptr; ++i) parent = parent->parent;
      if (parent == nullptr) return p.k != Pred::K::Exists;
      Quantified q{&p.children.front(), parent, p.each};
      p.each->each(*parent, &visit_child, &q);
      if (p.k == Pred::K::Exists) return q.matched > 0;
      if (p.k == Pred::K::None) return q.matched == 0;
      return q.matched == q.seen;
    }
  }
  return false;
}

}  // namespace sbr::match
