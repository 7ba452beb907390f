// Whose gap an invariant-0 finding is (docs/invariants/0-integrity.md, "Causes"): every
// invariant-0 rule has a default cause in the catalog, the place that meets a problem can say
// otherwise, and the reports carry it. fixtures/causes/<cause>/ are repositories in which every
// invariant-0 finding has that cause.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <sstream>
#include <string>

#include "analyzer/check/catalog.h"
#include "analyzer/check/runner.h"
#include "analyzer/config/config.h"
#include "analyzer/pipeline/analysis.h"
#include "analyzer/render/bash/bash_n.h"
#include "analyzer/report/report.h"
#include "tests/fixture_harness.h"
#include "tests/report_fixture.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace inv0_cause_test {

using namespace sbr;

namespace {

void check_cause_fixture(const std::string& cause) {
  INFO(cause);
  auto r = test::run_fixture_dir(test::source_dir() + "/fixtures/causes/" + cause, {}, true);
  INFO(r.describe());
  CHECK(r.matches());
  size_t integrity = 0;
  for (const Finding& f : r.findings) {
    if (f.invariant != 0) continue;
    ++integrity;
    INFO(f.rule_id.str() << ": " << f.message.str());
    REQUIRE(f.cause.has_value());
    CHECK(cause_name(*f.cause) == cause);
  }
  CHECK(integrity >= 3);  // each fixture shows the cause through more than one reader
}

}  // namespace

TEST_CASE("a wrong input is the repository's gap", "[inv0][cause]") {
  check_cause_fixture("repository");
}

TEST_CASE("valid input sbreview cannot follow is sbreview's gap", "[inv0][cause]") {
  REQUIRE(bash::bash_verdict("true\n").has_value());  // the fixture's bash verdict needs bash
  check_cause_fixture("analyzer");
}

TEST_CASE("a missing dependency or tool is the environment's gap", "[inv0][cause]") {
  check_cause_fixture("environment");
}

TEST_CASE("bash -n decides a syntax error, with its own line and words", "[inv0][cause]") {
  auto ok = bash::bash_verdict("exec 3<>\"/dev/tcp/127.0.0.1/$port\"\n");
  REQUIRE(ok.has_value());
  CHECK(ok->accepts);
  auto bad = bash::bash_verdict("for x in a b; do\n  echo \"$x\"\n");
  REQUIRE(bad.has_value());
  CHECK_FALSE(bad->accepts);
  CHECK(bad->line == 3);
  CHECK(bad->message == "syntax error: unexpected end of file");
}

TEST_CASE("bash -n's words count where its status does not", "[inv0][cause]") {
  // bash 5.2 -n exits 0 here, and prints the error; run, the script stops at it.
  auto v = bash::bash_verdict("[[ $x =~ a b ]]\necho after\n");
  REQUIRE(v.has_value());
  CHECK_FALSE(v->accepts);
  CHECK(v->line == 1);
}

TEST_CASE("every invariant-0 rule has a cause and no other rule has one", "[inv0][cause]") {
  for (const Rule& r : Catalog::embedded().rules()) {
    INFO(r.id);
    CHECK(r.cause.has_value() == (r.invariant == 0));
  }
  const std::string rule =
      "id: SB0901\nslug: t\ntitle: T\ninvariant: 0\nseverity: high\n"
      "applies_to: [kubernetes]\norigin:\n  kind: invariant\n  detail: d\nprover: p\n"
      "implemented_by: invariants/inv0_integrity.cpp\nmessage: m\nremediation: r\n"
      "references: []\n";
  auto missing = Catalog::parse_rule(rule, "rules/SB0901-t.yaml");
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().message ==
        "rules/SB0901-t.yaml:1:1: an invariant-0 rule needs `cause: "
        "repository|analyzer|environment`");
  std::string with_cause = rule;
  with_cause.insert(with_cause.find("applies_to"), "cause: gremlins\n");
  auto wrong = Catalog::parse_rule(with_cause, "rules/SB0901-t.yaml");
  REQUIRE_FALSE(wrong.ok());
  CHECK(wrong.error().message ==
        "rules/SB0901-t.yaml:6:8: `cause` `gremlins` is not repository|analyzer|environment");
}

TEST_CASE("a finding whose cause is not its rule's gets that cause's remediation",
          "[inv0][cause]") {
  const Rule* parse = Catalog::embedded().find("SB0001");
  REQUIRE(parse != nullptr);
  REQUIRE(parse->cause == Cause::Repository);
  CHECK(parse->remediation_for("", Cause::Repository) == parse->remediation);
  CHECK(parse->remediation_for("", Cause::Analyzer) == common_remediation(Cause::Analyzer));
  const Rule* render = Catalog::embedded().find("SB0011");
  REQUIRE(render != nullptr);
  CHECK(render->remediation_for("", Cause::Environment) ==
        render->remediation_by_cause.at("environment"));
}

TEST_CASE("the reports carry the cause of invariant-0 findings only", "[inv0][cause][report]") {
  Analysis a =
      analyze({test::source_dir() + "/fixtures/causes/analyzer"}, Config{}, AnalyzeOptions{});
  RunOptions run;
  run.today = "2026-06-15";
  const Catalog& catalog = Catalog::embedded();
  std::vector<Finding> findings = run_checks(a.model, catalog, Config{}, run);
  REQUIRE_FALSE(findings.empty());
  ReportContext ctx{a.model, a.sources, catalog, findings};
  std::ostringstream json, sarif, text;
  write_json(ctx, json);
  write_sarif(ctx, sarif);
  write_text(ctx, text, false);
  auto j = nlohmann::json::parse(json.str());
  for (const auto& f : j["findings"]) CHECK(f["cause"] == "analyzer");
  auto s = nlohmann::json::parse(sarif.str());
  for (const auto& res : s["runs"][0]["results"]) {
    CHECK(res["properties"]["cause"] == "analyzer");
  }
  for (const auto& rule : s["runs"][0]["tool"]["driver"]["rules"]) {
    CHECK(rule["properties"].contains("cause") == (rule["properties"]["invariant"] == 0));
  }
  CHECK(text.str().find("(invariant 0; cause: analyzer)") != std::string::npos);
}

TEST_CASE("findings of invariants 1-7 have no cause in any report", "[inv0][cause][report]") {
  test::ReportFixture fx;
  std::ostringstream json;
  write_json(fx.ctx(), json);
  auto j = nlohmann::json::parse(json.str());
  REQUIRE_FALSE(j["findings"].empty());
  for (const auto& f : j["findings"]) {
    if (f["invariant"] != 0) CHECK(f["cause"].is_null());
  }
}

}  // namespace inv0_cause_test
