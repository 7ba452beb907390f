#include <catch2/catch.hpp>

#include "invariants/modules.h"
#include "tests/inv_test_support.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace inv1_test {

using namespace sbr;
using namespace sbr::test;

namespace {
std::vector<Finding> iso(const Model& m) {
  return run(m, test::isolation);
}
std::vector<Finding> iso(const Workload& w) {
  return iso(model_of({w}));
}
}  // namespace

TEST_CASE("a hardened pod and a hardened launch pass invariant 1", "[inv1]") {
  CHECK(iso(hardened_pod()).empty());
  CHECK(iso(hardened_launch()).empty());
}

TEST_CASE("SB1001 privileged, at the field, privileged false passes", "[inv1]") {
  Workload w = hardened_pod();
  w.identity.privileged = fact(true, at_line(24));
  auto fs = with_rule(iso(w), "SB1001");
  REQUIRE(fs.size() == 1);
  CHECK(fs[0].at.line == 24);
  CHECK(fs[0].message.find("Deployment agents/runner, container agent runs privileged "
                           "(privileged: true)") == 0);
  // A container that overrides to false (the frontend keeps the effective value) passes.
  w.identity.privileged = fact(false, at_line(24));
  CHECK(with_rule(iso(w), "SB1001").empty());
}

TEST_CASE("SB1002-SB1004 host namespaces, launcher spelling", "[inv1]") {
  Workload w = hardened_launch();
  w.network.host_pid = fact(true, at_line(30));
  w.network.mode = fact(NetMode::Host, at_line(31));
  w.network.host_ipc = fact(true, at_line(32));
  w.network.host_uts = fact(true, at_line(33));
  auto fs = iso(w);
  CHECK(rules_of(fs) == std::vector<std::string>{"SB1002", "SB1003", "SB1004", "SB1004"});
  CHECK(with_rule(fs, "SB1003")[0].message.find("--network=host") != std::string::npos);
  w.network = Network{};
  w.network.host_pid = fact(false, at_line(30));
  CHECK(iso(w).empty());
}

TEST_CASE("pod-level facts are reported once for all containers", "[inv1]") {
  Workload a = hardened_pod("agent"), b = hardened_pod("helper");
  a.network.host_network = fact(true, at_line(15));
  b.network.host_network = fact(true, at_line(15));
  b.threat = ThreatClass::Trusted;
  auto fs = with_rule(iso(model_of({b, a})), "SB1003");
  REQUIRE(fs.size() == 1);
  CHECK(fs[0].message.find("Deployment agents/runner (containers helper, agent) shares") == 0);
  // The untrusted container's identity is kept, so a trusted sibling cannot hide it.
  CHECK(fs[0].threat == ThreatClass::UntrustedCode);
  CHECK(fs[0].subject == "Deployment/agents/runner/agent");
}

TEST_CASE("SB1005 runtime sockets, read-only or not, and directories holding them", "[inv1]") {
  for (const char* src : {"/var/run/docker.sock", "/run/containerd/containerd.sock", "/var/run",
                          "/run", "/run/user/1000/podman/podman.sock", "$XDG_RUNTIME_DIR", "/",
                          "/home/dev/.colima/default/docker.sock", "/run/crio/crio.sock",
                          "//var//run/./docker.sock/"}) {
    Workload w = hardened_pod();
    w.mounts.push_back(host_mount(src, "/sock", true));
    auto fs = iso(w);
    INFO(src);
    REQUIRE(rules_of(fs) == std::vector<std::string>{"SB1005"});
    CHECK(fs[0].at.line == 40);
    CHECK(fs[0].message.find("read-only") != std::string::npos);
  }
  Workload w = hardened_pod();
  w.mounts.push_back(host_mount("/run/xtables.lock", "/run/xtables.lock", false));
  CHECK(with_rule(iso(w), "SB1005").empty());
}

TEST_CASE("SB1006 RuntimeClass handler is authoritative", "[inv1]") {
  Workload w = hardened_pod();
  SECTION("class named gvisor with handler runc is runc") {
    w.runtime_handler = fact<std::string>("runc", at_line(70));
    auto fs = iso(w);
    REQUIRE(rules_of(fs) == std::vector<std::string>{"SB1006"});
    CHECK(fs[0].at.line == 11);
    CHECK(fs[0].message.find("runtimeClassName gvisor resolves to RuntimeClass handler runc") !=
          std::string::npos);
    REQUIRE(fs[0].related.size() == 1);
    CHECK(fs[0].related[0].at.line == 70);
  }
  SECTION("an unlinked RuntimeClass object in the input is used too") {
    Model m = model_of({w});
    RuntimeClassObject rc;
    rc.ref.name = "gvisor";
    rc.handler = "runc";
    rc.handler_from = at_line(71);
    m.cluster.runtime_classes.push_back(rc);
    auto fs = iso(m);
    REQUIRE(rules_of(fs) == std::vector<std::string>{"SB1006"});
    CHECK(fs[0].related.at(0).at.line == 71);
  }
  SECTION("class named fast with handler kata-qemu is hardened") {
    w.runtime_class = fact<std::string>("fast", at_line(11));
    w.runtime_handler = fact<std::string>("kata-qemu", at_line(70));
    CHECK(iso(w).empty());
  }
  SECTION("no class name, no cluster default: at the pod spec") {
    w.runtime_class.reset();
    auto fs = iso(w);
    REQUIRE(rules_of(fs) == std::vector<std::string>{"SB1006"});
    CHECK(fs[0].at.line == 10);
  }
  SECTION("declared cluster default decides, through its RuntimeClass when present") {
    w.runtime_class.reset();
    Model m = model_of({w});
    m.cluster_facts.default_runtime_class = "gvisor";
    CHECK(iso(m).empty());
    RuntimeClassObject rc;
    rc.ref.name = "gvisor";
    rc.handler = "runc";
    m.cluster.runtime_classes.push_back(rc);
    auto fs = iso(m);
    REQUIRE(rules_of(fs) == std::vector<std::string>{"SB1006"});
    CHECK(fs[0].message.find("cluster default runtime class gvisor (handler runc)") !=
          std::string::npos);
  }
  SECTION("untrusted-input's floor is a container") {
    w.runtime_class.reset();
    w.threat = ThreatClass::UntrustedInput;
    CHECK(iso(w).empty());
  }
}

TEST_CASE("SB1006 launcher runtimes", "[inv1]") {
  Workload w = hardened_launch();
  w.runtime_class = fact<std::string>("/usr/local/bin/runsc", at_line(6, Frontend::Bash));
  CHECK(iso(w).empty());
  w.runtime_class = fact<std::string>("crun", at_line(6, Frontend::Bash));
  REQUIRE(rules_of(iso(w)) == std::vector<std::string>{"SB1006"});
  w.runtime_class.reset();
  auto fs = iso(w);
  REQUIRE(rules_of(fs) == std::vector<std::string>{"SB1006"});
  CHECK(fs[0].at.line == 5);
}

TEST_CASE("SB1007 devices: /dev paths, --device, --gpus all", "[inv1]") {
  Workload w = hardened_launch();
  w.mounts.push_back(host_mount("/dev/kvm", "/dev/kvm", false));
  w.resources.devices.push_back(fact<std::string>("/dev/fuse", at_line(50)));
  w.resources.gpus.push_back(fact<std::string>("all", at_line(51)));
  w.resources.gpus.push_back(fact<std::string>("1", at_line(52)));
  auto fs = iso(w);
  CHECK(rules_of(fs) == std::vector<std::string>{"SB1007", "SB1007", "SB1007"});
  Workload ok = hardened_pod();
  ok.mounts.push_back(host_mount("/devices", "/d", true));
  CHECK(with_rule(iso(ok), "SB1007").empty());
}

TEST_CASE("SB1008 unmasked proc", "[inv1]") {
  Workload w = hardened_pod();
  w.identity.proc_mount = fact<std::string>("Unmasked", at_line(25));
  w.identity.unmasked_paths.push_back(fact<std::string>("ALL", at_line(26)));
  w.identity.systempaths_unconfined = fact(true, at_line(27));
  CHECK(rules_of(iso(w)) == std::vector<std::string>{"SB1008", "SB1008", "SB1008"});
  w.identity = hardened_pod().identity;
  w.identity.proc_mount = fact<std::string>("Default", at_line(25));
  CHECK(iso(w).empty());
}

TEST_CASE("SB1009 uid 0 without a user namespace", "[inv1]") {
  Workload w = hardened_pod();
  w.identity.run_as_user = fact<std::int64_t>(0, at_line(12));
  auto fs = with_rule(iso(w), "SB1009");
  REQUIRE(fs.size() == 1);
  CHECK(fs[0].at.line == 12);
  w.identity.host_users = fact(false, at_line(16));
  CHECK(with_rule(iso(w), "SB1009").empty());

  Workload p = hardened_launch();
  p.identity.run_as_user = fact<std::int64_t>(0, at_line(7));
  CHECK(with_rule(iso(p), "SB1009").empty());  // rootless podman: root maps to the user
  p.rootful = fact(true, at_line(5));
  CHECK(with_rule(iso(p), "SB1009").size() == 1);
  p.identity.userns = fact<std::string>("auto", at_line(8));
  CHECK(with_rule(iso(p), "SB1009").empty());
  // Unknown uid is SB2006's business, not a known host root.
  Workload u = hardened_pod();
  u.identity.run_as_user.reset();
  u.identity.run_as_non_root.reset();
  CHECK(with_rule(iso(u), "SB1009").empty());
}

TEST_CASE("SB1010 sidecars sharing namespaces", "[inv1]") {
  Workload w = hardened_pod();
  w.siblings.push_back(
      Sibling{"egress", "docker.io/envoyproxy/envoy:v1.29", true, false, at_line(60)});
  auto fs = iso(w);
  REQUIRE(rules_of(fs) == std::vector<std::string>{"SB1010"});
  CHECK(fs[0].at.line == 20);
  CHECK(fs[0].related.at(0).at.line == 60);
  CHECK(fs[0].message.find("network namespace with egress") != std::string::npos);

  Workload p = hardened_pod();
  p.share_process_namespace = fact(true, at_line(17));
  p.siblings.push_back(Sibling{"vault-agent", "hashicorp/vault:1.15", true, false, at_line(60)});
  fs = iso(p);
  REQUIRE(fs.size() == 1);
  CHECK(fs[0].message.find("network and process namespaces") != std::string::npos);

  Workload ok = hardened_pod();
  ok.siblings.push_back(Sibling{"log-shipper", "fluent/fluent-bit:3", true, false, at_line(60)});
  CHECK(iso(ok).empty());
  // The proxy container itself is not the agent.
  Workload proxy = hardened_pod("istio-proxy");
  proxy.siblings.push_back(
      Sibling{"cloud-sql-proxy", "gcr.io/x/cloud-sql-proxy", true, false, at_line(60)});
  CHECK(iso(proxy).empty());
}

TEST_CASE("SB1010 a share written on one side only (compose service:x) counts both ways",
          "[inv1]") {
  Workload agent = hardened_launch(), proxy = hardened_launch();
  agent.engine = proxy.engine = Engine::Compose;
  agent.id = {"compose", "", "", "compose.yaml", "agent", "compose.yaml"};
  proxy.id = {"compose", "", "", "compose.yaml", "egress", "compose.yaml"};
  proxy.image = "docker.io/ubuntu/squid:6.6";
  proxy.siblings.push_back(Sibling{"agent", "", true, false, at_line(30)});
  auto fs = with_rule(iso(model_of({agent, proxy})), "SB1010");
  REQUIRE(fs.size() == 1);
  CHECK(fs[0].subject == "compose//compose.yaml/agent");
  CHECK(fs[0].message.find("with egress (image docker.io/ubuntu/squid:6.6)") != std::string::npos);
  CHECK(fs[0].related.at(0).at.line == 30);
}

TEST_CASE("a pod-level finding is named after a main container, not an init container", "[inv1]") {
  Workload init = hardened_pod("fetch-repo"), agent = hardened_pod("agent");
  init.role = ContainerRole::Init;
  init.network.host_pid = fact(true, at_line(15));
  agent.network.host_pid = fact(true, at_line(15));
  auto fs = with_rule(iso(model_of({init, agent})), "SB1002");
  REQUIRE(fs.size() == 1);
  CHECK(fs[0].subject == "Deployment/agents/runner/agent");
  CHECK(fs[0].message.find("(containers fetch-repo, agent)") != std::string::npos);
}

TEST_CASE("baseline admission is named in the findings it would reject", "[inv1]") {
  Workload w = hardened_pod();
  w.identity.privileged = fact(true, at_line(24));
  w.pod_security = PodSecurityLabels{"baseline", "", "", at_line(3)};
  auto fs = with_rule(iso(w), "SB1001");
  REQUIRE(fs.size() == 1);
  CHECK(fs[0].message.find("(Pod Security Admission enforce=baseline on namespace agents would "
                           "reject this pod)") != std::string::npos);
  w.pod_security->enforce = "privileged";
  CHECK(with_rule(iso(w), "SB1001").at(0).message.find("Admission") == std::string::npos);
}

}  // namespace inv1_test
