// One field's tests in the rule language (`eq`, `in`, `regex`, `within`, `class`...): the tests
// a field type has and the value each needs. Used by the `where:` compiler (matcher_compile.cpp).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/check/matcher.h"

namespace sbr::match {

// The test called `name`, if the language has one.
std::optional<Op> op_named(std::string_view name);
// Every test's name, "eq|ne|...", for an unknown test's error.
std::string op_names();
// One `op: value` test of field `f`; `key` is where the test is named (the op's key, or the
// field's for a shorthand), so an error points at it.
Result<Test> compile_test(const CompileScope& cs, const FieldRef& f, Op op, const yaml::Node& key,
                          const yaml::Node& v);
// Why the tests of one mapping can never hold together, if they cannot.
std::optional<std::string> contradiction(const std::vector<Test>& tests);

}  // namespace sbr::match
