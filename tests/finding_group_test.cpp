// One finding per fact (analyzer/check/group.h): the same fact judged by a second rule with the
// same fix becomes a reason of the first finding; the same fact shared by several workloads is
// one finding naming them. Everything else stays apart.
#include <catch2/catch.hpp>

#include <string>

#include "analyzer/check/catalog.h"
#include "analyzer/check/group.h"
#include "generated/rule_ids.h"
#include "tests/fixture_harness.h"

namespace sbr {
namespace {

Finding on(RuleId rule, const std::string& subject, std::uint32_t line, Severity s) {
  Finding f;
  f.rule_id = rule;
  f.subject = subject;
  f.label = "launcher " + subject;
  f.message = f.label.str() + " mounts a host path";
  f.at = Location{0, line, 5};
  f.fact_path = "mount:/data";
  f.severity = s;
  f.fingerprint = subject + "/" + std::string(rule.str());
  return f;
}

std::string rule_yaml(const std::string& id, const std::string& severity,
                      const std::string& folds) {
  return "id: " + id + "\nslug: r" + id + "\ntitle: t\ninvariant: " + id.substr(2, 1) +
         "\nseverity: " + severity +
         "\napplies_to: [launcher]\norigin:\n  kind: invariant\n  detail: d\nprover: p\n"
         "implemented_by: invariants/inv3_filesystem.cpp\nmessage: m\n"
         "remediation: r\n" +
         (folds.empty() ? "" : "folds_into: [" + folds + "]\n") + "references: []\n";
}

}  // namespace

TEST_CASE("a persistent home bind outside the workspace is one finding with two reasons",
          "[group]") {
  std::vector<Finding> fs = {on(rule::writable_mount_outside_workspace, "a.sh", 12, Severity::High),
                             on(rule::persistent_home_volume, "a.sh", 12, Severity::Medium)};
  fold_reasons(fs, Catalog::embedded());
  REQUIRE(fs.size() == 1);
  CHECK(fs[0].rule_id == rule::writable_mount_outside_workspace);
  CHECK(fs[0].severity == Severity::High);
  REQUIRE(fs[0].reasons.size() == 1);
  CHECK(fs[0].reasons[0].rule_id == rule::persistent_home_volume);
  CHECK(fs[0].reasons[0].severity == Severity::Medium);
  CHECK(fs[0].reasons[0].fingerprint == "a.sh/SB7004");
}

TEST_CASE("a reason folds only at the same place, workload and condition, never accepted",
          "[group]") {
  std::vector<Finding> fs = {
      on(rule::writable_mount_outside_workspace, "a.sh", 12, Severity::High),
      on(rule::persistent_home_volume, "a.sh", 13, Severity::Medium),  // another line
      on(rule::persistent_home_volume, "b.sh", 12, Severity::Medium),  // another workload
  };
  Finding accepted = on(rule::persistent_home_volume, "a.sh", 12, Severity::Note);
  accepted.accepted_reason = "the cache is wiped nightly";
  fs.push_back(accepted);
  Finding narrower = on(rule::persistent_home_volume, "a.sh", 12, Severity::Medium);
  narrower.set_condition(Condition::when({"started with `--cache`", "", "", ""}, true));
  fs.push_back(narrower);
  fold_reasons(fs, Catalog::embedded());
  CHECK(fs.size() == 5);
  CHECK(fs[0].reasons.empty());
}

TEST_CASE("a rule without folds_into is never folded, even at the same place", "[group]") {
  std::vector<Finding> fs = {on(rule::persistent_home_volume, "a.sh", 12, Severity::Medium),
                             on(rule::no_wall_clock, "a.sh", 12, Severity::Medium)};
  fold_reasons(fs, Catalog::embedded());
  CHECK(fs.size() == 2);
}

TEST_CASE("one fact shared by two workloads is one finding naming both", "[group]") {
  std::vector<Finding> fs = {on(rule::publish_binds_all_interfaces, "base.yml", 22, Severity::High),
                             on(rule::publish_binds_all_interfaces, "dev.yml", 22, Severity::High)};
  merge_shared(fs);
  REQUIRE(fs.size() == 1);
  CHECK(fs[0].message == "launcher base.yml and launcher dev.yml mounts a host path");
  REQUIRE(fs[0].shared_with.size() == 1);
  CHECK(fs[0].shared_with[0].subject == "dev.yml");
  CHECK(fs[0].shared_with[0].fingerprint == "dev.yml/SB5050");
  CHECK(fs[0].fingerprint == "base.yml/SB5050");
}

TEST_CASE("past six workloads the message counts the rest", "[group]") {
  std::vector<Finding> fs;
  for (char c = 'a'; c <= 'h'; ++c) {
    fs.push_back(on(rule::capability_added, std::string(1, c), 8, Severity::High));
  }
  merge_shared(fs);
  REQUIRE(fs.size() == 1);
  CHECK(fs[0].shared_with.size() == 7);
  CHECK(fs[0].message.find("launcher f and 2 more mounts") != std::string::npos);
}

TEST_CASE("workloads judged at different severities or facts stay apart", "[group]") {
  std::vector<Finding> fs = {on(rule::capability_added, "agent", 8, Severity::High),
                             on(rule::capability_added, "proxy", 8, Severity::Medium)};
  Finding other_fact = on(rule::capability_added, "coder", 8, Severity::High);
  other_fact.fact_path = "cap_add/SETUID";
  fs.push_back(other_fact);
  Finding other_class = on(rule::capability_added, "router", 8, Severity::High);
  other_class.threat = ThreatClass::UntrustedInput;
  fs.push_back(other_class);
  merge_shared(fs);
  CHECK(fs.size() == 4);
}

TEST_CASE("folds_into must name a rule as severe that folds nowhere itself", "[group][catalog]") {
  auto load = [](std::vector<std::string> texts) {
    std::vector<std::pair<std::string_view, std::string_view>> files;
    static std::vector<std::string> names;
    names.clear();
    for (size_t i = 0; i < texts.size(); ++i) names.push_back("rules/" + std::to_string(i));
    for (size_t i = 0; i < texts.size(); ++i) files.emplace_back(names[i], texts[i]);
    return Catalog::load(files);
  };
  CHECK(load({rule_yaml("SB3901", "high", ""), rule_yaml("SB7901", "medium", "SB3901")}).ok());
  auto unknown = load({rule_yaml("SB7901", "medium", "SB3999")});
  REQUIRE_FALSE(unknown.ok());
  CHECK(unknown.error().message.find("unknown rule SB3999") != std::string::npos);
  auto weaker = load({rule_yaml("SB3901", "low", ""), rule_yaml("SB7901", "medium", "SB3901")});
  REQUIRE_FALSE(weaker.ok());
  CHECK(weaker.error().message.find("less severe") != std::string::npos);
  auto chain = load({rule_yaml("SB3901", "high", "SB3902"), rule_yaml("SB3902", "high", ""),
                     rule_yaml("SB7901", "medium", "SB3901")});
  REQUIRE_FALSE(chain.ok());
  CHECK(chain.error().message.find("folds into another rule") != std::string::npos);
}

TEST_CASE("the compose stack's shared publish and gate mount are one finding each", "[group]") {
  auto r = test::run_fixture_dir(test::source_dir() + "/fixtures/launch/compose-stack", {}, true);
  int publish = 0, gate = 0;
  for (const Finding& f : r.findings) {
    if (f.rule_id == rule::publish_binds_all_interfaces) {
      ++publish;
      CHECK(f.shared_with.size() == 1);
      CHECK(f.message.find("deploy/agent-stack.yml (agent) and compose dev/compose.yaml (agent)") !=
            std::string::npos);
    }
    if (f.rule_id == rule::gate_config_writable_by_workload) ++gate;
  }
  CHECK(publish == 1);
  CHECK(gate == 1);
}

}  // namespace sbr
