// Every catalog rule has a bad and a good fixture and a docs page; the bad fixture reports
// exactly its annotated lines and the good fixture reports nothing of the rule.
#include <dirent.h>
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <set>

#include "analyzer/check/catalog.h"
#include "analyzer/cli/rule_tests.h"
#include "tests/fixture_harness.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace rule_fixtures_test {

using namespace sbr;

namespace {

std::vector<std::string> entries(const std::string& dir) {
  std::vector<std::string> out;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d)) {
      std::string n = e->d_name;
      if (n != "." && n != "..") out.push_back(n);
    }
    closedir(d);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Rules only `sbreview diff` reports (they compare two revisions): a fixture directory is one
// tree, so their cases are git repositories built by tests/diff_test.cpp, which must name them.
const std::set<std::string> kDiffOnly = {"SB0014"};
// Rules only `sbreview prove` reports (they come from launching the workload): their fixtures
// are proved on real podman by tests/prover_podman_test.cpp, which must name them.
const std::set<std::string> kProveOnly = {"SB0040", "SB0041", "SB0042"};

}  // namespace

TEST_CASE("diff-only rules are exercised by the diff tests", "[catalog]") {
  std::ifstream in(test::source_dir() + "/tests/diff_test.cpp");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (const auto& id : kDiffOnly) {
    INFO(id);
    CHECK(Catalog::embedded().find(id) != nullptr);
    CHECK(text.find("\"" + id + "\"") != std::string::npos);
  }
}

TEST_CASE("prove-only rules are exercised by the real-podman tests", "[catalog]") {
  std::ifstream in(test::source_dir() + "/tests/prover_podman_test.cpp");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (const auto& id : kProveOnly) {
    INFO(id);
    const Rule* r = Catalog::embedded().find(id);
    REQUIRE(r != nullptr);
    CHECK(text.find("\"" + id + "-" + r->slug + "\"") != std::string::npos);
  }
}

TEST_CASE("every rule has fixtures and a page, and no orphan exists", "[catalog]") {
  const Catalog& c = Catalog::embedded();
  REQUIRE_FALSE(c.rules().empty());
  std::set<std::string> names;
  for (const Rule& r : c.rules()) {
    std::string name = r.id + "-" + r.slug;
    names.insert(name);
    std::string dir = test::source_dir() + "/fixtures/rules/" + name;
    bool bad = false, good = false;
    for (const auto& f : entries(dir)) {
      bad = bad || f.rfind("bad", 0) == 0;
      good = good || f.rfind("good", 0) == 0;
    }
    INFO(name);
    CHECK(((bad && good) || kDiffOnly.count(r.id) == 1));
    CHECK(std::ifstream(test::source_dir() + "/docs/rules/" + name + ".md").good());
  }
  for (const auto& d : entries(test::source_dir() + "/fixtures/rules")) {
    INFO("orphan fixture directory " << d);
    CHECK(names.count(d) == 1);
  }
  for (const auto& d : entries(test::source_dir() + "/docs/rules")) {
    if (d == "index.md" || d == "match-reference.md" || d == "writing-rules.md") continue;
    INFO("orphan docs page " << d);
    CHECK(names.count(d.substr(0, d.size() - 3)) == 1);
  }
  for (const auto& d : entries(test::source_dir() + "/rules")) {
    INFO("rule file name must be <ID>-<slug>.yaml: " << d);
    CHECK(names.count(d.substr(0, d.size() - 5)) == 1);
  }
}

// Closed world: every finding in a rule fixture is annotated, whatever its rule, so a fixture
// proves both what its rule reports and that nothing else fires on it unnoticed. The same code
// as `sbreview test-rules` (analyzer/cli/rule_tests.h), reading fixtures in memory.
TEST_CASE("rule fixtures test themselves", "[fixtures]") {
  for (const Rule& r : Catalog::embedded().rules()) {
    if (kDiffOnly.count(r.id) || kProveOnly.count(r.id)) continue;
    std::string name = r.id + "-" + r.slug;
    std::string dir = test::source_dir() + "/fixtures/rules/" + name;
    DYNAMIC_SECTION(name) {
      auto failures = ruletest::test_rule(r, dir, true, test::fixture_run());
      INFO(fmt::format("{}", fmt::join(failures, "\n")));
      CHECK(failures.empty());
    }
  }
}

// Not run by default: per folder, the findings reported, those of the folder's own rule, and
// those nobody annotated (`sbreview_tests "[.census]"`).
TEST_CASE("rule fixture census", "[.census]") {
  size_t folders = 0, open = 0, total = 0, own = 0, stray = 0;
  for (const Rule& r : Catalog::embedded().rules()) {
    std::string name = r.id + "-" + r.slug;
    auto result = test::run_fixture_dir(test::source_dir() + "/fixtures/rules/" + name, {}, true);
    size_t mine = 0;
    for (const auto& f : result.findings) mine += f.rule_id == r.id;
    size_t un = result.unannotated().size();
    ++folders;
    open += un > 0;
    total += result.findings.size();
    own += mine;
    stray += un;
    std::printf("%-55s findings %3zu own %3zu unannotated %3zu\n", name.c_str(),
                result.findings.size(), mine, un);
  }
  std::printf("folders %zu, open-world %zu, findings %zu (own rule %zu), unannotated %zu\n",
              folders, open, total, own, stray);
  SUCCEED();
}

}  // namespace rule_fixtures_test
