// The predicate half of the rule language: a `where:` tree compiled once, against the field
// table (check/fields.h), into typed tests; evaluated on one object at a time. The reference
// is docs/rules/match-reference.md; the language is described in docs/rules/writing-rules.md.
//
//   where:
//     all:                                   # also any: [...], not: {...}
//       - source_class: [credential-store, home]   # a list: one of
//       - read_only: {present: false}        # unset is not false
//       - workload.threat: untrusted-code    # a field of an enclosing object
//       - exists: {each: cap_add, where: {name: SYS_ADMIN}}
//
// Every test but `present: false` needs the field to be set: `read_only: false` does not match
// a mount that says nothing about read-only.
#pragma once

#include <re2/re2.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/check/fields.h"
#include "analyzer/engine/cidr.h"
#include "analyzer/support/result.h"
#include "analyzer/support/yaml_tree.h"

namespace sbr::match {

// A field of the object in scope (hops 0) or of an enclosing one (`workload.engine` from a
// mount: hops 1).
struct FieldRef {
  const FieldDef* def = nullptr;
  const KindDef* kind = nullptr;  // the kind that holds the field
  int hops = 0;
  std::string path;  // as written in the rule
};

// The value of `ref` on the object `s` is in.
Value get(const FieldRef& ref, const Scope& s);

enum class Op : std::uint8_t {
  Eq,
  Ne,
  In,
  NotIn,
  Lt,
  Le,
  Gt,
  Ge,
  Regex,
  NotRegex,
  Prefix,
  Suffix,
  Under,
  Class,
  Within,
  Contains,
  Overlaps,
  Present,
  Has,
  HasAny,
  HasAll,
  Empty,
  Condition,
  SameAs,  // the value equals another field's
};

struct Test {
  Op op = Op::Eq;
  bool b = false;
  std::int64_t i = 0;
  std::string s;
  std::vector<std::string> set;
  std::vector<engine::Cidr> cidrs;
  std::shared_ptr<const RE2> re;
  FieldRef other;  // SameAs
};

struct Pred {
  enum class K : std::uint8_t { All, Any, Not, Field, Exists, None, Every };
  K k = K::All;
  std::vector<Pred> children;     // All, Any; Not and the quantifiers hold one
  FieldRef field;                 // Field
  std::vector<Test> tests;        // Field: every one must hold
  const KindDef* each = nullptr;  // quantifiers: the kind counted
  int each_hops = 0;              // the enclosing scope whose children are counted
};

bool eval(const Pred& p, const Scope& s);

// What a compile step knows: the file (for errors) and the chain of kinds in scope, innermost
// first.
struct CompileScope {
  std::string_view file;
  std::vector<const KindDef*> chain;

  const KindDef& kind() const { return *chain.front(); }
  std::string err(const yaml::Node& at, std::string_view what) const;
};

// A field named in a rule, resolved in scope; an error with the position when there is none.
Result<FieldRef> resolve_field(const CompileScope& cs, std::string_view name, const yaml::Node& at);

Result<Pred> compile_where(const CompileScope& cs, const yaml::Node& node);

}  // namespace sbr::match
