// Compiling one field's tests: which tests each field type has and the value each test needs.
#include "analyzer/check/matcher_tests.h"

#include <fmt/format.h>

#include <algorithm>

#include "analyzer/engine/paths.h"

namespace sbr::match {

namespace {

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

}  // namespace

std::string op_names() {
  std::string out;
  for (const auto& o : kOps) out += (out.empty() ? "" : "|") + std::string(o.name);
  return out;
}

std::optional<Op> op_named(std::string_view name) {
  auto it = std::find_if(std::begin(kOps), std::end(kOps),
                         [&](const OpName& o) { return o.name == name; });
  if (it == std::end(kOps)) return std::nullopt;
  return it->op;
}

Result<Test> compile_test(const CompileScope& cs, const FieldRef& f, Op op, const yaml::Node& key,
                          const yaml::Node& v) {
  return TestCompiler(cs, f).compile(op, key, v);
}

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

}  // namespace sbr::match
