// The reports' view of `sbreview prove`: every finding's runtime verdict (SARIF
// properties.runtime, JSON runtime), the launches, and the text table, on the report fixture.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <sstream>

#include "tests/report_fixture.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace report_runtime_test {

using namespace sbr;
using json = nlohmann::json;

namespace {

// The fixture's findings with a verdict each, and one launch of its Pod.
ReportContext proved(const test::ReportFixture& fx) {
  ReportContext ctx = fx.ctx();
  for (const Finding& f : fx.findings) {
    bool pod = f.subject == "Pod/default/agent/main";
    ctx.runtime.push_back({pod ? "confirmed" : "unverifiable", pod ? "seccomp mode 0" : "",
                           pod ? "podman/runc" : "",
                           pod ? "" : "not about a workload the prover launches"});
  }
  // An observation that quotes a secret value must be redacted like any other text.
  ctx.runtime[3].observed = std::string("saw ") + test::kDbPassword;
  RuntimeLaunch l;
  l.subject = "Pod/default/agent/main";
  l.label = "Pod default/agent, container main";
  l.launch = "podman kube play";
  l.runtime = "podman/runc";
  l.not_passed = {"hostPID: podman kube play ignores it (the kubelet does not)"};
  l.controls.push_back({"read-only root filesystem",
                        2,
                        {},
                        "/ read-only",
                        {"refuted", "/ is mounted read-write", "podman/runc", ""}});
  ctx.launches.push_back(l);
  return ctx;
}

}  // namespace

TEST_CASE("prove reports: SARIF results carry properties.runtime and the run its launches",
          "[report][prover]") {
  test::ReportFixture fx;
  ReportContext ctx = proved(fx);
  std::ostringstream s;
  write_sarif(ctx, s);
  json log = json::parse(s.str());
  const json& results = log["runs"][0]["results"];
  REQUIRE(results.size() == fx.findings.size());
  const json& priv = results[2];
  CHECK(priv["ruleId"] == "SB1001");
  CHECK(priv["properties"]["runtime"] == json({{"verdict", "confirmed"},
                                               {"observed", "seccomp mode 0"},
                                               {"runtime", "podman/runc"},
                                               {"reason", ""}}));
  CHECK(results[0]["properties"]["runtime"]["verdict"] == "unverifiable");
  CHECK(s.str().find(test::kDbPassword) == std::string::npos);
  const json& launches = log["runs"][0]["properties"]["runtime-launches"];
  REQUIRE(launches.size() == 1);
  CHECK(launches[0]["controls"][0]["verdict"] == "refuted");
  CHECK(launches[0]["not-passed"][0] ==
        "hostPID: podman kube play ignores it (the kubelet does not)");
  // `check` has none of it.
  CHECK(fx.sarif().find("\"runtime\"") == std::string::npos);
}

TEST_CASE("prove reports: JSON runtime per finding (null for check) and launches",
          "[report][prover]") {
  test::ReportFixture fx;
  CHECK(json::parse(fx.json())["findings"][2]["runtime"].is_null());
  std::ostringstream s;
  write_json(proved(fx), s);
  json doc = json::parse(s.str());
  CHECK(doc["findings"][2]["runtime"]["verdict"] == "confirmed");
  CHECK(doc["launches"][0]["launch"] == "podman kube play");
  CHECK(doc["launches"][0]["controls"][0]["control"] == "read-only root filesystem");
}

TEST_CASE("prove reports: the text table per launch", "[report][prover]") {
  test::ReportFixture fx;
  std::ostringstream s;
  write_prove_text(proved(fx), s, false);
  std::string t = s.str();
  INFO(t);
  CHECK(t.find("Pod default/agent, container main: podman kube play on podman/runc\n") !=
        std::string::npos);
  CHECK(t.find("  not passed: hostPID: podman kube play ignores it") != std::string::npos);
  CHECK(t.find("  confirmed      SB1001      10  seccomp mode 0\n") != std::string::npos);
  CHECK(t.find("  refuted        control      0  read-only root filesystem (invariant 2): "
               "/ is mounted read-write\n") != std::string::npos);
  CHECK(t.find("findings are not about a launched workload") != std::string::npos);
  CHECK(t.find(test::kDbPassword) == std::string::npos);
  CHECK(t.find("\x1b") == std::string::npos);
}

}  // namespace report_runtime_test
