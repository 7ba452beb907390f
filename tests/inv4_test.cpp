// Invariant 4 semantics on hand-built models: environment pass-through, literal secrets, key
// material, token automount precedence, projected tokens, dangerous RBAC grants.
#include <catch2/catch.hpp>

#include <algorithm>

#include "analyzer/engine/secrets_inside.h"
#include "invariants/inv4_parts.h"
#include "invariants/modules.h"
#include "tests/inv_test_support.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace inv4_test {

using namespace sbr;

namespace {

Provenance at(std::uint32_t line) {
  return Provenance{Location{0, line, 1}};
}

Model pod_model() {
  Model m;
  m.files.add("pod.yaml");
  Workload w;
  w.id = {"Deployment", "apps", "agents", "runner", "agent", "pod.yaml"};
  w.object_from = at(2);
  w.pod_spec_from = at(10);
  w.container_from = at(12);
  w.service.account = "runner";
  w.service.pod_automount = fact(false, at(11));
  m.workloads.push_back(w);
  return m;
}

std::vector<std::pair<std::string, std::uint32_t>> run(const Model& m, Findings* keep = nullptr) {
  Findings f;
  test::secrets(m, f);
  std::vector<std::pair<std::string, std::uint32_t>> out;
  for (const auto& x : f.items()) out.emplace_back(x.rule_id, x.at.line);
  std::sort(out.begin(), out.end());
  if (keep) *keep = f;
  return out;
}

using Hits = std::vector<std::pair<std::string, std::uint32_t>>;

EnvVar literal(std::string name, std::string value, std::uint32_t line) {
  EnvVar e;
  e.name = std::move(name);
  e.value = std::move(value);
  e.from = at(line);
  return e;
}

RbacGrant grant(std::vector<std::string> verbs, std::vector<std::string> resources,
                std::vector<std::string> groups = {""}) {
  RbacGrant g;
  g.role = "Role/agents/runner";
  g.verbs = std::move(verbs);
  g.resources = std::move(resources);
  g.api_groups = std::move(groups);
  g.rule_from = at(40);
  g.binding_from = at(50);
  return g;
}

}  // namespace

TEST_CASE("a clean pod reports nothing of invariant 4", "[inv4]") {
  CHECK(run(pod_model()).empty());
}

TEST_CASE("environment pass-through: envFrom Secret, --env-host, host env dumps", "[inv4]") {
  Model m = pod_model();
  m.workloads[0].env_bulk.push_back({EnvBulkKind::SecretEnvFrom, "agent-creds", at(20)});
  m.workloads[0].env_bulk.push_back({EnvBulkKind::ConfigMapEnvFrom, "settings", at(21)});
  m.workloads[0].env_bulk.push_back({EnvBulkKind::HostEnvironment, "", at(22)});
  m.workloads[0].env_bulk.push_back({EnvBulkKind::EnvFile, "/proc/self/environ", at(23)});
  m.workloads[0].env_bulk.push_back({EnvBulkKind::EnvFile, "./agent.env", at(24)});
  CHECK(run(m) == Hits{{"SB4001", 20}, {"SB4001", 22}, {"SB4001", 23}});
}

TEST_CASE("literal values: secret names are high, key formats critical, no value printed",
          "[inv4]") {
  Model m = pod_model();
  auto& env = m.workloads[0].env;
  env.push_back(literal("DB_PASSWORD", "correct-horse-battery", 30));
  env.push_back(literal("GITHUB_TOKEN", "ghp_" + std::string(36, 'a'), 31));
  env.push_back(literal("LOG_LEVEL", "debug", 32));
  env.push_back(literal("API_TOKEN", "", 33));                         // empty: nothing committed
  env.push_back(literal("UPSTREAM_TOKEN", "$(TOKEN_FROM_FILE)", 34));  // a reference
  EnvVar ref = literal("OPENAI_API_KEY", "", 35);
  ref.source = EnvSource::SecretRef;
  env.push_back(ref);
  m.workloads[0].command.push_back(fact(std::string("--key=AKIAABCDEFGHIJKLMNOP"), at(36)));
  DataEntry d{"ConfigMap/agents/tools", "deploy_key", "-----BEGIN OPENSSH PRIVATE KEY-----\nabc\n",
              at(70)};
  m.cluster.data.push_back(d);
  Findings f;
  // The committed GitHub token is also a forge token handed to the sandbox (SB4200).
  CHECK(run(m, &f) ==
        Hits{{"SB4002", 30}, {"SB4003", 31}, {"SB4003", 36}, {"SB4003", 70}, {"SB4200", 31}});
  for (const auto& x : f.items()) {
    CHECK(x.message.find("correct-horse") == std::string::npos);
    CHECK(x.message.find("ghp_") == std::string::npos);
    CHECK(x.message.find("AKIA") == std::string::npos);
    CHECK(x.message.find("BEGIN") == std::string::npos);
  }
  // Declaring the name as intended does not make a committed literal acceptable.
  m.intended_secrets.push_back("DB_PASSWORD");
  CHECK(run(m).front() == std::make_pair(std::string("SB4002"), 30u));
}

TEST_CASE("a switch under a secret's name is no secret inside the workload", "[inv4]") {
  // compose-for-agents' sock-shop database: MYSQL_ALLOW_EMPTY_PASSWORD made SB5002 say a
  // secret was inside.
  Workload w = test::hardened_pod("catalogue-db");
  w.env.push_back({"MYSQL_ALLOW_EMPTY_PASSWORD", "true", EnvSource::Literal, "", false, {}, false});
  w.env.push_back({"RABBITMQ_SECURE_PASSWORD", "no", EnvSource::Literal, "", false, {}, false});
  w.service.pod_automount = fact(false, test::at_line(15));
  CHECK(engine::secrets_inside(w, {}).empty());
  w.env.push_back(
      {"MYSQL_ROOT_PASSWORD", "s3cr3t-root-pw", EnvSource::Literal, "", false, {}, false});
  auto inside = engine::secrets_inside(w, {});
  REQUIRE(inside.size() == 1);
  CHECK(inside[0].what == "environment variable MYSQL_ROOT_PASSWORD with a literal secret value");
}

TEST_CASE("token automount: the pod's setting overrides the ServiceAccount's", "[inv4]") {
  Model m = pod_model();
  auto& s = m.workloads[0].service;
  s.pod_automount.reset();
  CHECK(run(m) == Hits{{"SB4004", 10}});  // both unset: the default mounts it, at the pod spec

  s.account_automount = fact(false, at(80));
  s.account_in_input = true;
  s.account_from = at(78);
  CHECK(run(m).empty());  // the ServiceAccount opts out, the pod says nothing

  s.pod_automount = fact(true, at(11));
  Findings f;
  CHECK(run(m, &f) == Hits{{"SB4004", 11}});  // the pod's true wins, reported at its value
  REQUIRE(f.items()[0].related.size() == 1);
  CHECK(f.items()[0].related[0].at.line == 78);

  s.pod_automount = fact(false, at(11));
  s.account_automount = fact(true, at(80));
  CHECK(run(m).empty());  // the pod's false wins
}

TEST_CASE("SandboxTemplate pods get no token unless the template asks", "[inv4]") {
  Model m = pod_model();
  m.workloads[0].lifecycle.controller = Controller::SandboxTemplate;
  m.workloads[0].service.pod_automount.reset();
  CHECK(run(m).empty());
  m.workloads[0].lifecycle.controller = Controller::Sandbox;
  CHECK(run(m) == Hits{{"SB4004", 10}});
}

TEST_CASE("a projected token is mounted whatever automount says", "[inv4]") {
  Model m = pod_model();
  Mount mt;
  mt.kind = MountKind::Projected;
  mt.volume_name = "api-token";
  mt.target = "/var/run/secrets/tokens";
  mt.projects_sa_token = true;
  mt.mount_from = at(25);
  m.workloads[0].mounts.push_back(mt);
  CHECK(run(m) == Hits{{"SB4005", 25}});
  CHECK(engine::service_account_token_reaches(m.workloads[0]));
  m.workloads[0].mounts[0].target.clear();  // declared, not mounted in this container
  CHECK(run(m).empty());
}

TEST_CASE("dangerous RBAC grants only matter when a token reaches the pod", "[inv4]") {
  CHECK(inv::dangerous_grant(grant({"get", "list"}, {"secrets"})).find("Secrets") !=
        std::string::npos);
  CHECK_FALSE(inv::dangerous_grant(grant({"get", "list"}, {"configmaps"})).size());
  CHECK(inv::dangerous_grant(grant({"create"}, {"pods/exec"})).size());
  CHECK(inv::dangerous_grant(grant({"get"}, {"pods/*"})).size());
  CHECK(inv::dangerous_grant(grant({"create"}, {"pods"})).size());
  CHECK_FALSE(inv::dangerous_grant(grant({"get", "list", "watch"}, {"pods"})).size());
  CHECK(inv::dangerous_grant(grant({"get"}, {"nodes/proxy"})).size());
  CHECK(inv::dangerous_grant(grant({"*"}, {"configmaps"})).size());
  CHECK(inv::dangerous_grant(grant({"get"}, {"*"}, {"apps"})).size());
  CHECK(inv::dangerous_grant(grant({"impersonate"}, {"serviceaccounts"})).size());
  CHECK(inv::dangerous_grant(grant({"bind", "escalate"}, {"roles"}, {"rbac.authorization.k8s.io"}))
            .size());
  // "pods" of the metrics API group are not core pods.
  CHECK_FALSE(inv::dangerous_grant(grant({"create"}, {"pods"}, {"metrics.k8s.io"})).size());

  Model m = pod_model();
  m.workloads[0].service.grants.push_back(grant({"get"}, {"secrets"}));
  CHECK(run(m).empty());  // no token inside: the grant is not reachable from the sandbox
  m.workloads[0].service.pod_automount.reset();
  Findings f;
  CHECK(run(m, &f) == Hits{{"SB4004", 10}, {"SB4006", 40}});
  auto it = std::find_if(f.items().begin(), f.items().end(),
                         [](const Finding& x) { return x.rule_id == "SB4006"; });
  REQUIRE(it->related.size() == 1);
  CHECK(it->related[0].at.line == 50);
}

TEST_CASE("a grant limited by resourceNames to named Secrets does not read every Secret",
          "[inv4]") {
  RbacGrant named = grant({"get", "list", "watch"}, {"secrets"});
  named.resource_names = {"agent-api-key"};
  CHECK(inv::dangerous_grant(named).empty());
  // resourceNames cannot limit create: a named pods rule still starts pods of its choosing.
  RbacGrant pods = grant({"create"}, {"pods"});
  pods.resource_names = {"runner"};
  CHECK_FALSE(inv::dangerous_grant(pods).empty());
}

}  // namespace inv4_test
