// One rule id, one severity (INVARIANTS.md "Severity"): over every fixture and example, each
// finding is at its rule's declared severity, moved only by the documented adjustments — the
// threat class of its subject (the profile table, check/runner.h severity_for_threat), one level
// lower when the fact needs a non-default switch, and `note` when a risk acceptance holds. Any
// other path that changes a severity (a check setting it, a second rule id reported at another
// level) fails here.
#include <dirent.h>
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "analyzer/check/catalog.h"
#include "analyzer/check/runner.h"
#include "tests/fixture_harness.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace severity_consistency_test {

using namespace sbr;

namespace {

std::vector<std::string> children_of(const std::string& dir) {
  std::vector<std::string> out;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d)) {
      std::string n = e->d_name;
      if (n != "." && n != ".." && e->d_type == DT_DIR) out.push_back(dir + "/" + n);
    }
    closedir(d);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The fixture directories: each rule's folder, every other fixture folder, each example.
std::vector<std::string> fixture_dirs() {
  std::string root = test::source_dir();
  std::vector<std::string> out = children_of(root + "/fixtures/rules");
  for (const std::string& d : children_of(root + "/fixtures"))
    if (d != root + "/fixtures/rules") out.push_back(d);
  for (const std::string& d : children_of(root + "/examples")) out.push_back(d);
  return out;
}

Severity lower(Severity s) {
  return s == Severity::Note ? s : static_cast<Severity>(static_cast<int>(s) - 1);
}

}  // namespace

TEST_CASE("every finding is at its rule's severity, or one documented adjustment of it",
          "[fixtures][severity]") {
  const Catalog& catalog = Catalog::embedded();
  size_t checked = 0;
  for (const std::string& dir : fixture_dirs()) {
    auto result = test::run_fixture_dir(dir, {}, true);
    for (const Finding& f : result.findings) {
      const Rule* rule = catalog.find(f.rule_id.str());
      REQUIRE(rule != nullptr);
      // Invariant-0 severities are configurable per rule in .sbreview.yaml (integrity_severity).
      if (rule->invariant == 0) continue;
      INFO(dir << ": " << f.rule_id.str() << " " << f.message);
      if (!f.accepted_reason.empty()) {
        CHECK(f.severity == Severity::Note);
        continue;
      }
      auto expected = sbr::severity_for_threat(rule->severity, f.threat);
      REQUIRE(expected.has_value());  // a trusted subject's non-critical finding is not reported
      Severity want = *expected;
      if (!f.condition().always() && f.condition().needs_switch) want = lower(want);
      CHECK(severity_name(f.severity) == severity_name(want));
      ++checked;
    }
  }
  CHECK(checked > 100);
}

}  // namespace severity_consistency_test
