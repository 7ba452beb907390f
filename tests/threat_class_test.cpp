// The threat-class inference on hand-built models: each test gives one kind of evidence and
// checks the class, the reason and the recorded inputs; then the precedence between them.
#include <catch2/catch.hpp>

#include "analyzer/config/config.h"
#include "analyzer/engine/boundary.h"
#include "analyzer/engine/threat_class.h"
#include "analyzer/pipeline/analysis.h"
#include "tests/inv_test_support.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace threat_class_test {

using namespace sbr;
using sbr::test::at_line;
using sbr::test::hardened_pod;

namespace {

Model one(Workload w) {
  Model m;
  m.files.add("deploy.yaml");
  m.files.add("config/rbac/role.yaml");
  m.workloads.push_back(std::move(w));
  return m;
}

RbacGrant create_pods(std::string subject_kind = "ServiceAccount") {
  RbacGrant g;
  g.role = "ClusterRole/manager-role";
  g.verbs = {"create", "get"};
  g.resources = {"pods"};
  g.api_groups = {""};
  g.subject_kind = std::move(subject_kind);
  g.rule_from = Provenance{Location{1, 12, 3}, Frontend::Kubernetes, {}};
  return g;
}

bool has_signal(const Workload& w, ThreatSignal s) {
  return std::any_of(w.threat_evidence.begin(), w.threat_evidence.end(),
                     [&](const ThreatEvidence& e) { return e.signal == s; });
}

}  // namespace

TEST_CASE("a workload without evidence is untrusted-code, and says so", "[threat]") {
  Model m = one(hardened_pod());
  engine::infer_threat_classes(m);
  CHECK(m.workloads[0].threat == ThreatClass::UntrustedCode);
  CHECK(m.workloads[0].threat_reason.find("no evidence") != std::string::npos);
  CHECK(m.workloads[0].threat_evidence.empty());
}

TEST_CASE("a ServiceAccount that may create pods makes a controller untrusted-input", "[threat]") {
  Workload w = hardened_pod("manager");
  w.service.account = "controller-manager";
  w.service.grants.push_back(create_pods());
  Model m = one(w);
  engine::infer_threat_classes(m);
  const Workload& r = m.workloads[0];
  CHECK(r.threat == ThreatClass::UntrustedInput);
  CHECK(r.threat_source == ThreatSource::Inferred);
  CHECK(r.threat_reason ==
        "its ServiceAccount controller-manager may create pods (ClusterRole manager-role, "
        "config/rbac/role.yaml:12)");
  // The input of the inference is recorded with its provenance, for a later diff.
  REQUIRE(r.threat_evidence.size() == 1);
  CHECK(r.threat_evidence[0].signal == ThreatSignal::RbacPods);
  CHECK(r.threat_evidence[0].from.at.line == 12);
  CHECK(r.threat_evidence[0].from.at.file == 1);
}

TEST_CASE("a ServiceAccount that writes other cluster state makes a setup Job untrusted-input",
          "[threat]") {
  Workload w = hardened_pod("api-oauth-secret-creator");
  w.service.account = "oauth-secret-writer";
  RbacGrant g = create_pods();
  g.role = "Role//oauth-secret-writer";  // a chart's Role with its namespace left to the release
  g.resources = {"secrets"};
  g.verbs = {"get", "create", "patch"};
  w.service.grants.push_back(g);
  Model m = one(w);
  engine::infer_threat_classes(m);
  const Workload& r = m.workloads[0];
  CHECK(r.threat == ThreatClass::UntrustedInput);
  CHECK(has_signal(r, ThreatSignal::RbacWrites));
  CHECK(r.threat_reason ==
        "its ServiceAccount oauth-secret-writer may create secrets (Role oauth-secret-writer, "
        "config/rbac/role.yaml:12): it changes the cluster's state, as a controller or a setup "
        "Job does");
}

TEST_CASE("reading, recording events and asking the API server are no platform evidence",
          "[threat]") {
  Workload w = hardened_pod("agent");
  for (auto [verbs, resources] : {std::pair<std::vector<std::string>, std::vector<std::string>>{
                                      {"get", "list", "watch"}, {"secrets", "configmaps"}},
                                  {{"create", "patch"}, {"events"}},
                                  {{"create"}, {"selfsubjectaccessreviews", "tokenreviews"}}}) {
    RbacGrant g = create_pods();
    g.verbs = verbs;
    g.resources = resources;
    w.service.grants.push_back(g);
  }
  Model m = one(w);
  engine::infer_threat_classes(m);
  CHECK(m.workloads[0].threat == ThreatClass::UntrustedCode);
  CHECK(m.workloads[0].threat_evidence.empty());
}

TEST_CASE("a pod-creating grant is told as such, not again as a state write", "[threat]") {
  Workload w = hardened_pod("manager");
  w.service.account = "controller-manager";
  w.service.grants.push_back(create_pods());
  RbacGrant leases = create_pods();
  leases.resources = {"leases"};
  leases.verbs = {"create", "update"};
  w.service.grants.push_back(leases);
  Model m = one(w);
  engine::infer_threat_classes(m);
  CHECK(has_signal(m.workloads[0], ThreatSignal::RbacPods));
  CHECK_FALSE(has_signal(m.workloads[0], ThreatSignal::RbacWrites));
}

TEST_CASE("a grant to the namespace's default account is no evidence", "[threat]") {
  Workload w = hardened_pod("run");
  w.service.account = "default";
  w.service.grants.push_back(create_pods());
  Model m = one(w);
  engine::infer_threat_classes(m);
  CHECK(m.workloads[0].threat == ThreatClass::UntrustedCode);
  CHECK(m.workloads[0].threat_evidence.empty());
}

TEST_CASE("a workload named as the platform beside the controller that starts the sandboxes",
          "[threat]") {
  // kweaver-ai/sandbox's manifests: the control plane may create pods; the web console beside
  // it in the same namespace and tree has no evidence of its own.
  Workload controller = hardened_pod("control-plane");
  controller.id.name = "sandbox-control-plane";
  controller.service.account = "sandbox-control-plane";
  controller.service.grants.push_back(create_pods());
  Workload web = hardened_pod("web");
  web.id.name = "sandbox-web";
  Workload worker = hardened_pod("worker");  // no platform word: stays a sandbox
  worker.id.name = "task-worker";
  Workload elsewhere = hardened_pod("web");  // another namespace: another stack
  elsewhere.id.name = "admin-ui";
  elsewhere.id.ns = "tools";
  Model m = one(controller);
  for (Workload* w : {&web, &worker, &elsewhere}) m.workloads.push_back(*w);
  engine::infer_threat_classes(m);
  CHECK(m.workloads[1].threat == ThreatClass::UntrustedInput);
  CHECK(has_signal(m.workloads[1], ThreatSignal::PlatformName));
  CHECK(m.workloads[1].threat_reason ==
        "its name sandbox-web says it is the platform (web), and Deployment "
        "sandbox-control-plane starts this stack's sandboxes: they are the containers it starts");
  CHECK(m.workloads[2].threat == ThreatClass::UntrustedCode);
  CHECK(m.workloads[3].threat == ThreatClass::UntrustedCode);
}

TEST_CASE("a grant to a group of every account is no evidence", "[threat]") {
  Workload w = hardened_pod();
  w.service.grants.push_back(create_pods("Group"));
  Model m = one(w);
  engine::infer_threat_classes(m);
  CHECK(m.workloads[0].threat == ThreatClass::UntrustedCode);
}

TEST_CASE("a controller that runs an agent harness stays untrusted-code", "[threat]") {
  Workload w = hardened_pod("manager");
  w.service.account = "controller-manager";
  w.service.grants.push_back(create_pods());
  w.command.push_back(fact<std::string>("sh", at_line(30)));
  w.command.push_back(fact<std::string>("-c", at_line(30)));
  w.command.push_back(
      fact<std::string>("npx -y @anthropic-ai/claude-code@latest -p \"$TASK\"", at_line(31)));
  Model m = one(w);
  engine::infer_threat_classes(m);
  const Workload& r = m.workloads[0];
  CHECK(r.threat == ThreatClass::UntrustedCode);
  CHECK(has_signal(r, ThreatSignal::Harness));
  CHECK(has_signal(r, ThreatSignal::RbacPods));  // still recorded, outweighed
  CHECK(r.threat_reason.find("outweighs") != std::string::npos);
}

TEST_CASE("a permission-skipping flag alone is untrusted-code evidence", "[threat]") {
  Workload w = hardened_pod();
  w.command.push_back(fact<std::string>("/usr/local/bin/agent", at_line(30)));
  w.command.push_back(fact<std::string>("--yolo", at_line(31)));
  Model m = one(w);
  engine::infer_threat_classes(m);
  CHECK(has_signal(m.workloads[0], ThreatSignal::PermissionFlag));
  CHECK_FALSE(has_signal(m.workloads[0], ThreatSignal::Harness));
}

TEST_CASE("a launch that another joins by container:NAME is its gate", "[threat]") {
  Workload gate = test::hardened_launch();
  gate.id.container = "egress";
  Workload agent = test::hardened_launch();
  agent.id.container = "agent";
  agent.network.mode = fact(NetMode::Container, at_line(14, Frontend::Bash));
  agent.network.mode_arg = "egress";
  Model m = one(gate);
  m.workloads.push_back(agent);
  engine::infer_threat_classes(m);
  CHECK(m.workloads[0].threat == ThreatClass::UntrustedInput);
  CHECK(has_signal(m.workloads[0], ThreatSignal::NetworkJoined));
  CHECK(has_signal(m.workloads[0], ThreatSignal::Launcher));
  CHECK(m.workloads[1].threat == ThreatClass::UntrustedCode);
}

TEST_CASE("a proxy named in HTTPS_PROXY through its Service is untrusted-input", "[threat]") {
  Workload proxy = hardened_pod("squid");
  proxy.pod_labels = {{"app", "egress-proxy"}};
  Workload agent = hardened_pod("agent");
  agent.id.name = "agent";  // its own pod: a pod has one class (threat_stack.cpp)
  EnvVar e;
  e.name = "HTTPS_PROXY";
  e.value = "http://egress-proxy.agents.svc.cluster.local:3128";
  e.from = at_line(40);
  agent.env.push_back(e);
  Model m = one(proxy);
  m.workloads.push_back(agent);
  ServiceObject s;
  s.ref = {"Service", "agents", "egress-proxy", at_line(60)};
  s.selector = {{"app", "egress-proxy"}};
  m.cluster.services.push_back(s);
  engine::infer_threat_classes(m);
  CHECK(m.workloads[0].threat == ThreatClass::UntrustedInput);
  CHECK(m.workloads[0].threat_reason.find("egress-proxy.agents.svc.cluster.local") !=
        std::string::npos);
  CHECK(m.workloads[1].threat == ThreatClass::UntrustedCode);
}

TEST_CASE("the configuration wins over inference, and the evidence stays recorded", "[threat]") {
  Workload w = hardened_pod("manager");
  w.service.account = "controller-manager";
  w.service.grants.push_back(create_pods());
  Model m = one(w);
  engine::infer_threat_classes(m);
  Config c;
  ThreatClassEntry e;
  e.match.kind = "Deployment";
  e.threat = ThreatClass::UntrustedCode;
  e.reason = "the manager also runs user plugins";
  c.threat_classes.push_back(e);
  apply_threat_classes(m, c);
  CHECK(m.workloads[0].threat == ThreatClass::UntrustedCode);
  CHECK(m.workloads[0].threat_source == ThreatSource::Config);
  CHECK(m.workloads[0].threat_reason.find("user plugins") != std::string::npos);
  CHECK(has_signal(m.workloads[0], ThreatSignal::RbacPods));
}

TEST_CASE("the boundary table compares each workload with its class's floor", "[threat]") {
  Workload code = hardened_pod("agent");
  Workload input = hardened_pod("manager");
  input.container_from = at_line(40);
  input.runtime_class.reset();
  input.threat = ThreatClass::UntrustedInput;
  Model m = one(code);
  m.workloads.push_back(input);
  auto rows = engine::boundary_rows(m);
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].subject == "Deployment/agents/runner/agent");
  CHECK(rows[0].meets);
  CHECK(rows[1].meets);  // runc, but seccomp, no-new-privileges and uid 1000 meet its floor
  m.workloads[0].runtime_class.reset();
  m.workloads[1].identity.seccomp = fact(Seccomp{SeccompKind::Unconfined, ""}, at_line(14));
  rows = engine::boundary_rows(m);
  CHECK_FALSE(rows[0].meets);
  CHECK(rows[0].shortfall == "runs under runc");
  CHECK_FALSE(rows[1].meets);
  CHECK(rows[1].shortfall == "no seccomp");
}

TEST_CASE("an agent pod given `create pods` stays untrusted-code, sidecars included", "[threat]") {
  Workload agent = hardened_pod("agent");
  agent.service.account = "agent-runner";
  agent.service.grants.push_back(create_pods());
  Mount skills;
  skills.kind = MountKind::HostPath;
  skills.target = "/home/agent/.claude/";
  skills.mount_from = at_line(38);
  agent.mounts.push_back(skills);
  Workload proxy = hardened_pod("egress-proxy");
  proxy.service.account = "agent-runner";
  proxy.service.grants.push_back(create_pods());
  Model m = one(agent);
  m.workloads.push_back(proxy);
  engine::infer_threat_classes(m);
  CHECK(m.workloads[0].threat == ThreatClass::UntrustedCode);
  CHECK(has_signal(m.workloads[0], ThreatSignal::Harness));
  CHECK(m.workloads[1].threat == ThreatClass::UntrustedCode);
  CHECK(has_signal(m.workloads[1], ThreatSignal::PodRunsCode));
  CHECK(has_signal(m.workloads[1], ThreatSignal::RbacPods));
}

}  // namespace threat_class_test
