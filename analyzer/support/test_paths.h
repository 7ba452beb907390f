// What a repository's test suite is, by its paths: one meaning for every part of sbreview that
// tells the product from the suite that exercises it (a document's scope, a launch's class).
#pragma once

#include <string_view>

namespace sbr {

// A directory of a test suite: `test`, `tests`, `spec`, `e2e`, `smoke`, `testdata`,
// `integration-tests`, `__tests__` (case-insensitive).
bool test_directory(std::string_view name);

// A file named as a test: `test-*.sh`, `test_*.sh`, `*_test.sh`, `*-test.sh`, `*_spec.sh`,
// `*.bats` (the base name).
bool test_file_name(std::string_view name);

// A path under a test directory, or a file named as a test.
bool test_path(std::string_view path);

}  // namespace sbr
