// Path cuts of one gap in one file are one finding (invariants/inv0_integrity.cpp): a logging
// function called with other argument lists at every call site, or a command that ran past its
// bound in several loops, is one SB0019 at its first place with the others related.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "analyzer/check/catalog.h"
#include "analyzer/check/runner.h"
#include "analyzer/pipeline/analysis.h"
#include "tests/temp_dir.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace path_cut_fold_test {

using namespace sbr;

std::vector<const Finding*> cuts(const std::vector<Finding>& fs) {
  std::vector<const Finding*> out;
  for (const Finding& f : fs)
    if (f.rule_id == "SB0019") out.push_back(&f);
  return out;
}

TEST_CASE("the path cuts of one gap in a file are one finding with the others related",
          "[integrity]") {
  // ContainAI's integration test: `info` and `fail` are called at dozens of places, each past
  // the bound of argument lists run for other paths. Two loops in another function each meet
  // the iteration bound: their messages are the same gap too.
  test::TempDir dir;
  std::string script = "#!/usr/bin/env bash\nset -euo pipefail\n";
  script += "info() { printf '[INFO] %s\\n' \"$1\"; }\n";
  script +=
      "mode=quiet\ncase \"${1:-}\" in\n  --loud) mode=loud ;;\n  --debug) mode=debug ;;\nesac\n";
  // Each call has two more argument lists (mode differs by path): past 256 runs, cut.
  for (int i = 0; i < 150; ++i) script += "info \"step " + std::to_string(i) + " in $mode\"\n";
  script += "docker run --rm --network none alpine true\n";
  dir.write("tests/test-steps.sh", script);
  Config config;
  Analysis an = analyze({dir.path.string()}, config, {});
  auto fs = run_checks(an.model, Catalog::embedded(), config, {"2026-01-01"});
  auto cut = cuts(fs);
  INFO(cut.size());
  REQUIRE(cut.size() == 1);
  CHECK(cut[0]->message.find("`info` is called here with") != std::string::npos);
  CHECK(cut[0]->message.find("more places of this file") != std::string::npos);
  CHECK(cut[0]->related.size() >= 2);
  for (const Related& r : cut[0]->related) CHECK(r.at.file == cut[0]->at.file);
}

}  // namespace path_cut_fold_test
