// Invariant 7 (object lifecycle) on hand-built models.
#include <catch2/catch.hpp>

#include <algorithm>

#include "invariants/modules.h"
#include "tests/inv_test_support.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace inv7_test {

using namespace sbr;

namespace {

Provenance at(std::uint32_t line) {
  return Provenance{Location{0, line, 1}, Frontend::Kubernetes, {}};
}

Workload container(std::string kind, Controller c, std::string name = "agent") {
  Workload w;
  w.id = {kind, "", "", "runner", std::move(name), "x.yaml"};
  w.object_from = at(2);
  w.pod_spec_from = at(10);
  w.container_from = at(12);
  w.lifecycle.controller = c;
  return w;
}

std::vector<Finding> run(std::vector<Workload> ws, std::string_view rule) {
  Model m;
  m.files.add("x.yaml");
  m.workloads = std::move(ws);
  Findings f;
  test::lifecycle(m, f);
  std::vector<Finding> out;
  for (auto& x : f.items()) {
    if (x.rule_id == rule) out.push_back(x);
  }
  return out;
}

Mount volume(MountKind k, std::string target, std::uint32_t line) {
  Mount m;
  m.kind = k;
  m.volume_name = "home";
  m.source = "home-claim";
  m.target = std::move(target);
  m.mount_from = at(line);
  return m;
}

}  // namespace

TEST_CASE("long-lived controllers are reported once per object at the kind line", "[inv7]") {
  for (auto [kind, c] : {std::pair{"Deployment", Controller::Deployment},
                         {"StatefulSet", Controller::StatefulSet},
                         {"ReplicaSet", Controller::ReplicaSet},
                         {"DaemonSet", Controller::DaemonSet},
                         {"ReplicationController", Controller::ReplicationController}}) {
    auto f = run({container(kind, c), container(kind, c, "sidecar")}, "SB7001");
    INFO(kind);
    REQUIRE(f.size() == 1);
    CHECK(f[0].at.line == 2);
  }
  CHECK(run({container("Job", Controller::Job)}, "SB7001").empty());
  CHECK(run({container("Pod", Controller::Pod)}, "SB7001").empty());
  CHECK(run({container("Sandbox", Controller::Sandbox)}, "SB7001").empty());
}

TEST_CASE("Jobs and CronJobs need a TTL", "[inv7]") {
  Workload j = container("Job", Controller::Job);
  REQUIRE(run({j}, "SB7002").size() == 1);
  CHECK(run({container("CronJob", Controller::CronJob)}, "SB7002").size() == 1);
  j.lifecycle.ttl_after_finished = fact<std::int64_t>(0, at(5));  // 0 = delete at once: set
  CHECK(run({j}, "SB7002").empty());
  CHECK(run({container("Pod", Controller::Pod)}, "SB7002").empty());
}

TEST_CASE("a Sandbox without shutdownTime never expires, templates are not judged", "[inv7]") {
  Workload s = container("Sandbox", Controller::Sandbox);
  auto f = run({s}, "SB7003");
  REQUIRE(f.size() == 1);
  CHECK(f[0].fact_path == "spec.lifecycle.shutdownTime");
  s.lifecycle.shutdown_time = fact<std::string>("2026-07-01T00:00:00Z", at(7));
  CHECK(run({s}, "SB7003").empty());
  CHECK(run({container("SandboxTemplate", Controller::SandboxTemplate)}, "SB7003").empty());
}

TEST_CASE("persistent volumes at home-like paths, one finding per workload", "[inv7]") {
  Workload w = container("Pod", Controller::Pod);
  w.mounts.push_back(volume(MountKind::PersistentVolumeClaim, "/home/agent", 20));
  w.mounts.push_back(volume(MountKind::NamedVolume, "/root/.config", 22));
  w.mounts.push_back(volume(MountKind::EmptyDir, "/home/agent/.cache", 24));
  auto f = run({w}, "SB7004");
  REQUIRE(f.size() == 1);
  CHECK(f[0].at.line == 20);
  REQUIRE(f[0].related.size() == 1);
  CHECK(f[0].related[0].at.line == 22);
  CHECK(f[0].message ==
        "Pod runner, container agent mounts PersistentVolumeClaim `home-claim` at /home/agent: a "
        "home directory that outlives the run carries logins, tokens and planted dotfiles into "
        "later runs");

  // ~/.claude is a login directory: invariant 4 (SB4053), not this rule.
  for (std::string t : {"/root", "/work/.cache", "/srv/x/.config/gh", "/homes/x"}) {
    Workload v = container("Pod", Controller::Pod);
    v.mounts.push_back(volume(MountKind::HostPath, t, 20));
    INFO(t);
    CHECK(run({v}, "SB7004").size() == (t == "/homes/x" ? 0u : 1u));
  }
  Workload anon = container("launcher", Controller::Launcher);
  anon.mounts.push_back(volume(MountKind::NamedVolume, "/home/agent", 20));
  anon.mounts.back().source.clear();  // -v /home/agent: an anonymous volume
  CHECK(run({anon}, "SB7004").size() == 1);
  anon.lifecycle.remove_on_exit = fact(true, at(1));  // --rm removes it with the container
  CHECK(run({anon}, "SB7004").empty());

  Workload ws = container("Pod", Controller::Pod);
  ws.mounts.push_back(volume(MountKind::PersistentVolumeClaim, "/workspace", 20));
  CHECK(run({ws}, "SB7004").empty());
  EnvVar home;
  home.name = "HOME";
  home.value = "/workspace";
  ws.env.push_back(home);
  CHECK(run({ws}, "SB7004").size() == 1);  // HOME points into the persistent volume
}

TEST_CASE("object findings name a main container and respect mixed threat classes", "[inv7]") {
  Workload init = container("Deployment", Controller::Deployment, "fetch");
  init.role = ContainerRole::Init;
  Workload agent = container("Deployment", Controller::Deployment, "agent");
  auto f = run({init, agent}, "SB7001");
  REQUIRE(f.size() == 1);
  CHECK(f[0].subject == "Deployment//runner/agent");
  init.threat = ThreatClass::Trusted;
  CHECK(run({init, agent}, "SB7001").size() == 2);
}

TEST_CASE("a harness login directory on a lasting volume is SB4053, and read-only is neither",
          "[inv7]") {
  auto secrets = [](const Workload& w) {
    Model m;
    m.files.add("x.yaml");
    m.workloads = {w};
    Findings f;
    test::secrets(m, f);
    std::vector<Finding> out;
    for (auto& x : f.items())
      if (x.rule_id == "SB4053") out.push_back(x);
    return out;
  };
  Workload w = container("Pod", Controller::Pod);
  w.mounts.push_back(volume(MountKind::PersistentVolumeClaim, "/home/node/.claude", 20));
  auto f = secrets(w);
  REQUIRE(f.size() == 1);
  CHECK(f[0].at.line == 20);
  CHECK(f[0].message.find("(~/.claude)") != std::string::npos);
  CHECK(run({w}, "SB7004").empty());

  for (std::string t : {"/root/.config/gh", "~/.aws/credentials", "/home/a/.npmrc"}) {
    Workload v = container("Pod", Controller::Pod);
    v.mounts.push_back(volume(MountKind::NamedVolume, t, 20));
    INFO(t);
    CHECK(secrets(v).size() == 1);
  }
  Workload ro = container("Pod", Controller::Pod);
  ro.mounts.push_back(volume(MountKind::PersistentVolumeClaim, "/home/node/.claude", 20));
  ro.mounts.back().read_only = Fact<bool>{true, at(21)};
  ro.mounts.push_back(volume(MountKind::PersistentVolumeClaim, "/home/node", 22));
  ro.mounts.back().read_only = Fact<bool>{true, at(23)};
  CHECK(secrets(ro).empty());
  CHECK(run({ro}, "SB7004").empty());  // read-only keeps nothing the agent writes
  Workload scratch = container("Pod", Controller::Pod);
  scratch.mounts.push_back(volume(MountKind::EmptyDir, "/home/node/.claude", 20));
  CHECK(secrets(scratch).empty());
}

}  // namespace inv7_test
