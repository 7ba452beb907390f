// The scenario fixture trees (not the rule fixtures) are closed world too: every finding in them
// is annotated, inline or in `<dir>.expect` beside the directory, and nothing else is reported.
#include <catch2/catch.hpp>

#include "tests/fixture_harness.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace fixture_scenarios_test {

TEST_CASE("scenario fixture trees report exactly what they annotate", "[fixtures]") {
  for (const char* dir : {"k8s/mixed",
                          "k8s/frontend",
                          "k8s/operator-bundle",
                          "k8s/field-locations",
                          "k8s/openshift-template",
                          "k8s/envbuilder-sandbox",
                          "k8s/envbuilder-remote",
                          "launch/compose-proxy",
                          "launch/devcontainer-firewall",
                          "launch/compose-stack",
                          "launch/compose-platform",
                          "launch/devcontainer-dind",
                          "launch/devcontainer-dind-good",
                          "launch/devcontainer-sudo-socket",
                          "launch/devcontainer-sudo-socket-good",
                          "launchers/agentbox",
                          "launchers/agentbox-validated",
                          "launchers/agentctl",
                          "launchers/compose-layers",
                          "launchers/entrypoint",
                          "launchers/grammar-gaps",
                          "launchers/argv-splice",
                          "launchers/iptables-allowlist",
                          "launchers/podkit",
                          "launchers/agentpen",
                          "launchers/sandbox-scripts",
                          "launchers/watchdog",
                          "gates",
                          "helm/agent-sandbox",
                          "helm/proxy-unsupported",
                          "helm/runner-unvendored",
                          "claims/agentbox-drift",
                          "claims/platform-drift",
                          "claims/devbox-platforms",
                          "claims/agent-layers",
                          "claims/evidence-outside",
                          "helm/sandbox-switches",
                          "helm/packaged-subchart",
                          "helm/build-service",
                          "helm/app-platform"}) {
    DYNAMIC_SECTION(dir) {
      auto r = sbr::test::run_fixture_dir(sbr::test::source_dir() + "/fixtures/" + dir, {}, true);
      INFO(r.describe());
      CHECK(r.matches());
      CHECK_FALSE(r.expected.empty());
    }
  }
}

// A function that restarts the agent by calling itself launches once per level of its
// recursion; the finding names the launch once, as the recursive function's, instead of
// repeating "keep_running, line 16" for every level.
TEST_CASE("a self-recursive launcher's finding names its launch once", "[fixtures]") {
  auto r = sbr::test::run_fixture_dir(sbr::test::source_dir() + "/fixtures/launchers/watchdog", {},
                                      true);
  REQUIRE(r.findings.size() == 1);
  const std::string& m = r.findings[0].message;
  INFO(m);
  CHECK(m.find("launcher bin/agent-watchdog (keep_running (recursive), line 16) adds capability "
               "SYS_PTRACE") == 0);
  CHECK(m.find("line 16,") == std::string::npos);
}

}  // namespace fixture_scenarios_test
