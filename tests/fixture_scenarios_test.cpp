// The scenario fixture trees (not the rule fixtures) are closed world too: every finding in them
// is annotated, inline or in `<dir>.expect` beside the directory, and nothing else is reported.
#include <catch2/catch.hpp>

#include <set>
#include <string>
#include <tuple>

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
                          "launch/compose-firewall-sidecar",
                          "launch/compose-sidecar-unseen",
                          "launch/compose-platform",
                          "launch/compose-runtime-sandboxes",
                          "launch/devcontainer-dind",
                          "launch/devcontainer-dind-good",
                          "launch/devcontainer-sudo-socket",
                          "launch/devcontainer-sudo-socket-good",
                          "launchers/agentbox",
                          "launchers/agentbox-validated",
                          "launchers/agentctl",
                          "launchers/compose-layers",
                          "launchers/compose-overlays",
                          "launchers/volume-helpers",
                          "launchers/test-suite",
                          "launchers/entrypoint",
                          "launchers/grammar-gaps",
                          "launchers/argv-splice",
                          "launchers/word-gaps",
                          "launchers/unknown-parts",
                          "launchers/dispatcher",
                          "launchers/mount-dedupe",
                          "launchers/engine-choice",
                          "launchers/iptables-allowlist",
                          "launchers/podkit",
                          "launchers/agentpen",
                          "launchers/sandbox-scripts",
                          "launchers/watchdog",
                          "launchers/confirm-prompts",
                          "launchers/exec-firewall",
                          "launchers/compose-in-container",
                          "launchers/agent-modules",
                          "gates",
                          "helm/agent-sandbox",
                          "helm/proxy-unsupported",
                          "helm/runner-unvendored",
                          "claims/agentbox-drift",
                          "claims/platform-drift",
                          "claims/devbox-platforms",
                          "claims/contrib-demo",
                          "claims/agent-layers",
                          "claims/evidence-outside",
                          "claims/property-drift",
                          "helm/sandbox-switches",
                          "helm/packaged-subchart",
                          "helm/build-service",
                          "helm/app-platform",
                          "helm/node-agent",
                          "helm/setup-jobs",
                          "helm/generated-chart"}) {
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

// claude-docker's shape: the engine picked by which binary is installed, one flag array consumed
// by two launches. Each fact is one finding (issue 34 §3); the capabilities added back after
// --cap-drop ALL are the default set's one finding; SB4070 judges only the helper's token.
TEST_CASE("an engine branch and a shared flag array give one finding per place", "[fixtures]") {
  auto r = sbr::test::run_fixture_dir(sbr::test::source_dir() + "/fixtures/launchers/engine-choice",
                                      {}, true);
  std::set<std::tuple<std::string, std::uint32_t, std::uint32_t>> places;
  int caps = 0;
  for (const sbr::Finding& f : r.findings) {
    INFO(f.rule_id.str() << ": " << f.message);
    CHECK(places.emplace(std::string(f.rule_id.str()), f.at.line, f.at.column).second);
    CHECK(f.rule_id.str() != "SB2004");
    if (f.rule_id.str() == "SB2002") {
      ++caps;
      CHECK(f.message.find("drops all capabilities, then adds back CHOWN, SETUID, SETGID, "
                           "DAC_OVERRIDE of the engine's default set") != std::string::npos);
    }
    if (f.rule_id.str() == "SB4070") CHECK(f.message.find("`UPSTREAM`") != std::string::npos);
  }
  CHECK(caps == 1);
}

}  // namespace fixture_scenarios_test
