// The three formats are views of the same findings: same count, same (rule, file, line) set.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <regex>
#include <set>
#include <tuple>

#include "tests/report_fixture.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace report_consistency_test {

using namespace sbr;
using nlohmann::json;
using Key = std::tuple<std::string, std::string, unsigned>;  // rule, file, line

namespace {

std::multiset<Key> from_json(const std::string& text) {
  std::multiset<Key> out;
  json doc = json::parse(text);  // kept alive: the loop walks into it
  for (const json& f : doc["findings"]) {
    out.insert(Key{f["rule"].get<std::string>(), f["location"]["file"].get<std::string>(),
                   f["location"]["line"].get<unsigned>()});
  }
  return out;
}

std::multiset<Key> from_sarif(const std::string& text) {
  std::multiset<Key> out;
  json doc = json::parse(text);
  for (const json& r : doc["runs"][0]["results"]) {
    const json& pl = r["locations"][0]["physicalLocation"];
    // Whole-file problems are line 0 in the model and line 1 in SARIF (GitHub needs a line).
    out.insert(Key{r["ruleId"].get<std::string>(), pl["artifactLocation"]["uri"].get<std::string>(),
                   pl["region"]["startLine"].get<unsigned>()});
  }
  return out;
}

std::multiset<Key> from_text(const std::string& text) {
  std::multiset<Key> out;
  static const std::regex line(R"(^([^ :][^:]*?)(?::(\d+))?(?::\d+)?: \w+ \[(SB\d{4})\] .*$)");
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) {
    std::smatch m;
    if (std::regex_match(l, m, line)) {
      out.insert({m[3], m[1], m[2].matched ? std::stoul(m[2]) : 0u});
    }
  }
  return out;
}

}  // namespace

TEST_CASE("text, JSON and SARIF report the same findings", "[report]") {
  test::ReportFixture fx;
  std::multiset<Key> expected;
  for (const Finding& f : fx.findings) {
    expected.insert({f.rule_id, fx.model.files.path(f.at.file), f.at.line});
  }
  REQUIRE(expected.size() == 6);
  CHECK(from_text(fx.text()) == expected);
  CHECK(from_json(fx.json()) == expected);
  std::multiset<Key> sarif_expected;
  for (auto [rule, file, line] : expected) sarif_expected.insert({rule, file, line ? line : 1});
  CHECK(from_sarif(fx.sarif()) == sarif_expected);
}

}  // namespace report_consistency_test
