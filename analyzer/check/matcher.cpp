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
  bool always = p == nullptr || p->condition.always();
  if (want == "none") return always;
  if (want == "conditional") return !always;
  if (want == "switch") return !always && p->condition.needs_switch;
  return !always && !p->condition.needs_switch;  // "default"
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

// ------------------------------------------------------------------ compilation

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

// Ops each field type accepts.
bool op_allowed(FieldType t, Op op) {
  if (op == Op::Present || op == Op::Condition || op == Op::SameAs) return true;
  switch (t) {
    case FieldType::Bool:
      return op == Op::Eq || op == Op::Ne;
    case FieldType::Int:
      return op == Op::Eq || op == Op::Ne || op == Op::In || op == Op::NotIn || op == Op::Lt ||
             op == Op::Le || op == Op::Gt || op == Op::Ge;
    case FieldType::List:
      return op == Op::Has || op == Op::HasAny || op == Op::HasAll || op == Op::Empty;
    case FieldType::Location:
      return false;
    case FieldType::Enum:
    case FieldType::String:
      return op == Op::Eq || op == Op::Ne || op == Op::In || op == Op::NotIn || op == Op::Regex ||
             op == Op::NotRegex || op == Op::Prefix || op == Op::Suffix;
    case FieldType::Path:
      return op == Op::Eq || op == Op::Ne || op == Op::In || op == Op::NotIn || op == Op::Regex ||
             op == Op::NotRegex || op == Op::Prefix || op == Op::Suffix || op == Op::Under ||
             op == Op::Class;
    case FieldType::Cidr:
      return op == Op::Eq || op == Op::Ne || op == Op::In || op == Op::NotIn || op == Op::Regex ||
             op == Op::NotRegex || op == Op::Prefix || op == Op::Suffix || op == Op::Within ||
             op == Op::Contains || op == Op::Overlaps;
  }
  return false;
}

struct OpName {
  std::string_view name;
  Op op;
};
constexpr OpName kOps[] = {
    {"eq", Op::Eq},
    {"ne", Op::Ne},
    {"in", Op::In},
    {"not_in", Op::NotIn},
    {"lt", Op::Lt},
    {"le", Op::Le},
    {"gt", Op::Gt},
    {"ge", Op::Ge},
    {"regex", Op::Regex},
    {"not_regex", Op::NotRegex},
    {"prefix", Op::Prefix},
    {"suffix", Op::Suffix},
    {"under", Op::Under},
    {"class", Op::Class},
    {"within", Op::Within},
    {"contains", Op::Contains},
    {"overlaps", Op::Overlaps},
    {"present", Op::Present},
    {"has", Op::Has},
    {"has_any", Op::HasAny},
    {"has_all", Op::HasAll},
    {"empty", Op::Empty},
    {"condition", Op::Condition},
    {"same_as", Op::SameAs},
};

std::string op_names() {
  std::string out;
  for (const auto& o : kOps) out += (out.empty() ? "" : "|") + std::string(o.name);
  return out;
}

const std::vector<std::string_view>& host_classes() {
  static const std::vector<std::string_view> v = {
      "none",     "device", "runtime-socket", "credential-store",  "instruction-dir",
      "auto-run", "home",   "system-path",    "public-system-file"};
  return v;
}

const std::vector<std::string_view>& condition_values() {
  static const std::vector<std::string_view> v = {"none", "conditional", "default", "switch"};
  return v;
}

class TestCompiler {
 public:
  TestCompiler(const CompileScope& cs, const FieldRef& f) : cs_(cs), f_(f) {}

  // One `op: value` of a field's test mapping; `key` is where the test is named (the op's key,
  // or the field's for a shorthand).
  Result<Test> compile(Op op, const yaml::Node& key, const yaml::Node& v) {
    const FieldType type = f_.def->type;
    if (!op_allowed(type, op)) {
      return Error{cs_.err(key, fmt::format("`{}` is a {} field: it has no `{}` test", f_.path,
                                            field_type_name(type), name_of(op)))};
    }
    Test t;
    t.op = op;
    switch (op) {
      case Op::Present:
      case Op::Empty:
        return boolean(v, t);
      case Op::Condition:
        if (!v.is_scalar() || std::find(condition_values().begin(), condition_values().end(),
                                        v.scalar) == condition_values().end()) {
          return Error{
              cs_.err(v, fmt::format("`condition` is {}", fmt::join(condition_values(), "|")))};
        }
        t.s = v.scalar;
        return t;
      case Op::Eq:
      case Op::Ne:
        if (type == FieldType::Bool) return boolean(v, t);
        if (type == FieldType::Int) return integer(v, t);
        return scalar(v, t, true);
      case Op::Lt:
      case Op::Le:
      case Op::Gt:
      case Op::Ge:
        return integer(v, t);
      case Op::In:
      case Op::NotIn:
      case Op::HasAny:
      case Op::HasAll:
        return set(v, t, op == Op::In || op == Op::HasAny);
      case Op::Has:
      case Op::Prefix:
      case Op::Suffix:
        return scalar(v, t, false);
      case Op::Under:
        if (!v.is_scalar()) return Error{cs_.err(v, "`under` takes a path")};
        t.s = engine::normalize_path(v.scalar);
        return t;
      case Op::Class: {
        std::vector<std::string> values = v.is_seq() ? items(v) : std::vector<std::string>{};
        if (v.is_scalar()) values.push_back(v.scalar);
        for (size_t i = 0; i < values.size(); ++i) {
          const yaml::Node& at = v.is_seq() ? *v.items[i] : v;
          if (std::find(host_classes().begin(), host_classes().end(), values[i]) ==
              host_classes().end()) {
            return Error{cs_.err(at, fmt::format("`{}` is not a host path class ({})", values[i],
                                                 fmt::join(host_classes(), "|")))};
          }
        }
        if (values.empty()) return Error{cs_.err(v, "`class: []` can never match")};
        t.set = std::move(values);
        return t;
      }
      case Op::Within:
      case Op::Contains:
      case Op::Overlaps:
        return cidrs(v, t);
      case Op::SameAs: {
        if (!v.is_scalar()) return Error{cs_.err(v, "`same_as` names a field")};
        auto ref = resolve_field(cs_, v.scalar, v);
        if (!ref) return ref.error();
        auto stringy = [](FieldType t) {
          return t == FieldType::String || t == FieldType::Enum || t == FieldType::Path ||
                 t == FieldType::Cidr;
        };
        if (ref->def->type != f_.def->type && !(stringy(ref->def->type) && stringy(f_.def->type))) {
          return Error{
              cs_.err(v, fmt::format("`{}` and `{}` are of different types", f_.path, v.scalar))};
        }
        t.other = std::move(*ref);
        return t;
      }
      case Op::Regex:
      case Op::NotRegex: {
        if (!v.is_scalar()) return Error{cs_.err(v, "a regex is a string")};
        auto re = std::make_shared<RE2>(v.scalar, RE2::Quiet);
        if (!re->ok()) {
          return Error{cs_.err(v, fmt::format("invalid regex `{}`: {}", v.scalar, re->error()))};
        }
        t.re = std::move(re);
        return t;
      }
    }
    return t;
  }

  static std::string_view name_of(Op op) {
    for (const auto& o : kOps) {
      if (o.op == op) return o.name;
    }
    return "?";
  }

 private:
  static std::vector<std::string> items(const yaml::Node& v) {
    std::vector<std::string> out;
    for (const yaml::Node* i : v.items) out.push_back(i->is_scalar() ? i->scalar : std::string());
    return out;
  }

  Result<Test> boolean(const yaml::Node& v, Test& t) const {
    auto b = v.as_bool();
    if (!b || v.quoted) {
      return Error{cs_.err(v, fmt::format("`{}` takes true or false", f_.path))};
    }
    t.b = *b;
    return t;
  }
  Result<Test> integer(const yaml::Node& v, Test& t) const {
    auto i = v.as_int();
    if (!i || v.quoted) return Error{cs_.err(v, fmt::format("`{}` compares numbers", f_.path))};
    t.i = *i;
    t.s = std::to_string(*i);
    return t;
  }
  // A scalar; for an Enum field (`check_domain`) it must be one of its values.
  Result<Test> scalar(const yaml::Node& v, Test& t, bool check_domain) const {
    if (!v.is_scalar()) return Error{cs_.err(v, fmt::format("`{}` takes one value", f_.path))};
    if (check_domain) {
      if (auto e = in_domain(v, v.scalar)) return *e;
    }
    t.s = v.scalar;
    return t;
  }
  std::optional<Error> in_domain(const yaml::Node& at, const std::string& value) const {
    const auto& d = f_.def->domain;
    if (f_.def->type != FieldType::Enum || std::find(d.begin(), d.end(), value) != d.end())
      return std::nullopt;
    return Error{cs_.err(at, fmt::format("`{}` is never `{}` (it is one of {}): the test can "
                                         "never match",
                                         f_.path, value, fmt::join(d, "|")))};
  }
  Result<Test> set(const yaml::Node& v, Test& t, bool empty_never_matches) const {
    if (!v.is_seq()) return Error{cs_.err(v, "a list of values is needed")};
    if (v.items.empty() && empty_never_matches) {
      return Error{cs_.err(v, "an empty list can never match")};
    }
    for (const yaml::Node* i : v.items) {
      if (!i->is_scalar()) return Error{cs_.err(*i, "a list of values is needed")};
      if (f_.def->type == FieldType::Int && !i->as_int()) {
        return Error{cs_.err(*i, fmt::format("`{}` compares numbers", f_.path))};
      }
      if (auto e = in_domain(*i, i->scalar)) return *e;
      t.set.push_back(f_.def->type == FieldType::Int ? std::to_string(*i->as_int()) : i->scalar);
    }
    return t;
  }
  Result<Test> cidrs(const yaml::Node& v, Test& t) const {
    std::vector<const yaml::Node*> nodes =
        v.is_seq() ? v.items : std::vector<const yaml::Node*>{&v};
    for (const yaml::Node* n : nodes) {
      auto c = n->is_scalar() ? engine::parse_cidr(n->scalar) : std::nullopt;
      if (!c) return Error{cs_.err(*n, "an address or CIDR range is needed")};
      t.cidrs.push_back(*c);
    }
    if (t.cidrs.empty()) return Error{cs_.err(v, "an empty list can never match")};
    return t;
  }

  const CompileScope& cs_;
  const FieldRef& f_;
};

// Tests of one mapping that can never hold together.
std::optional<std::string> contradiction(const std::vector<Test>& tests) {
  bool absent = false, other = false;
  std::optional<std::int64_t> lo, hi;
  for (const Test& t : tests) {
    if (t.op == Op::Present && !t.b) absent = true;
    if (t.op != Op::Present && t.op != Op::Condition) other = true;
    if (t.op == Op::Gt) lo = std::max(lo.value_or(t.i + 1), t.i + 1);
    if (t.op == Op::Ge) lo = std::max(lo.value_or(t.i), t.i);
    if (t.op == Op::Lt) hi = std::min(hi.value_or(t.i - 1), t.i - 1);
    if (t.op == Op::Le) hi = std::min(hi.value_or(t.i), t.i);
  }
  if (absent && other) return "`present: false` with another test can never match";
  if (lo && hi && *lo > *hi) return "the numeric bounds leave no value: it can never match";
  return std::nullopt;
}

Result<Pred> compile_field(const CompileScope& cs, const yaml::Node& key, const yaml::Node& val) {
  auto ref = resolve_field(cs, key.scalar, key);
  if (!ref) return ref.error();
  Pred p;
  p.k = Pred::K::Field;
  p.field = *ref;
  TestCompiler tc(cs, p.field);
  const FieldType type = ref->def->type;
  auto add = [&](Op op, const yaml::Node& at, const yaml::Node& v) -> std::optional<Error> {
    auto t = tc.compile(op, at, v);
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
      auto it = std::find_if(std::begin(kOps), std::end(kOps),
                             [&](const OpName& o) { return o.name == k->scalar; });
      if (it == std::end(kOps)) {
        return Error{
            cs.err(*k, fmt::format("unknown test `{}` (tests: {})", k->scalar, op_names()))};
      }
      if ((e = add(it->op, *k, *v))) break;
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
