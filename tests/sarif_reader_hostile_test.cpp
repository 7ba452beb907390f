// The readers of files a user passes back to sbreview (`prove --from FILE.sarif`, `--baseline
// FILE`): a field of an unexpected JSON type is a clear error, never an exception that ends the
// run (found by the `sarif` fuzz target's seeds, docs/robustness.md).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "analyzer/check/catalog.h"
#include "analyzer/check/runner.h"
#include "analyzer/cli/baseline.h"
#include "analyzer/cli/prove_from.h"
#include "analyzer/config/config.h"
#include "analyzer/pipeline/analysis.h"
#include "analyzer/source/memory_tree.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace sarif_reader_hostile_test {

using namespace sbr;

namespace {

struct Checked {
  Analysis analysis;
  std::vector<Finding> findings;
};

Checked check_launcher() {
  MemoryTree tree;
  tree.add_file("bin/agent", "#!/bin/sh\nexec docker run --privileged -v /:/host agent:1.0\n");
  Checked c{analyze(tree, Config{}, AnalyzeOptions{}), {}};
  c.findings = run_checks(c.analysis.model, Catalog::embedded(), Config{}, RunOptions{});
  return c;
}

Result<std::vector<Finding>> read(const Checked& c, std::string_view sarif) {
  return findings_from_sarif_text(sarif, "in.sarif", c.analysis.model, Catalog::embedded(),
                                  c.findings, "");
}

}  // namespace

TEST_CASE("prove --from: fields of the wrong JSON type are an error, not a crash",
          "[prover][hostile]") {
  Checked c = check_launcher();
  REQUIRE_FALSE(c.findings.empty());
  for (const char* bad : {
           R"({"runs":[{"results":[{"ruleId":"SB2001","baselineState":5}]}]})",
           R"({"runs":[{"results":[{"ruleId":7}]}]})",
           R"({"runs":[{"results":[{"ruleId":"SB2001","partialFingerprints":[1]}]}]})",
           R"({"runs":[{"results":[{"ruleId":"SB2001","locations":[7]}]}]})",
           R"({"runs":[{"results":[{"ruleId":"SB2001","properties":{"invariant":"two"}}]}]})",
           // Numbers that do not fit the field (UBSan in the `sarif` fuzz target).
           R"({"runs":[{"results":[{"ruleId":"SB2001","properties":{"invariant":1e41}}]}]})",
           R"({"runs":[{"results":[{"ruleId":"SB2001","locations":[{"physicalLocation":
               {"region":{"startLine":1e41}}}]}]}]})",
           R"({"runs":[{"results":[{"ruleId":"SB2001","locations":[{"physicalLocation":
               {"region":{"startLine":2,"startColumn":-1}}}]}]}]})",
           R"({"runs":[{"results":[{"ruleId":"SB2001","locations":[{"physicalLocation":
               {"region":{"startLine":4294967296}}}]}]}]})",
       }) {
    auto r = read(c, bad);
    INFO(bad);
    REQUIRE_FALSE(r);
    CHECK(r.error().message.rfind("in.sarif: ", 0) == 0);
  }
}

TEST_CASE("prove --from: a well-formed result is rebuilt at its location", "[prover][hostile]") {
  Checked c = check_launcher();
  auto r = read(c, R"({"runs":[{"results":[{"ruleId":"SB2001","message":{"text":"m"},
      "locations":[{"physicalLocation":{"artifactLocation":{"uri":"bin/agent"},
      "region":{"startLine":2,"startColumn":6}}}]}]}]})");
  REQUIRE(r);
  REQUIRE(r->size() == 1);
  CHECK((*r)[0].message == "m");
  CHECK((*r)[0].at.line == 2);
  CHECK((*r)[0].at.column == 6);
}

TEST_CASE("baseline files: a version that is not the number 1 is refused", "[diff][hostile]") {
  auto path = std::filesystem::temp_directory_path() / "sbr-baseline-hostile.json";
  for (const char* text : {R"({"version":"1","fingerprints":[]})", R"({"version":[1]})"}) {
    std::ofstream(path) << text;
    auto r = read_baseline(path.string());
    INFO(text);
    REQUIRE_FALSE(r);
    CHECK(r.error().message.find("baseline `version` must be 1") != std::string::npos);
  }
  std::ofstream(path) << R"({"version":1,"fingerprints":["a"]})";
  auto ok = read_baseline(path.string());
  REQUIRE(ok);
  CHECK(ok->count("a") == 1);
  std::filesystem::remove(path);
}

}  // namespace sarif_reader_hostile_test
