#include "analyzer/support/test_paths.h"

#include <algorithm>
#include <array>
#include <string>

#include "analyzer/support/strings.h"

namespace sbr {

bool test_directory(std::string_view name) {
  static constexpr std::array<std::string_view, 8> kDirs = {
      "test", "tests", "spec", "e2e", "smoke", "testdata", "integration-tests", "__tests__"};
  const std::string n = lower(name);
  return std::find(kDirs.begin(), kDirs.end(), n) != kDirs.end();
}

bool test_file_name(std::string_view name) {
  if (name.ends_with(".bats")) return true;
  if (name.ends_with(".sh")) name.remove_suffix(3);
  return name.starts_with("test-") || name.starts_with("test_") || name.ends_with("_test") ||
         name.ends_with("-test") || name.ends_with("_spec");
}

bool test_path(std::string_view path) {
  const std::string dir = dir_of(path);
  for (const std::string& d : split(dir, '/')) {
    if (test_directory(d)) return true;
  }
  const std::size_t slash = path.rfind('/');
  return test_file_name(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

bool example_directory(std::string_view name) {
  static constexpr std::array<std::string_view, 7> kDirs = {
      "example", "examples", "contrib", "demo", "demos", "sample", "samples"};
  const std::string n = lower(name);
  return std::find(kDirs.begin(), kDirs.end(), n) != kDirs.end();
}

bool backup_copy(std::string_view name) {
  return name.ends_with(".bak") || name.ends_with(".orig") || name.ends_with(".old") ||
         name.ends_with("~");
}

}  // namespace sbr
