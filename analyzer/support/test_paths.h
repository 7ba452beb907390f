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

// A directory of examples or contributed extras beside the product: `example`, `examples`,
// `contrib`, `demo`, `demos`, `sample`, `samples` (case-insensitive). A README's claims are
// about the product, not about a demo compose file in `contrib/`.
bool example_directory(std::string_view name);

// A copy kept beside a file that is not what runs: `*.bak`, `*.orig`, `*.old`, `*~`.
bool backup_copy(std::string_view name);

}  // namespace sbr
