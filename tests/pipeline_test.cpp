// The pipeline around the frontends: several roots, the model dump's redaction, and
// fingerprints of invariant-0 findings that do not move with the lines above them.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "analyzer/check/catalog.h"
#include "analyzer/check/runner.h"
#include "analyzer/pipeline/analysis.h"
#include "analyzer/report/report.h"
#include "tests/temp_dir.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace pipeline_test {

using namespace sbr;
namespace fs = std::filesystem;

namespace {

struct TempDir : test::TempDir {
  TempDir() : test::TempDir("sbr-pipeline") {}
};

const char* kPod =
    "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: c\n"
    "    image: x\n    env:\n    - name: DB_PASSWORD\n      value: hunter2-very-secret\n";

}  // namespace

TEST_CASE("several roots keep their files apart", "[pipeline]") {
  TempDir t;
  t.write("a/pod.yaml", kPod);
  t.write("b/pod.yaml", kPod);
  Config config;
  Analysis an = analyze({(t.path / "a").string(), (t.path / "b").string()}, config, {});
  REQUIRE(an.sources.files.size() == 2);
  CHECK(an.model.workloads.size() == 2);
  CHECK(an.sources.files[0].path != an.sources.files[1].path);
}

TEST_CASE("the model dump never prints a secret value", "[pipeline]") {
  TempDir t;
  t.write("pod.yaml", kPod);
  Config config;
  Analysis an = analyze({t.path.string()}, config, {});
  std::ostringstream os;
  write_model_dump(an.model, os);
  CHECK(os.str().find("DB_PASSWORD") != std::string::npos);
  CHECK(os.str().find("hunter2-very-secret") == std::string::npos);
}

TEST_CASE("invariant-0 fingerprints survive lines inserted above", "[pipeline]") {
  auto fingerprints = [](const std::string& prefix) {
    TempDir t;
    t.write("bad.yaml", prefix + "a: [1, 2\n");
    Config config;
    Analysis an = analyze({t.path.string()}, config, {});
    std::vector<std::string> out;
    for (const auto& f : run_checks(an.model, Catalog::embedded(), config, {"2026-01-01"})) {
      if (f.rule_id == "SB0001") out.push_back(f.fingerprint);
    }
    return out;
  };
  auto before = fingerprints("");
  auto after = fingerprints("# one\n# two\n# three\n");
  REQUIRE(before.size() == 1);
  CHECK(before == after);
}

TEST_CASE("directories nested past the walk's depth are reported, not skipped", "[pipeline]") {
  TempDir t;
  std::string rel;
  for (int i = 0; i < 70; ++i) rel += "d/";
  t.write(rel + "pod.yaml", kPod);
  Config config;
  Analysis an = analyze({t.path.string()}, config, {});
  bool reported = false;
  for (const auto& p : an.model.problems)
    reported = reported || p.kind == ProblemKind::BudgetExceeded;
  CHECK(reported);
}

}  // namespace pipeline_test
