// The issues' "done when" scenarios, end to end through the real pipeline.
#include <catch2/catch.hpp>

#include <set>

#include "tests/fixture_harness.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace acceptance_test {

using namespace sbr;

TEST_CASE("mixed manifests: every weakness reported where annotated, nothing else",
          "[acceptance]") {
  // A Sandbox CRD, a privileged debug pod, a hardened gVisor Job with a DNS-only egress policy,
  // a NodePort Service and an allow-all egress policy. Closed world: every finding is annotated.
  auto r = test::run_fixture_dir(test::source_dir() + "/fixtures/k8s/mixed", {}, true);
  INFO(r.describe());
  CHECK(r.matches());
  for (const auto& f : r.findings) {
    if (f.subject.view().starts_with("Job/agents/run-tool/")) {
      INFO(f.rule_id << ": " << f.message);
      CHECK(f.severity < Severity::Medium);
    }
  }
}

TEST_CASE("launcher: the reviewed weaknesses at their arguments, nothing on passed controls",
          "[acceptance]") {
  auto r = test::run_fixture_dir(test::source_dir() + "/fixtures/launchers/agentbox", {}, true);
  std::set<std::tuple<std::string, unsigned, std::string>> got;
  std::set<std::string> rules;
  for (const auto& k : r.reported) {
    got.insert(k);
    rules.insert(std::get<2>(k));
  }
  const std::string lib = "lib/agentbox-common.sh";
  // writable skills mount (3), secret on argv (4), host network behind a switch (1),
  // nft failure swallowed (7), configuration spliced into the ruleset unvalidated (7)
  CHECK(got.count({lib, 10, "SB3006"}));
  CHECK(got.count({lib, 22, "SB4071"}));
  CHECK(got.count({lib, 15, "SB1003"}));
  CHECK(got.count({lib, 27, "SB7051"}));
  CHECK(got.count({lib, 31, "SB7052"}));
  // bare -p publish (5), no --read-only (2), no hardened runtime (1)
  CHECK(got.count({"run-agent.sh", 22, "SB5050"}));
  CHECK(got.count({"run-agent.sh", 22, "SB2008"}));
  CHECK(got.count({"run-agent.sh", 22, "SB1006"}));
  for (const auto& f : r.findings) {
    if (f.rule_id == "SB1003") {
      CHECK(f.severity == Severity::High);  // critical, one lower behind a non-default switch
      CHECK(f.message.find("AGENTBOX_NET=full") != std::string::npos);
    }
  }
  // The controls it passes: cap-drop ALL, no-new-privileges, pids and memory limits.
  for (const char* passed : {"SB2001", "SB2002", "SB2005", "SB6001", "SB6003"}) {
    INFO(passed);
    CHECK(rules.count(passed) == 0);
  }
}

}  // namespace acceptance_test
