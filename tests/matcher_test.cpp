// The rule language (check/matcher.h, check/data_rule.h): typed tests on hand-built models, the
// load-time errors with file:line:col, and the findings a data rule builds.
#include <catch2/catch.hpp>

#include "analyzer/check/catalog.h"
#include "analyzer/check/data_run.h"
#include "generated/rule_ids.h"
#include "tests/inv_test_support.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace matcher_test {

using namespace sbr;
using namespace sbr::test;

namespace {

// A user-range rule around `match`, so the test needs no SB id.
std::string rule_with(const std::string& match, const std::string& extra = "") {
  return "id: X-test\nslug: test\ntitle: t\ninvariant: 3\nseverity: high\n"
         "applies_to: [kubernetes, launcher]\norigin:\n  kind: past-review\n  detail: d\n"
         "summary: \"{workload}: {what}\"\nmessage: m\nremediation: r\nreferences: []\n" +
         extra + "match:\n" + match;
}

RuleSource user() {
  RuleSource s;
  s.user = true;
  return s;
}

std::string error_of(const std::string& match, const std::string& extra = "") {
  auto r = Catalog::parse_rule(rule_with(match, extra), "x.yaml", user());
  REQUIRE_FALSE(r.ok());
  return r.error().message;
}

std::vector<Finding> run_rule(const std::string& match, const Model& m,
                              const std::string& extra = "vars:\n  what: hit\n") {
  auto r = Catalog::parse_rule(rule_with(match, extra), "x.yaml", user());
  INFO((r.ok() ? std::string() : r.error().message));
  REQUIRE(r.ok());
  Findings out;
  match::run_data_rules(m, {{r->rule_id(), r->data.get()}}, out);
  return out.items();
}

}  // namespace

TEST_CASE("unset is not false: a test needs the field written, `present: false` finds it unset",
          "[match]") {
  Workload w = hardened_pod();
  w.identity.read_only_root.reset();
  Model m = model_of({w});
  CHECK(run_rule("  each: workload\n  where: {identity.read_only_root: false}\n"
                 "  at: identity.read_only_root\n",
                 m)
            .empty());
  auto unset = run_rule(
      "  each: workload\n  where: {identity.read_only_root: {present: false}}\n"
      "  at: [identity.read_only_root, anchor.container_security]\n",
      m);
  REQUIRE(unset.size() == 1);
  CHECK(unset[0].at.line == 20);  // no securityContext: the container entry
  m.workloads[0].identity.read_only_root = fact(false, at_line(30));
  auto written = run_rule(
      "  each: workload\n  where: {identity.read_only_root: false}\n"
      "  at: identity.read_only_root\n",
      m);
  REQUIRE(written.size() == 1);
  CHECK(written[0].at.line == 30);
  CHECK(written[0].message == "Deployment agents/runner, container agent: hit");
}

TEST_CASE("tests by type: sets, numbers, regex, path classes, CIDR ranges, lists", "[match]") {
  Workload w = hardened_pod();
  w.mounts.push_back(host_mount("/home/dev/.ssh", "/root/.ssh", true, 40));
  w.mounts.push_back(host_mount("/srv/data", "/data", false, 50));
  Model m = model_of({w});
  auto fs = run_rule(
      "  each: mount\n  where:\n    source: {class: credential-store}\n"
      "  at: source\n",
      m);
  REQUIRE(fs.size() == 1);
  CHECK(fs[0].at.line == 40);
  CHECK(run_rule("  each: mount\n  where: {source: {under: /srv}, read_only: false}\n"
                 "  at: source\n",
                 m)
            .size() == 1);
  CHECK(run_rule("  each: workload\n  where: {identity.run_as_user: {ge: 1000, lt: 1001}}\n"
                 "  at: identity.run_as_user\n",
                 m)
            .size() == 1);
  CHECK(run_rule("  each: workload\n  where: {image: {regex: \"^ghcr\\\\.io/\"}}\n"
                 "  at: anchor.container\n",
                 m)
            .size() == 1);
  CHECK(
      run_rule("  each: workload\n  where: {engine: [podman, docker]}\n  at: anchor.container\n", m)
          .empty());

  EgressGate g;
  g.kind = GateKind::NetworkPolicy;
  g.name = "NetworkPolicy agents/allow";
  g.from = at_line(70);
  EgressAllow a;
  a.dest = DestKind::Cidr;
  a.value = "104.16.0.0/13";
  a.from = at_line(72);
  a.ports = {{"TCP", 443, 443}};
  g.allows.push_back(a);
  m.workloads[0].network.egress.push_back(g);
  CHECK(run_rule("  each: allow\n  where: {value: {within: 104.16.0.0/12}, ports: TCP/443}\n"
                 "  at: value\n",
                 m)
            .size() == 1);
  CHECK(run_rule("  each: allow\n  where: {value: {contains: 104.17.1.1}}\n  at: value\n", m)
            .size() == 1);
  CHECK(run_rule("  each: allow\n  where: {value: {overlaps: [10.0.0.0/8]}}\n  at: value\n", m)
            .empty());
  // A quantifier from the workload over its gates' allows.
  CHECK(run_rule("  each: gate\n  where:\n    exists: {each: allow, where: {dest: cidr}}\n"
                 "    none: {each: allow, where: {dest: any}}\n  at: name\n",
                 m)
            .size() == 1);
}

TEST_CASE("conditions: a fact on a non-default path is told apart from one on every path",
          "[match]") {
  Workload w = hardened_launch();
  Condition c = Condition::when({"AGENT_NET=host", "AGENT_NET!=host", "AGENT_NET", "host"}, true);
  w.network.host_network = fact(true, Provenance{Location{0, 9, 1}, Frontend::Bash, c});
  Model m = model_of({w});
  const std::string base = "  each: workload\n  where:\n    network.host_network: {eq: true, ";
  CHECK(run_rule(base + "condition: switch}\n  at: network.host_network\n", m).size() == 1);
  CHECK(run_rule(base + "condition: none}\n  at: network.host_network\n", m).empty());
  auto f = run_rule(base + "condition: conditional}\n  at: network.host_network\n", m);
  REQUIRE(f.size() == 1);
  CHECK(f[0].condition().needs_switch);  // the runner lowers the severity one level
}

TEST_CASE("threat class, vars by engine and by choice, and the fact path", "[match]") {
  Workload pod = hardened_pod();
  pod.identity.privileged = fact(true, at_line(24));
  Workload launch = hardened_launch();
  launch.identity.privileged = fact(true, at_line(6, Frontend::Bash));
  launch.threat = ThreatClass::UntrustedInput;
  Model m = model_of({pod, launch});
  const std::string match =
      "  each: workload\n  where: {identity.privileged: true, threat: untrusted-code}\n"
      "  at: identity.privileged\n  fact: \"privileged/{engine}\"\n";
  auto fs = run_rule(match, m,
                     "vars:\n  what:\n    kubernetes: \"privileged: true\"\n"
                     "    default: \"--privileged\"\n");
  REQUIRE(fs.size() == 1);
  CHECK(fs[0].message == "Deployment agents/runner, container agent: privileged: true");
  CHECK(fs[0].fact_path == "privileged/kubelet");
  // Without a `fact:` it is the object's path and the `at` field.
  auto dflt = run_rule("  each: mount\n  at: source\n", model_of({[] {
                         Workload w = hardened_pod();
                         w.mounts.push_back(host_mount("/srv", "/data", true));
                         return w;
                       }()}));
  REQUIRE(dflt.size() == 1);
  CHECK(dflt[0].fact_path == "mount[/data].source");
}

TEST_CASE("a broken rule is an error with file:line:col", "[match]") {
  CHECK(error_of(
            "  each: workload\n  where: {identity.privilegd: true}\n  at: identity.privileged\n") ==
        "x.yaml:16:11: unknown field `identity.privilegd` of workload: did you mean "
        "`identity.privileged`?");
  CHECK(error_of("  each: mountt\n  at: source\n").rfind("x.yaml:15:9: unknown object kind", 0) ==
        0);
  CHECK(error_of("  each: workload\n  where: {identity.privileged: yes please}\n"
                 "  at: identity.privileged\n") ==
        "x.yaml:16:32: `identity.privileged` takes true or false");
  CHECK(error_of("  each: workload\n  where: {engine: kubernetes}\n  at: anchor.pod\n") ==
        "x.yaml:16:19: `engine` is never `kubernetes` (it is one of kubelet|podman|docker|"
        "podman-kube-play|compose|devcontainer): the test can never match");
  CHECK(error_of("  each: workload\n  where: {resources.pids_limit: {gt: 10, lt: 5}}\n"
                 "  at: anchor.pod\n") ==
        "x.yaml:16:33: the numeric bounds leave no value: it can never match");
  CHECK(error_of("  each: workload\n  where: {image: {in: []}}\n  at: anchor.pod\n") ==
        "x.yaml:16:23: an empty list can never match");
  CHECK(error_of("  each: workload\n  where: {image: {regex: \"([a-\"}}\n  at: anchor.pod\n")
            .rfind("x.yaml:16:26: invalid regex", 0) == 0);
  CHECK(error_of("  each: env\n  at: name\n  summary: \"{value}\"\n") ==
        "x.yaml:17:12: `{value}` may hold a secret value, which a message or fact path never "
        "shows");
  CHECK(error_of("  each: workload\n  where: {image: {class: home}}\n  at: anchor.pod\n") ==
        "x.yaml:16:19: `image` is a string field: it has no `class` test");
  CHECK(error_of("  each: workload\n  where:\n    - engine: docker\n    - engine: podman\n"
                 "  at: anchor.pod\n") ==
        "x.yaml:17:5: `engine` cannot equal two values at once: it can never match");
}

TEST_CASE("a broken rule stops the run with exit 2 and its position", "[match][cli]") {
  // Covered end to end in cli_rules_test.cpp; here the catalog: a user rule that does not load
  // is an error of the catalog, not a dropped rule.
  Catalog c = Catalog::embedded();
  auto with = c.with_user_rules(
      {{".sbreview/rules/X-bad.yaml", rule_with("  each: workload\n  at: nowhere\n")}}, user());
  REQUIRE_FALSE(with.ok());
  CHECK(with.error().message ==
        ".sbreview/rules/X-bad.yaml:16:7: unknown field `nowhere` of workload (its fields: "
        "docs/rules/match-reference.md#workload)");
}

TEST_CASE("user rule ids stay out of the SB range and name their prefix", "[match]") {
  CHECK(RuleId::valid_user_id("X-no-latest"));
  CHECK(RuleId::valid_user_id("ACME-42"));
  CHECK_FALSE(RuleId::valid_user_id("SB1001"));
  CHECK_FALSE(RuleId::valid_user_id("SB-1001"));
  CHECK_FALSE(RuleId::valid_user_id("x-lower"));
  auto a = RuleId::user("X-no-latest");
  auto b = RuleId::user("X-no-latest");
  REQUIRE(a);
  CHECK(*a == *b);
  CHECK(a->str() == "X-no-latest");
  CHECK(a->is_user());
  CHECK(rule::privileged_container < *a);  // ordered by text
  std::string text = rule_with("  each: workload\n  at: anchor.pod\n", "vars:\n  what: hit\n");
  text.replace(text.find("X-test"), 6, "ACME-test");
  auto refused = Catalog::parse_rule(text, "r.yaml", user());
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().message.find("PREFIX X (declared with `rule_prefix:`") !=
        std::string::npos);
  RuleSource acme = user();
  acme.prefixes.push_back("ACME");
  CHECK(Catalog::parse_rule(text, "r.yaml", acme).ok());
}

}  // namespace matcher_test
