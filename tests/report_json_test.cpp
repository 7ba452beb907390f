// The JSON report's documented shape (docs/output-formats.md).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "analyzer/support/build_info.h"
#include "tests/report_fixture.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace report_json_test {

using namespace sbr;
using nlohmann::json;

TEST_CASE("json: version, tool and summary", "[report]") {
  test::ReportFixture fx;
  json doc = json::parse(fx.json());
  CHECK(doc["version"] == 1);
  CHECK(doc["tool"]["name"] == "sbreview");
  CHECK(doc["tool"]["version"] == semantic_version());
  const json& s = doc["summary"];
  CHECK(s["findings"] == 6);
  CHECK(s["by_severity"] ==
        json({{"critical", 2}, {"high", 2}, {"medium", 0}, {"low", 1}, {"note", 1}}));
  CHECK(s["by_invariant"] ==
        json({{"0", 1}, {"1", 2}, {"2", 0}, {"3", 0}, {"4", 1}, {"5", 0}, {"6", 1}, {"7", 1}}));
  CHECK(s["accepted"] == 1);
  CHECK(s["files"] == 4);
  CHECK(s["kubernetes_documents"] == 1);
  CHECK(s["other_yaml_documents"] == 1);
}

TEST_CASE("json: every finding has every key, absent values are null", "[report]") {
  test::ReportFixture fx;
  json doc = json::parse(fx.json());
  REQUIRE(doc["findings"].size() == 6);
  std::vector<std::string> keys = {"rule",
                                   "slug",
                                   "title",
                                   "invariant",
                                   "severity",
                                   "cause",
                                   "message",
                                   "location",
                                   "related",
                                   "via",
                                   "subject",
                                   "threat_class",
                                   "threat_class_reason",
                                   "condition",
                                   "fingerprint",
                                   "accepted_reason",
                                   "suppression_kind",
                                   "shared_with",
                                   "reasons",
                                   "remediation",
                                   "origin",
                                   "runtime"};
  auto ordered = nlohmann::ordered_json::parse(fx.json());
  for (const auto& f : ordered["findings"]) {
    std::vector<std::string> got;
    for (auto it = f.begin(); it != f.end(); ++it) got.push_back(it.key());
    CHECK(got == keys);  // the order is part of the shape (ordered output)
  }
  const json& priv = doc["findings"][2];
  CHECK(priv["rule"] == "SB1001");
  CHECK(priv["slug"] == "privileged-container");
  CHECK(priv["title"] == "Title of privileged-container");
  CHECK(priv["invariant"] == 1);
  CHECK(priv["severity"] == "critical");
  CHECK(priv["location"] == json({{"file", "k8s/agent.yaml"}, {"line", 10}, {"column", 7}}));
  CHECK(
      priv["related"] ==
      json::array(
          {{{"file", "k8s/agent.yaml"}, {"line", 5}, {"column", 1}, {"message", "the pod spec"}}}));
  CHECK(priv["subject"] == "Pod/default/agent/main");
  CHECK(priv["threat_class"] == "untrusted-code");
  CHECK(priv["condition"].is_null());
  CHECK(priv["accepted_reason"].is_null());
  CHECK(priv["fingerprint"] == fx.findings[2].fingerprint);
  CHECK(priv["remediation"] == "Fix privileged-container.");
  CHECK(priv["origin"] == json({{"kind", "invariant"}, {"detail", "Invariant 1"}}));

  const json& accepted = doc["findings"][1];
  CHECK(accepted["severity"] == "note");
  CHECK(accepted["accepted_reason"] == "the batch node enforces its own limits");
  const json& cond = doc["findings"][4];
  CHECK(cond["condition"] == "[[ $MODE == full ]]");
  const json& whole = doc["findings"][0];
  CHECK(whole["location"] == json({{"file", "broken.yaml"}, {"line", 0}, {"column", 0}}));
}

TEST_CASE("json: invalid UTF-8 in a message does not abort the report", "[report]") {
  test::ReportFixture fx;
  fx.findings[0].message = "bad byte \xff here";
  json doc = json::parse(fx.json());
  CHECK(doc["findings"][0]["message"] == "bad byte \xEF\xBF\xBD here");
}

}  // namespace report_json_test
