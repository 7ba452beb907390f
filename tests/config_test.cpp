// .sbreview.yaml parsing: every accepted key, and errors with file:line:col for everything a typo
// could otherwise silently weaken.
#include <catch2/catch.hpp>

#include "analyzer/config/config.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace config_test {

using namespace sbr;

namespace {

std::string error_of(std::string_view text) {
  auto r = parse_config(text, "c.yaml", 0);
  REQUIRE_FALSE(r);
  return r.error().message;
}

}  // namespace

TEST_CASE("a complete configuration parses", "[config]") {
  auto r = parse_config(R"(version: 1
threat_classes:
  - match: {kind: Deployment, namespace: "team-*", name: agent, container: main}
    class: untrusted-input
  - match: {path: "batch/*"}
    class: trusted
    reason: reviewed internal jobs
acceptances:
  - rule: SB6001
    match: {name: agent}
    reason: capped by the node pool
    expires: "2026-12-31"
secrets:
  intended: [ANTHROPIC_API_KEY]
workspace: [/work/repo, /srv/checkout]
engine: podman
cluster:
  default_runtime_class: gvisor
  seccomp_default: true
  pod_pids_limit: 1024
fail_on: medium
exclude: [vendor, testdata/broken]
integrity:
  SB0001: medium
)",
                        "c.yaml", 7);
  REQUIRE(r);
  const Config& c = *r;
  REQUIRE(c.threat_classes.size() == 2);
  CHECK(c.threat_classes[0].threat == ThreatClass::UntrustedInput);
  CHECK(c.threat_classes[0].match.ns == "team-*");
  CHECK(c.threat_classes[0].at == Location{7, 3, 5});
  CHECK(c.threat_classes[1].reason == "reviewed internal jobs");
  REQUIRE(c.acceptances.size() == 1);
  CHECK(c.acceptances[0].expires == "2026-12-31");
  CHECK(c.acceptances[0].at.line == 9);
  CHECK(c.intended_secrets == std::vector<std::string>{"ANTHROPIC_API_KEY"});
  CHECK(c.workspace.size() == 2);
  CHECK(c.launcher_engine == Engine::Podman);
  CHECK(c.cluster.default_runtime_class == "gvisor");
  CHECK(c.cluster.seccomp_default);
  CHECK(c.cluster.pod_pids_limit == 1024);
  CHECK(c.fail_on == "medium");
  CHECK(c.exclude.size() == 2);
  CHECK(c.integrity_severity.at("SB0001") == Severity::Medium);
}

TEST_CASE("an empty configuration is the default", "[config]") {
  auto r = parse_config("", "c.yaml", 0);
  REQUIRE(r);
  CHECK(r->acceptances.empty());
  CHECK_FALSE(r->fail_on);
  CHECK(parse_config("workspace: /w\n", "c.yaml", 0)->workspace == std::vector<std::string>{"/w"});
}

TEST_CASE("configuration errors name file:line:col", "[config]") {
  CHECK(error_of("version: 1\nfail_on: high\ncolour: red\n") ==
        "c.yaml:3:1: unknown key `colour` in the configuration");
  CHECK(error_of("version: 2\n") == "c.yaml:1:10: `version` must be 1");
  CHECK(error_of("threat_classes:\n  - match: {nme: x}\n    class: trusted\n") ==
        "c.yaml:2:13: unknown key `nme` in match");
  CHECK(error_of("threat_classes:\n  - match: {name: x}\n    class: trusted\n") ==
        "c.yaml:2:5: class `trusted` needs a `reason`");
  CHECK(error_of("threat_classes:\n  - match: {name: x}\n    class: sandboxed\n") ==
        "c.yaml:3:12: `class` must be untrusted-code, untrusted-input, multi-tenant or trusted");
  CHECK(error_of("acceptances:\n  - rule: SB1001\n    expires: 31/12/2026\n") ==
        "c.yaml:3:14: `expires` must be a date YYYY-MM-DD");
  CHECK(error_of("acceptances:\n  - rule: SB1001\n    reasn: typo\n") ==
        "c.yaml:3:5: unknown key `reasn` in an acceptance");
  CHECK(error_of("cluster:\n  pod_pids_limit: -1\n") ==
        "c.yaml:2:19: `pod_pids_limit` must be a positive integer");
  CHECK(error_of("cluster:\n  seccomp_default: maybe\n") ==
        "c.yaml:2:20: `seccomp_default` must be true or false");
  CHECK(error_of("engine: kubelet\n").find("c.yaml:1:9: `engine` must be") == 0);
  CHECK(error_of("fail_on: note\n") ==
        "c.yaml:1:10: `fail_on` must be critical, high, medium, low or none");
  CHECK(error_of("integrity:\n  SB1001: low\n") ==
        "c.yaml:2:3: `integrity` keys are SB0xxx rule ids");
  CHECK(error_of("integrity:\n  SB0001: loud\n") ==
        "c.yaml:2:11: severity must be critical, high, medium, low or note");
  CHECK(error_of("fail_on: high\nfail_on: none\n").find("duplicate key `fail_on`") !=
        std::string::npos);
  CHECK(error_of("- a\n- b\n") == "c.yaml:1:1: the configuration must be a mapping");
  CHECK(error_of("a: [1\n").rfind("c.yaml:", 0) == 0);
}

TEST_CASE("selectors match with shell globs, every present field must match", "[config]") {
  WorkloadId id{"Deployment", "apps", "team-a", "agent", "main", "deploy/agent.yaml"};
  CHECK(selector_matches({}, id, "deploy/agent.yaml"));
  CHECK(selector_matches({"Deployment", "team-*", "agent", "", ""}, id, "deploy/agent.yaml"));
  CHECK_FALSE(selector_matches({"Deployment", "team-b", "", "", ""}, id, "deploy/agent.yaml"));
  CHECK(selector_matches({"", "", "", "", "deploy/*.yaml"}, id, "deploy/agent.yaml"));
  CHECK_FALSE(selector_matches({"", "", "", "", "k8s/*"}, id, "deploy/agent.yaml"));
  CHECK_FALSE(selector_matches({"", "", "", "sidecar", ""}, id, "deploy/agent.yaml"));
}

TEST_CASE("threat class and engine names round-trip", "[config]") {
  for (auto t : {ThreatClass::UntrustedCode, ThreatClass::UntrustedInput, ThreatClass::MultiTenant,
                 ThreatClass::Trusted}) {
    CHECK(parse_threat_class(threat_class_name(t)) == t);
  }
  CHECK_FALSE(parse_threat_class("untrusted"));
  for (auto e : {Engine::Kubelet, Engine::Podman, Engine::Docker, Engine::PodmanKubePlay,
                 Engine::Compose, Engine::Devcontainer}) {
    CHECK(parse_engine(engine_name(e)) == e);
  }
}

}  // namespace config_test
