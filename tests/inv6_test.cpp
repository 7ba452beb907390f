// Invariant 6 on hand-built models: what each rule needs to fire, where it points, and that
// pod-level rules report once per pod.
#include <catch2/catch.hpp>

#include <algorithm>

#include "analyzer/check/catalog.h"
#include "analyzer/check/runner.h"
#include "invariants/modules.h"
#include "tests/inv_test_support.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace inv6_test {

using namespace sbr;

namespace {

Provenance at(std::uint32_t line) {
  return Provenance{Location{0, line, 3}, Frontend::Kubernetes, {}};
}

Workload pod_container(std::string name, std::uint32_t container_line) {
  Workload w;
  w.id = {"Pod", "", "ns", "agent", std::move(name), "pod.yaml"};
  w.engine = Engine::Kubelet;
  w.object_from = at(2);
  w.pod_spec_from = at(5);
  w.container_from = at(container_line);
  w.lifecycle.controller = Controller::Pod;
  return w;
}

void limit_all(Workload& w) {
  w.resources.memory_limit = fact<std::string>("1Gi", at(20));
  w.resources.cpu_limit = fact<std::string>("1", at(21));
  w.resources.ephemeral_limit = fact<std::string>("1Gi", at(22));
  w.lifecycle.active_deadline = fact<std::int64_t>(600, at(6));
}

Model model_of(std::vector<Workload> ws) {
  Model m;
  m.files.add("pod.yaml");
  m.workloads = std::move(ws);
  m.cluster_facts.pod_pids_limit = 1024;
  return m;
}

std::vector<Finding> only(const std::vector<Finding>& all, std::string_view rule) {
  std::vector<Finding> out;
  std::copy_if(all.begin(), all.end(), std::back_inserter(out),
               [&](const Finding& f) { return f.rule_id == rule; });
  return out;
}

std::vector<Finding> run(const Model& m) {
  Findings f;
  test::resources(m, f);
  return f.items();
}

}  // namespace

TEST_CASE("a fully limited pod with a deadline reports nothing", "[inv6]") {
  Workload w = pod_container("agent", 8);
  limit_all(w);
  w.resources.qos = QosClass::Guaranteed;
  CHECK(run(model_of({w})).empty());
}

TEST_CASE("missing memory and cpu limits point at the container and carry the QoS class",
          "[inv6]") {
  Workload w = pod_container("agent", 8);
  limit_all(w);
  w.resources.memory_limit.reset();
  w.resources.cpu_limit.reset();
  w.resources.qos = QosClass::BestEffort;
  auto all = run(model_of({w}));
  auto mem = only(all, "SB6001");
  REQUIRE(mem.size() == 1);
  CHECK(mem[0].at.line == 8);
  CHECK(mem[0].message ==
        "Pod ns/agent, container agent has no memory limit (resources.limits.memory) (pod QoS "
        "class BestEffort): one process can take the node's memory and the kernel's OOM killer "
        "picks victims outside the sandbox");
  auto cpu = only(all, "SB6005");
  REQUIRE(cpu.size() == 1);
  CHECK(cpu[0].message.find("(pod QoS class BestEffort)") != std::string::npos);
  CHECK(all.size() == 2);
}

TEST_CASE("a LimitRange default counts as a limit", "[inv6]") {
  Workload w = pod_container("agent", 8);
  limit_all(w);
  w.resources.memory_limit =
      fact<std::string>("512Mi", Provenance{Location{1, 9, 7}, Frontend::Kubernetes, {}});
  w.resources.defaults_from_limit_range = true;
  CHECK(only(run(model_of({w})), "SB6001").empty());
}

TEST_CASE("ephemeral storage: a limit, or a read-only root with sized volumes", "[inv6]") {
  Workload w = pod_container("agent", 8);
  limit_all(w);
  w.resources.ephemeral_limit.reset();
  SECTION("writable root and no limit") {
    auto f = only(run(model_of({w})), "SB6006");
    REQUIRE(f.size() == 1);
    CHECK(f[0].at.line == 8);
    CHECK(f[0].message.find("writable root filesystem") != std::string::npos);
  }
  SECTION("read-only root, no volumes: nothing writable") {
    w.identity.read_only_root = fact(true, at(12));
    CHECK(only(run(model_of({w})), "SB6006").empty());
  }
  SECTION("read-only root, an emptyDir without sizeLimit") {
    w.identity.read_only_root = fact(true, at(12));
    Mount m;
    m.kind = MountKind::EmptyDir;
    m.target = "/tmp";
    m.mount_from = at(14);
    w.mounts.push_back(m);
    Mount sized = m;
    sized.target = "/cache";
    sized.size_limit = fact<std::string>("1Gi", at(30));
    w.mounts.push_back(sized);
    Mount ro = m;
    ro.target = "/ro";
    ro.read_only = fact(true, at(15));
    w.mounts.push_back(ro);
    auto f = only(run(model_of({w})), "SB6006");
    REQUIRE(f.size() == 1);
    REQUIRE(f[0].related.size() == 1);
    CHECK(f[0].related[0].at.line == 14);
    CHECK(f[0].message.find("1 writable volume without a size limit") != std::string::npos);
  }
  SECTION("read-only root, every emptyDir sized") {
    w.identity.read_only_root = fact(true, at(12));
    Mount m;
    m.kind = MountKind::EmptyDir;
    m.target = "/tmp";
    m.size_limit = fact<std::string>("100Mi", at(30));
    w.mounts.push_back(m);
    CHECK(only(run(model_of({w})), "SB6006").empty());
  }
}

TEST_CASE("pids note once per pod and only without a declared podPidsLimit", "[inv6]") {
  Workload a = pod_container("agent", 8);
  Workload b = pod_container("sidecar", 12);
  limit_all(a);
  limit_all(b);
  Model m = model_of({a, b});
  CHECK(only(run(m), "SB6004").empty());
  m.cluster_facts.pod_pids_limit.reset();
  auto f = only(run(m), "SB6004");
  REQUIRE(f.size() == 1);
  CHECK(f[0].at.line == 5);  // the pod spec
  // Launchers have their own pids rule (engine defaults differ).
  Workload l = a;
  l.engine = Engine::Podman;
  CHECK(only(run(model_of({l})), "SB6004").empty());
}

TEST_CASE("wall clock: deadline, podman timeout or a Sandbox shutdown time", "[inv6]") {
  Workload w = pod_container("agent", 8);
  limit_all(w);
  w.lifecycle.active_deadline.reset();
  Workload side = pod_container("sidecar", 12);
  limit_all(side);
  side.lifecycle.active_deadline.reset();
  auto f = only(run(model_of({w, side})), "SB6007");
  REQUIRE(f.size() == 1);
  CHECK(f[0].at.line == 5);
  CHECK(f[0].fact_path == "pod.activeDeadlineSeconds");

  w.lifecycle.controller = Controller::Sandbox;
  w.lifecycle.shutdown_time = fact<std::string>("2026-01-01T00:00:00Z", at(4));
  CHECK(only(run(model_of({w})), "SB6007").empty());

  Workload l = pod_container("launch 1", 0);
  limit_all(l);
  l.id.kind = "launcher";
  l.engine = Engine::Docker;
  l.lifecycle.controller = Controller::Launcher;
  l.lifecycle.active_deadline.reset();
  l.object_from = at(40);
  l.pod_spec_from = {};
  l.container_from = {};
  auto lf = only(run(model_of({l})), "SB6007");
  REQUIRE(lf.size() == 1);
  CHECK(lf[0].at.line == 40);
  CHECK(lf[0].message.find("docker has no --timeout") != std::string::npos);
  l.lifecycle.timeout = fact<std::int64_t>(3600, at(40));
  CHECK(only(run(model_of({l})), "SB6007").empty());
}

TEST_CASE("Burstable with every limit set is low, once per pod, otherwise it is context",
          "[inv6]") {
  Workload a = pod_container("agent", 8);
  Workload b = pod_container("sidecar", 12);
  limit_all(a);
  limit_all(b);
  a.resources.qos = b.resources.qos = QosClass::Burstable;
  a.resources.memory_request = fact<std::string>("256Mi", at(24));
  auto f = only(run(model_of({a, b})), "SB6008");
  REQUIRE(f.size() == 1);
  CHECK(f[0].at.line == 5);
  REQUIRE(f[0].related.size() == 1);
  CHECK(f[0].related[0].at.line == 24);

  b.resources.cpu_limit.reset();  // the missing limit is the cause: SB6005, not SB6008
  auto all = run(model_of({a, b}));
  CHECK(only(all, "SB6008").empty());
  REQUIRE(only(all, "SB6005").size() == 1);
  CHECK(only(all, "SB6005")[0].message.find("Burstable") != std::string::npos);
}

TEST_CASE("inv6 severities come from the catalog", "[inv6]") {
  Workload w = pod_container("agent", 8);
  w.resources.qos = QosClass::BestEffort;
  Model m = model_of({w});
  m.cluster_facts.pod_pids_limit.reset();
  auto all = run_checks(m, Catalog::embedded(), Config{}, RunOptions{"2026-01-01"});
  auto sev = [&](std::string_view id) {
    for (const auto& f : all) {
      if (f.rule_id == id) return std::string(severity_name(f.severity));
    }
    return std::string("absent");
  };
  CHECK(sev("SB6001") == "high");
  CHECK(sev("SB6004") == "note");
  CHECK(sev("SB6005") == "medium");
  CHECK(sev("SB6006") == "medium");
  CHECK(sev("SB6007") == "medium");
}

TEST_CASE("pod-level findings: once per threat class, through a main container", "[inv6]") {
  Workload init = pod_container("fetch", 6);
  init.role = ContainerRole::Init;
  Workload proxy = pod_container("proxy", 8);
  Workload agent = pod_container("agent", 12);
  for (Workload* w : {&init, &proxy, &agent}) {
    limit_all(*w);
    w->lifecycle.active_deadline.reset();
  }
  auto f = only(run(model_of({init, proxy, agent})), "SB6007");
  REQUIRE(f.size() == 1);
  CHECK(f[0].subject == "Pod/ns/agent/proxy");  // the first main container, not the init one

  // The proxy is declared trusted: the pod's finding must still reach the gate through the
  // agent, and not be dropped with the trusted container's findings.
  proxy.threat = ThreatClass::Trusted;
  f = only(run(model_of({init, proxy, agent})), "SB6007");
  REQUIRE(f.size() == 2);
  Model m = model_of({init, proxy, agent});
  auto all = run_checks(m, Catalog::embedded(), Config{}, RunOptions{"2026-01-01"});
  size_t reported = 0;
  for (const auto& x : all) reported += x.rule_id == "SB6007";
  CHECK(reported == 1);
}

}  // namespace inv6_test
