// Every file is accounted for (docs/robustness.md): a path the configuration keeps out
// (`exclude:`, outside `include:`) is listed in the report's files with its reason, one file at
// a time up to kMaxExcludedListed, then one entry per excluded directory with its file count.
#include <sys/wait.h>
#include <catch2/catch.hpp>

#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "analyzer/source/memory_tree.h"
#include "analyzer/source/source.h"
#include "tests/fixture_harness.h"
#include "tests/temp_dir.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace excluded_files_test {

using namespace sbr;
using nlohmann::json;

namespace {

SourceSet walk_with(const MemoryTree& t, WalkOptions o) {
  FileTable files;
  return walk_trees({{&t, "", ""}}, o, files);
}

std::vector<std::string> excluded_paths_of(const SourceSet& s) {
  std::vector<std::string> out;
  for (const ExcludedPath& x : s.excluded_paths) out.push_back(x.path);
  return out;
}

int run_in(const std::string& cwd, const std::string& args) {
  std::string cmd = "cd '" + cwd + "' && '" + std::string(SBR_BINARY) + "' " + args;
  int st = std::system(cmd.c_str());
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

}  // namespace

TEST_CASE("excluded files are listed with the pattern that excluded them", "[walk][excluded]") {
  MemoryTree t;
  t.add_file("deploy/pod.yaml", "kind: Pod\n");
  t.add_file("deploy/test/pod.yaml", "kind: Pod\n");
  t.add_file("vendor/lib/a.yaml", "a: 1\n");
  t.add_file("vendor/b.yaml", "b: 1\n");
  t.add_symlink("vendor/link.yaml", "b.yaml");
  t.add_file(".git/HEAD", "ref: refs/heads/main\n");
  WalkOptions o;
  o.excludes = {"vendor", "deploy/test"};
  SourceSet s = walk_with(t, o);
  CHECK(excluded_paths_of(s) == std::vector<std::string>{"deploy/test/pod.yaml", "vendor/b.yaml",
                                                         "vendor/lib/a.yaml", "vendor/link.yaml"});
  CHECK(s.excluded_paths[0].reason == "excluded by .sbreview.yaml exclude: deploy/test");
  CHECK(s.excluded_paths[1].reason == "excluded by .sbreview.yaml exclude: vendor");
  REQUIRE(s.files.size() == 1);  // .git is the repository's database, not an excluded path
  CHECK(s.files[0].path == "deploy/pod.yaml");
}

TEST_CASE("files outside include are listed as not below it", "[walk][excluded]") {
  MemoryTree t;
  t.add_file("deploy/pod.yaml", "kind: Pod\n");
  t.add_file("docs/readme.md", "# x\n");
  t.add_file("top.yaml", "a: 1\n");
  WalkOptions o;
  o.includes = {"deploy", "charts"};
  SourceSet s = walk_with(t, o);
  CHECK(excluded_paths_of(s) == std::vector<std::string>{"docs/readme.md", "top.yaml"});
  CHECK(s.excluded_paths[0].reason == "not below .sbreview.yaml include: deploy, charts");
}

TEST_CASE("past the listing cap an excluded directory is one entry with its file count",
          "[walk][excluded]") {
  MemoryTree t;
  t.add_file("pod.yaml", "kind: Pod\n");
  for (int k = 0; k < 10; ++k) t.add_file("a-small/f" + std::to_string(k) + ".yaml", "{}\n");
  // node_modules holds more than the cap: it is one entry, counted, however deep its files.
  for (std::size_t k = 0; k < kMaxExcludedListed + 5; ++k)
    t.add_file("node_modules/p" + std::to_string(k % 7) + "/m" + std::to_string(k) + ".js", "");
  for (int k = 0; k < 3; ++k) t.add_file("z-small/f" + std::to_string(k) + ".yaml", "{}\n");
  WalkOptions o;
  o.excludes = {"a-small", "node_modules", "z-small"};
  SourceSet s = walk_with(t, o);
  REQUIRE(s.excluded_paths.size() == 10 + 1 + 3);
  const ExcludedPath& dir = s.excluded_paths[10];
  CHECK(dir.path == "node_modules/");
  CHECK(dir.files == kMaxExcludedListed + 5);
  CHECK(dir.all_counted);
  CHECK(s.excluded_paths[11].path == "z-small/f0.yaml");  // what still fits is listed

  // Once the cap is met by listed files, a directory that would pass it is one entry too.
  MemoryTree full;
  for (std::size_t k = 0; k < kMaxExcludedListed - 1; ++k)
    full.add_file("a/f" + std::to_string(k), "");
  full.add_file("b/one", "");
  full.add_file("b/two", "");
  o.excludes = {"a", "b"};
  SourceSet capped = walk_with(full, o);
  REQUIRE(capped.excluded_paths.size() == kMaxExcludedListed);
  CHECK(capped.excluded_paths.back().path == "b/");
  CHECK(capped.excluded_paths.back().files == 2);
}

TEST_CASE("check lists excluded files in the JSON report and counts them in the text summary",
          "[walk][excluded]") {
  test::TempDir dir("sbr-excluded");
  dir.write(".sbreview.yaml", "exclude: [vendor, node_modules]\n");
  dir.write("vendor/pod.yaml", "kind: Pod\n");
  for (std::size_t k = 0; k < kMaxExcludedListed + 1; ++k)
    dir.write("node_modules/m" + std::to_string(k) + ".json", "{}\n");
  test::TempDir reports("sbr-excluded-out");  // not in the analysed tree
  std::string at = dir.path.string(), out = reports.path.string();
  REQUIRE(run_in(at, "check --format json --output '" + out + "/a.json' --format text --output '" +
                         out + "/a.txt' .") == 0);
  REQUIRE(run_in(at, "check --format json --output '" + out + "/b.json' .") == 0);
  std::string first = test::read_file(out + "/a.json");
  CHECK(first == test::read_file(out + "/b.json"));  // byte-identical
  json report = json::parse(first);
  std::vector<json> excluded;
  for (const json& f : report["files"]) {
    if (f["status"] == "excluded") excluded.push_back(f);
  }
  REQUIRE(excluded.size() == 2);
  CHECK(excluded[0]["path"] == "node_modules/");
  CHECK(excluded[0]["files"] == kMaxExcludedListed + 1);
  CHECK(excluded[0]["reason"] ==
        "excluded by .sbreview.yaml exclude: node_modules (1001 files below it, not listed one "
        "by one: a report lists at most 1000 excluded files)");
  CHECK(excluded[1] == json({{"path", "vendor/pod.yaml"},
                             {"status", "excluded"},
                             {"reason", "excluded by .sbreview.yaml exclude: vendor"}}));
  std::string text = test::read_file(out + "/a.txt");
  CHECK(text.find("1 not applicable, 0 skipped, 1002 excluded") != std::string::npos);
}

}  // namespace excluded_files_test
