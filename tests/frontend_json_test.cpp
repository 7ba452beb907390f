// JSON manifests are read by the YAML reader (JSON is YAML 1.2); where it refuses valid JSON
// for a character beyond the BMP written as a surrogate pair (`\\uD83D\\uDE80`), the file is
// read again with the character as UTF-8, its lines where they were.
#include <catch2/catch.hpp>

#include <string>

#include "analyzer/config/config.h"
#include "analyzer/pipeline/analysis.h"
#include "analyzer/source/memory_tree.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace frontend_json_test {

using namespace sbr;

TEST_CASE("a JSON manifest with a surrogate-pair escape is read, not a parse error",
          "[frontend][json]") {
  MemoryTree t;
  // A pod written as JSON, with an emoji in an annotation (ContainAI's .flow/*.json have them).
  t.add_file("deploy/pod.json",
             "{\n"
             "  \"apiVersion\": \"v1\",\n"
             "  \"kind\": \"Pod\",\n"
             "  \"metadata\": {\"name\": \"agent\",\n"
             "    \"annotations\": {\"note\": \"ship it \\uD83D\\uDE80\", \"raw\": "
             "\"C:\\\\uD83D\"}},\n"
             "  \"spec\": {\"containers\": [{\"name\": \"agent\", \"image\": \"agent:1\",\n"
             "    \"securityContext\": {\"privileged\": true}}]}\n"
             "}\n");
  Analysis an = analyze(t, Config{}, {});
  for (const Problem& p : an.model.problems) {
    INFO(p.message);
    CHECK(p.kind != ProblemKind::ParseError);
  }
  REQUIRE(an.model.workloads.size() == 1);
  const Workload& w = an.model.workloads[0];
  REQUIRE(w.identity.privileged);
  // Lines are kept: `privileged` is on line 7 of the file.
  CHECK(w.identity.privileged->from.at.line == 7);
}

}  // namespace frontend_json_test
