// SARIF 2.1.0 structure: what GitHub code scanning reads (rules, levels, security-severity,
// locations, fingerprints, suppressions, notifications).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "analyzer/support/build_info.h"
#include "tests/report_fixture.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace report_sarif_test {

using namespace sbr;
using nlohmann::json;

TEST_CASE("sarif: log, run and driver", "[report]") {
  test::ReportFixture fx;
  json log = json::parse(fx.sarif());
  CHECK(log["version"] == "2.1.0");
  CHECK(log["$schema"].get<std::string>().find("sarif-schema-2.1.0.json") != std::string::npos);
  REQUIRE(log["runs"].size() == 1);
  const json& run = log["runs"][0];
  const json& driver = run["tool"]["driver"];
  CHECK(driver["name"] == "sbreview");
  CHECK(driver["version"] == semantic_version());
  CHECK(driver["semanticVersion"] == semantic_version());
  CHECK(driver["informationUri"] == "https://github.com/sbreview/sbreview");
  CHECK(run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == "file:///work/repo/");
  CHECK(run["invocations"][0]["executionSuccessful"] == true);
}

TEST_CASE("sarif: rules are the whole catalog, sorted, with GitHub's properties", "[report]") {
  test::ReportFixture fx;
  json log = json::parse(fx.sarif());
  const json& rules = log["runs"][0]["tool"]["driver"]["rules"];
  REQUIRE(rules.size() == fx.catalog.rules().size());
  std::vector<std::string> ids;
  for (const json& r : rules) ids.push_back(r["id"]);
  CHECK(ids == std::vector<std::string>{"SB0002", "SB1001", "SB4001", "SB5001", "SB6001",
                                        "SB7001"});  // SB5001 fired nowhere, it is still here
  const json& r = rules[1];
  CHECK(r["name"] == "privileged-container");
  CHECK(r["shortDescription"]["text"] == "Title of privileged-container");
  CHECK(r["fullDescription"]["text"] == "Why privileged-container matters.");
  CHECK(r["helpUri"] ==
        "https://github.com/sbreview/sbreview/blob/main/docs/rules/"
        "SB1001-privileged-container.md");
  CHECK(r["help"]["text"] ==
        "Why privileged-container matters.\n\nRemediation: Fix privileged-container.\n\n"
        "References:\n- https://example.org/privileged-container");
  CHECK(r["help"]["markdown"].get<std::string>().find("**Remediation:**") != std::string::npos);
  CHECK(r["defaultConfiguration"]["level"] == "error");
  CHECK(r["properties"]["security-severity"] == "9.5");
  CHECK(r["properties"]["tags"] == json::array({"security", "invariant-1", "kubernetes"}));
  CHECK(r["properties"]["applies-to"] == json::array({"kubernetes"}));
  CHECK(r["properties"]["origin"] == json({{"kind", "invariant"}, {"detail", "Invariant 1"}}));
  CHECK(r["properties"]["precision"] == "high");
  std::map<std::string, std::pair<std::string, std::string>> expect = {
      {"SB0002", {"8.0", "error"}},
      {"SB4001", {"8.0", "error"}},
      {"SB6001", {"5.5", "warning"}},
      {"SB7001", {"2.0", "note"}}};
  for (const json& rule : rules) {
    auto it = expect.find(rule["id"]);
    if (it == expect.end()) continue;
    INFO(it->first);
    CHECK(rule["properties"]["security-severity"] == it->second.first);
    CHECK(rule["defaultConfiguration"]["level"] == it->second.second);
  }
}

TEST_CASE("sarif: results carry index, level, location, fingerprint and properties", "[report]") {
  test::ReportFixture fx;
  json log = json::parse(fx.sarif());
  const json& results = log["runs"][0]["results"];
  REQUIRE(results.size() == fx.findings.size());
  for (size_t i = 0; i < results.size(); ++i) {
    CHECK(results[i]["ruleId"] == fx.findings[i].rule_id);  // runner order is kept
    CHECK(results[i]["ruleIndex"] == fx.catalog.index_of(fx.findings[i].rule_id));
    CHECK(results[i]["partialFingerprints"]["sbreview/v3"] == fx.findings[i].fingerprint);
  }
  const json& priv = results[2];
  CHECK(priv["level"] == "error");
  // GitHub shows related locations only when the message links to them.
  CHECK(priv["message"]["text"] ==
        "container main of Pod/default/agent is privileged (related: [the pod spec](1))");
  const json& pl = priv["locations"][0]["physicalLocation"];
  CHECK(pl["artifactLocation"] == json({{"uri", "k8s/agent.yaml"}, {"uriBaseId", "%SRCROOT%"}}));
  CHECK(pl["region"]["startLine"] == 10);
  CHECK(pl["region"]["startColumn"] == 7);
  CHECK(pl["region"]["snippet"]["text"] == "      privileged: true");
  const json& rel = priv["relatedLocations"][0];
  CHECK(rel["id"] == 1);
  CHECK(rel["message"]["text"] == "the pod spec");
  CHECK(rel["physicalLocation"]["region"]["startLine"] == 5);
  CHECK(priv["properties"]["invariant"] == 1);
  CHECK(priv["properties"]["threat-class"] == "untrusted-code");
  CHECK(priv["properties"]["severity"] == "critical");
  CHECK(priv["properties"]["subject"] == "Pod/default/agent/main");
  CHECK_FALSE(priv["properties"].contains("condition"));
  CHECK_FALSE(priv.contains("suppressions"));

  // The effective severity per result (docs/output-formats.md, "Severity per result").
  CHECK(priv["properties"]["security-severity"] == "9.5");
  CHECK(results[4]["level"] == "note");  // low
  CHECK(results[4]["properties"]["security-severity"] == "2.0");
  // An accepted finding is a note whatever its rule: its alert says so too.
  CHECK(results[1]["properties"]["security-severity"] == "0.0");
  CHECK(results[4]["properties"]["condition"] == "[[ $MODE == full ]]");
  // Columns are UTF-16 code units in SARIF: "é" counts once.
  CHECK(results[5]["locations"][0]["physicalLocation"]["region"]["startColumn"] == 16);
}

TEST_CASE("sarif: whole-file problems get line 1 and no column", "[report]") {
  test::ReportFixture fx;
  json log = json::parse(fx.sarif());
  const json& region = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"];
  CHECK(region == json({{"startLine", 1}}));
}

TEST_CASE("sarif: accepted findings are suppressed notes with their justification", "[report]") {
  test::ReportFixture fx;
  json log = json::parse(fx.sarif());
  const json& accepted = log["runs"][0]["results"][1];
  CHECK(accepted["ruleId"] == "SB6001");
  CHECK(accepted["level"] == "note");
  CHECK(accepted["suppressions"] ==
        json::array(
            {{{"kind", "external"}, {"justification", "the batch node enforces its own limits"}}}));
  CHECK(accepted["properties"]["accepted-reason"] == "the batch node enforces its own limits");
}

TEST_CASE("sarif: unread files are tool execution notifications", "[report]") {
  test::ReportFixture fx;
  json log = json::parse(fx.sarif());
  const json& notes = log["runs"][0]["invocations"][0]["toolExecutionNotifications"];
  REQUIRE(notes.size() == 1);
  CHECK(notes[0]["level"] == "error");
  CHECK(notes[0]["message"]["text"] == "file cannot be read: Permission denied");
  CHECK(notes[0]["associatedRule"] == json({{"id", "SB0002"}, {"index", 0}}));
  CHECK(notes[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "broken.yaml");
}

TEST_CASE("sarif: URIs are percent-encoded and the root is omitted when unknown", "[report]") {
  test::ReportFixture fx;
  fx.model.files.paths[1] = "k8s/my agent#1.yaml";
  ReportContext ctx = fx.ctx();
  ctx.source_root.clear();
  std::ostringstream s;
  write_sarif(ctx, s);
  json log = json::parse(s.str());
  CHECK_FALSE(log["runs"][0].contains("originalUriBaseIds"));
  CHECK(
      log["runs"][0]["results"][2]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] ==
      "k8s/my%20agent%231.yaml");
}

TEST_CASE("sarif: URIs are made relative to the repository with the prefix", "[report]") {
  test::ReportFixture fx;
  ReportContext ctx = fx.ctx();
  ctx.uri_prefix = "deploy/";
  std::ostringstream s;
  write_sarif(ctx, s);
  json log = json::parse(s.str());
  CHECK(
      log["runs"][0]["results"][2]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] ==
      "deploy/k8s/agent.yaml");
  CHECK(log["runs"][0]["results"][2]["relatedLocations"][0]["physicalLocation"]["artifactLocation"]
           ["uri"] == "deploy/k8s/agent.yaml");
}

TEST_CASE("sarif: a finding without its own location is shown at a related one", "[report]") {
  test::ReportFixture fx;
  fx.findings[2].at = Location{};  // the privileged finding keeps its related pod spec
  json log = json::parse(fx.sarif());
  const json& pl = log["runs"][0]["results"][2]["locations"][0]["physicalLocation"];
  CHECK(pl["artifactLocation"]["uri"] == "k8s/agent.yaml");
  CHECK(pl["region"]["startLine"] == 5);
}

TEST_CASE("sarif: brackets are escaped once a message embeds links", "[report]") {
  test::ReportFixture fx;
  fx.findings[2].message = "no capabilities.drop: [ALL] in C:\\x";
  fx.findings[2].related.push_back({{1, 9, 5}, "securityContext [here]"});
  fx.findings[2].related.push_back({Location{}, "an engine default"});
  json log = json::parse(fx.sarif());
  CHECK(log["runs"][0]["results"][2]["message"]["text"] ==
        "no capabilities.drop: \\[ALL\\] in C:\\\\x (related: [the pod spec](1); "
        "[securityContext \\[here\\]](2))");
  // Without related locations the message is left as it is.
  CHECK(log["runs"][0]["results"][4]["message"]["text"] == "podman run is privileged");
}

}  // namespace report_sarif_test
