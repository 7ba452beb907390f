// The rule catalog's schema and its fail-closed behaviour: every field is read and checked, the
// generated rule constants match rules/, and an id the catalog does not hold stops the run.
#include <dirent.h>
#include <catch2/catch.hpp>

#include <fstream>
#include <regex>
#include <sstream>

#include "analyzer/check/catalog.h"
#include "analyzer/check/runner.h"
#include "analyzer/check/summary.h"
#include "generated/rule_ids.h"
#include "tests/fixture_harness.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace catalog_test {

using namespace sbr;

namespace {

std::vector<std::string> files_under(const std::string& dir) {
  std::vector<std::string> out;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d)) {
      std::string n = e->d_name;
      if (n == "." || n == "..") continue;
      std::string p = dir + "/" + n;
      if (e->d_type == DT_DIR) {
        for (auto& f : files_under(p)) out.push_back(std::move(f));
      } else {
        out.push_back(p);
      }
    }
    closedir(d);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// A valid rule file with one line replaced (or appended when `from` is empty).
std::string rule_text(const std::string& from = "", const std::string& to = "") {
  std::string t =
      "id: SB1901\n"
      "slug: test-rule\n"
      "title: A test rule\n"
      "invariant: 1\n"
      "severity: high\n"
      "applies_to: [kubernetes, launcher]\n"
      "origin:\n"
      "  kind: invariant\n"
      "  detail: a test\n"
      "prover: the probe reads it\n"
      "implemented_by: invariants/inv1_isolation.cpp\n"
      "summary: \"{workload} does {what}\"\n"
      "message: why\n"
      "remediation: fix\n"
      "references: []\n";
  if (from.empty()) return t + to;
  size_t at = t.find(from);
  REQUIRE(at != std::string::npos);
  return t.replace(at, from.size(), to);
}

std::string parse_error(const std::string& text) {
  auto r = Catalog::parse_rule(text, "rules/SB1901-test-rule.yaml");
  REQUIRE_FALSE(r.ok());
  return r.error().message;
}

}  // namespace

TEST_CASE("a valid rule file parses into every field", "[catalog]") {
  auto r = Catalog::parse_rule(rule_text(), "t.yaml");
  REQUIRE(r.ok());
  CHECK(r->applies_to == std::vector<std::string>{"kubernetes", "launcher"});
  CHECK(r->origin.kind == "invariant");
  CHECK(r->origin.detail == "a test");
  CHECK(r->summary == "{workload} does {what}");
  CHECK(r->summary_params == std::vector<std::string>{"workload", "what"});
  CHECK_FALSE(r->tool_notification);
}

TEST_CASE("rule files with a bad schema field are errors with their position", "[catalog]") {
  CHECK(parse_error(rule_text("applies_to: [kubernetes, launcher]", "applies_to: [kubernets]")) ==
        "rules/SB1901-test-rule.yaml:6:14: `applies_to` value `kubernets` is not "
        "kubernetes|launcher|compose|devcontainer|dockerfile|egress-gate|config");
  CHECK(parse_error(rule_text("applies_to: [kubernetes, launcher]", "applies_to: []")) ==
        "rules/SB1901-test-rule.yaml:6:13: `applies_to` must be a non-empty list");
  CHECK(parse_error(rule_text("  kind: invariant", "  kind: rumour")) ==
        "rules/SB1901-test-rule.yaml:8:9: `origin.kind` `rumour` is not "
        "invariant|past-review|advisory|hardening-guide");
  CHECK(parse_error(rule_text("  detail: a test\n", "")) ==
        "rules/SB1901-test-rule.yaml:8:3: missing string `detail`");
  CHECK(parse_error(rule_text("", "tool_notification: true\n")) ==
        "rules/SB1901-test-rule.yaml:16:20: `tool_notification` is for invariant-0 rules (a file "
        "never read)");
  CHECK(parse_error(rule_text("{what}", "{what is it}")) ==
        "rules/SB1901-test-rule.yaml:12:10: `summary`: `{what is it` at offset 16 is not a "
        "{parameter}");
  CHECK(parse_error(rule_text("", "kind: notification\n")) ==
        "rules/SB1901-test-rule.yaml:16:1: unknown key `kind`");
}

TEST_CASE("a catalog with a broken or duplicate file does not load", "[catalog]") {
  std::string good = rule_text();
  std::string bad = rule_text("severity: high", "severity: severe");
  auto broken = Catalog::load({{"rules/a.yaml", good}, {"rules/b.yaml", bad}});
  REQUIRE_FALSE(broken.ok());
  CHECK(broken.error().message ==
        "rules/b.yaml:5:11: severity `severe` is not critical|high|medium|low|note");
  auto twice = Catalog::load({{"rules/a.yaml", good}, {"rules/b.yaml", good}});
  REQUIRE_FALSE(twice.ok());
  CHECK(twice.error().message == "rules/b.yaml: id SB1901 is already used");
  CHECK(Catalog::load({{"rules/a.yaml", good}}).ok());
}

TEST_CASE("the generated rule constants are the catalog", "[catalog]") {
  const Catalog& c = Catalog::embedded();
  REQUIRE(rule::all.size() == c.rules().size());
  for (size_t i = 0; i < c.rules().size(); ++i) CHECK(rule::all[i] == c.rules()[i].id);
  CHECK(rule::privileged_container == "SB1001");
  CHECK(c.find(rule::privileged_container)->slug == "privileged-container");
}

TEST_CASE("rule ids are values: parsed from text only when well-formed", "[catalog]") {
  CHECK(RuleId::parse("SB1001") == rule::privileged_container);
  CHECK_FALSE(RuleId::parse("SB10011"));
  CHECK_FALSE(RuleId::parse("SX1001"));
  CHECK_FALSE(RuleId::parse("SB1O01"));
  CHECK(RuleId().empty());
  CHECK(rule::parse_error < rule::privileged_container);
  CHECK(fmt::format("{}", rule::privileged_container) == "SB1001");
  CHECK(sizeof(RuleId) <= 8);
}

TEST_CASE("every rule file has the schema's keys in the schema's order", "[catalog]") {
  // `vars` follows `summary`, whose parameters it defines; `match` comes last.
  const std::vector<std::string> order = {"id",
                                          "slug",
                                          "title",
                                          "invariant",
                                          "severity",
                                          "cause",
                                          "applies_to",
                                          "origin",
                                          "prover",
                                          "implemented_by",
                                          "tool_notification",
                                          "summary",
                                          "vars",
                                          "message",
                                          "remediation",
                                          "remediation_by_engine",
                                          "remediation_by_cause",
                                          "folds_into",
                                          "references",
                                          "match"};
  const std::set<std::string> optional = {"cause",
                                          "implemented_by",
                                          "tool_notification",
                                          "summary",
                                          "remediation_by_engine",
                                          "remediation_by_cause",
                                          "folds_into",
                                          "vars",
                                          "match"};
  for (const auto& path : files_under(test::source_dir() + "/rules")) {
    INFO(path);
    std::vector<std::string> keys;
    std::istringstream in(test::read_file(path));
    for (std::string line; std::getline(in, line);) {
      std::smatch m;
      if (std::regex_search(line, m, std::regex("^([a-z_]+):"))) keys.push_back(m[1]);
    }
    size_t pos = 0;
    for (const auto& k : keys) {
      while (pos < order.size() && order[pos] != k) {
        CHECK(optional.count(order[pos]) == 1);  // a required key is missing or out of order
        ++pos;
      }
      CHECK(pos < order.size());
      ++pos;
    }
  }
}

TEST_CASE("only invariant-0 rules about unread files are tool notifications", "[catalog]") {
  std::vector<std::string> notifications;
  for (const Rule& r : Catalog::embedded().rules()) {
    if (r.tool_notification) notifications.push_back(r.id);
  }
  CHECK(notifications == std::vector<std::string>{"SB0002", "SB0003", "SB0004", "SB0008"});
}

TEST_CASE("no rule id is spelt as a literal in analyzer/ or invariants/", "[catalog]") {
  std::regex literal("\"SB[0-9]{4}\"");
  for (const char* dir : {"/analyzer", "/invariants"}) {
    for (const auto& path : files_under(test::source_dir() + dir)) {
      if (path.size() < 3 ||
          (path.substr(path.size() - 4) != ".cpp" && path.substr(path.size() - 2) != ".h")) {
        continue;
      }
      INFO(path << " names a rule id as a string: use the rule:: constant");
      CHECK_FALSE(std::regex_search(test::read_file(path), literal));
    }
  }
}

TEST_CASE("a summary naming a parameter the check does not supply is an internal error",
          "[catalog]") {
  auto r = Catalog::parse_rule(rule_text(), "t.yaml");
  REQUIRE(r.ok());
  CHECK(render_summary(*r, {{"workload", "Pod a"}, {"what", "x {y}"}}) == "Pod a does x {y}");
  CHECK_THROWS_WITH(render_summary(*r, {{"workload", "Pod a"}}),
                    "rule SB1901 (test-rule): its summary names {what}, which the check does "
                    "not supply");
  Rule plain = *r;
  plain.summary.clear();
  plain.summary_params.clear();
  CHECK_THROWS_AS(render_summary(plain, {{"what", "x"}}), CatalogError);
  CHECK(summary_parameters("{{literal}} {a_1}").value() == std::vector<std::string>{"a_1"});
  CHECK_FALSE(summary_parameters("a } b").ok());
  CHECK_FALSE(summary_parameters("{open").ok());
}

}  // namespace catalog_test
