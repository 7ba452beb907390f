#include <catch2/catch.hpp>

#include "invariants/modules.h"
#include "tests/inv_test_support.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace inv2_test {

using namespace sbr;
using namespace sbr::test;

namespace {
std::vector<Finding> priv(const Model& m) {
  return run(m, test::privilege);
}
std::vector<Finding> priv(const Workload& w) {
  return priv(model_of({w}));
}
using V = std::vector<std::string>;
}  // namespace

TEST_CASE("a hardened pod and a hardened launch pass invariant 2", "[inv2]") {
  CHECK(priv(hardened_pod()).empty());
  CHECK(priv(hardened_launch()).empty());
}

TEST_CASE("SB2001 / SB2002 capabilities not dropped, by user", "[inv2]") {
  Workload w = hardened_pod();
  w.identity.cap_drop = {fact(Capability::NetRaw, at_line(23))};
  auto fs = priv(w);
  REQUIRE(rules_of(fs) == V{"SB2001"});
  CHECK(fs[0].at.line == 23);  // at the drop list that lacks ALL, not at the container
  w.identity.cap_drop.clear();
  CHECK(with_rule(priv(w), "SB2001").at(0).at.line == 20);  // no list: the container
  w.identity.cap_drop = {fact(Capability::NetRaw, at_line(23))};
  CHECK(fs[0].related.at(0).message == "drops NET_RAW");
  w.identity.run_as_user = fact<std::int64_t>(0, at_line(12));
  CHECK(with_rule(priv(w), "SB2002").size() == 1);
  CHECK(with_rule(priv(w), "SB2001").empty());
  w.identity.run_as_user.reset();
  w.identity.run_as_non_root.reset();
  CHECK(with_rule(priv(w), "SB2002").size() == 1);  // unknown user counts as root
  // Privileged ignores the lists: SB1001 reports it, not a second finding here.
  w.identity.privileged = fact(true, at_line(24));
  CHECK(with_rule(priv(w), "SB2002").empty());
}

TEST_CASE("SB2001 message names the engine's default set", "[inv2]") {
  Workload d = hardened_launch();
  d.engine = Engine::Docker;
  d.identity.cap_drop.clear();
  auto fs = priv(d);
  REQUIRE(rules_of(fs) == V{"SB2001"});
  CHECK(fs[0].message.find("--cap-drop=ALL") != std::string::npos);
  CHECK(fs[0].message.find("keeps NET_RAW") != std::string::npos);
  d.engine = Engine::Podman;
  CHECK(priv(d)[0].message.find("keeps NET_RAW") == std::string::npos);
}

TEST_CASE("SB2003 / SB2004 added capabilities by runtime", "[inv2]") {
  Workload w = hardened_pod();
  w.runtime_class = fact<std::string>("runc", at_line(11));
  w.identity.cap_add = {fact(Capability::SysAdmin, at_line(30)),
                        fact(Capability::NetAdmin, at_line(31)),
                        fact(Capability::All, at_line(32))};
  auto fs = priv(w);
  CHECK(rules_of(fs) == V{"SB2003", "SB2003", "SB2004"});
  CHECK(with_rule(fs, "SB2004")[0].at.line == 31);
  SECTION("SYS_ADMIN under runsc is SB2004, not SB2003") {
    w.runtime_class = fact<std::string>("gvisor", at_line(11));
    fs = priv(w);
    CHECK(rules_of(fs) == V{"SB2004", "SB2004", "SB2004"});
    CHECK(fs[0].message.find("contained by gVisor") != std::string::npos);
  }
  SECTION("a class named gvisor with handler runc is runc") {
    w.runtime_class = fact<std::string>("gvisor", at_line(11));
    w.runtime_handler = fact<std::string>("runc", at_line(70));
    CHECK(rules_of(priv(w)) == V{"SB2003", "SB2003", "SB2004"});
  }
  SECTION("no runtime class at all is runc") {
    w.runtime_class.reset();
    CHECK(rules_of(priv(w)) == V{"SB2003", "SB2003", "SB2004"});
  }
}

TEST_CASE("SB2005 privilege escalation", "[inv2]") {
  Workload w = hardened_pod();
  w.identity.allow_privilege_escalation.reset();
  auto fs = priv(w);
  REQUIRE(rules_of(fs) == V{"SB2005"});
  CHECK(fs[0].at.line == 20);
  CHECK(fs[0].message.find("unset allows escalation") != std::string::npos);
  w.identity.allow_privilege_escalation = fact(true, at_line(21));
  fs = priv(w);
  REQUIRE(fs.size() == 1);
  CHECK(fs[0].at.line == 21);
}

TEST_CASE("SB2006 / SB2007 the user", "[inv2]") {
  Workload w = hardened_pod();
  SECTION("runAsNonRoot without runAsUser passes") {
    w.identity.run_as_user.reset();
    CHECK(priv(w).empty());
  }
  SECTION("runAsUser 0 at the field") {
    w.identity.run_as_user = fact<std::int64_t>(0, at_line(12));
    auto fs = with_rule(priv(w), "SB2006");
    REQUIRE(fs.size() == 1);
    CHECK(fs[0].at.line == 12);
  }
  SECTION("neither runAsUser nor runAsNonRoot: unknown, at the container") {
    w.identity.run_as_user.reset();
    w.identity.run_as_non_root.reset();
    auto fs = priv(w);
    REQUIRE(rules_of(fs) == V{"SB2006"});
    CHECK(fs[0].at.line == 20);
  }
  SECTION("a user name is unverifiable, low") {
    Workload l = hardened_launch();
    l.identity.run_as_user.reset();
    l.identity.user_name = fact<std::string>("agent", at_line(7));
    CHECK(rules_of(priv(l)) == V{"SB2007"});
    l.identity.user_name = fact<std::string>("root", at_line(7));
    CHECK(rules_of(priv(l)) == V{"SB2006"});
  }
  SECTION("podman --userns=keep-id without --user runs as the invoking user") {
    Workload l = hardened_launch();
    l.identity.run_as_user.reset();
    l.identity.userns = fact<std::string>("keep-id", at_line(7));
    CHECK(priv(l).empty());
  }
}

TEST_CASE("SB2008 writable root filesystem", "[inv2]") {
  Workload w = hardened_pod();
  w.identity.read_only_root = fact(false, at_line(22));
  auto fs = priv(w);
  REQUIRE(rules_of(fs) == V{"SB2008"});
  CHECK(fs[0].at.line == 22);
  w.identity.read_only_root.reset();
  CHECK(priv(w).at(0).at.line == 20);
}

TEST_CASE("SB2009 seccomp: written Unconfined, or unset under the kubelet", "[inv2]") {
  Workload w = hardened_pod();
  w.identity.seccomp = fact(Seccomp{SeccompKind::Unconfined, ""}, at_line(14));
  auto fs = priv(w);
  REQUIRE(rules_of(fs) == V{"SB2009"});
  CHECK(fs[0].message.find("seccompProfile type Unconfined is written") != std::string::npos);

  w.identity.seccomp.reset();
  fs = priv(w);
  REQUIRE(rules_of(fs) == V{"SB2009"});
  CHECK(fs[0].at.line == 10);
  CHECK(fs[0].message.find("seccompDefault is not declared") != std::string::npos);

  Model m = model_of({w});
  m.cluster_facts.seccomp_default = true;
  CHECK(priv(m).empty());
  // podman applies its default profile when nothing is written.
  Workload l = hardened_launch();
  CHECK(priv(l).empty());
  l.identity.seccomp = fact(Seccomp{SeccompKind::Unconfined, ""}, at_line(9));
  CHECK(priv(l).at(0).message.find("seccomp=unconfined") != std::string::npos);
}

TEST_CASE("SB2010 namespaces that audit or warn without enforcing", "[inv2]") {
  Model m = model_of({});
  NamespaceObject ns;
  ns.ref.name = "agents";
  ns.labels.audit = "restricted";
  ns.labels.warn = "restricted";
  ns.labels.from = at_line(6);
  m.cluster.namespaces.push_back(ns);
  auto fs = priv(m);
  REQUIRE(rules_of(fs) == V{"SB2010"});
  CHECK(fs[0].at.line == 6);
  CHECK(fs[0].message ==
        "Namespace agents sets Pod Security Admission audit=restricted, warn=restricted but no "
        "enforce label: audit and warn only record or print violations, admission still lets "
        "every pod in");
  m.cluster.namespaces[0].labels.enforce = "baseline";
  CHECK(priv(m).empty());
  m.cluster.namespaces[0].labels = {};
  CHECK(priv(m).empty());
}

TEST_CASE("admission enforce is named in the messages it would reject", "[inv2]") {
  Workload w = hardened_pod();
  w.identity.allow_privilege_escalation.reset();
  w.pod_security = PodSecurityLabels{"restricted", "", "", at_line(3)};
  CHECK(priv(w).at(0).message.find(
            "Pod Security Admission enforce=restricted on namespace agents would reject") !=
        std::string::npos);
  w.pod_security->enforce = "baseline";  // baseline allows escalation
  CHECK(priv(w).at(0).message.find("Pod Security Admission") == std::string::npos);
}

TEST_CASE("SB2011 LSM disabled", "[inv2]") {
  Workload w = hardened_pod();
  w.identity.apparmor = fact<std::string>("Unconfined", at_line(40));
  w.identity.selinux_type = fact<std::string>("spc_t", at_line(41));
  auto fs = priv(w);
  CHECK(rules_of(fs) == V{"SB2011", "SB2011"});
  Workload l = hardened_launch();
  l.identity.apparmor = fact<std::string>("unconfined", at_line(11));
  l.identity.selinux_disabled = fact(true, at_line(12));
  CHECK(rules_of(priv(l)) == V{"SB2011", "SB2011"});
  w.identity.apparmor = fact<std::string>("RuntimeDefault", at_line(40));
  w.identity.selinux_type = fact<std::string>("container_t", at_line(41));
  CHECK(priv(w).empty());
}

TEST_CASE("messages spell the setting the way the input writes it", "[inv2]") {
  Workload c = hardened_launch();
  c.engine = Engine::Compose;
  c.identity.read_only_root.reset();
  CHECK(priv(c).at(0).message.find("(no read_only: true)") != std::string::npos);
  Workload d = hardened_launch();
  d.engine = Engine::Devcontainer;
  d.identity.read_only_root.reset();
  CHECK(priv(d).at(0).message.find("(no --read-only)") != std::string::npos);
  Workload k = hardened_pod();
  k.identity.read_only_root.reset();
  CHECK(priv(k).at(0).message.find("(no readOnlyRootFilesystem: true)") != std::string::npos);
}

TEST_CASE("an unresolved engine is judged as docker, and the message says so", "[inv2]") {
  Workload d = hardened_launch();
  d.engine = Engine::Docker;
  d.engine_unresolved = true;
  d.identity.cap_drop.clear();
  CHECK(priv(d).at(0).message.find("the engine is unresolved and judged as docker") !=
        std::string::npos);
}

}  // namespace inv2_test
