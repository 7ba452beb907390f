// Invariant 5 semantics on hand-built models: the union of policies, implied policy types,
// DNS-only rules, except blocks, IPv6 ranges, hostNetwork, ingress exposure.
#include <catch2/catch.hpp>

#include <algorithm>

#include "analyzer/engine/cidr.h"
#include "analyzer/engine/egress.h"
#include "analyzer/frontends/k8s/k8s_frontend.h"
#include "invariants/modules.h"
#include "tests/inv_test_support.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace inv5_test {

using namespace sbr;

namespace {

Provenance at(std::uint32_t line) {
  return Provenance{Location{0, line, 1}};
}

Model pod_model() {
  Model m;
  m.files.add("pod.yaml");
  Workload w;
  w.id = {"Pod", "", "agents", "runner", "agent", "pod.yaml"};
  w.object_from = at(2);
  w.pod_spec_from = at(5);
  w.container_from = at(7);
  w.service.account = "default";
  w.service.pod_automount = fact(false, at(6));
  m.workloads.push_back(w);
  return m;
}

EgressGate policy(std::string name, std::uint32_t line) {
  EgressGate g;
  g.kind = GateKind::NetworkPolicy;
  g.name = std::move(name);
  g.denies_v4 = g.denies_v6 = true;
  g.from = at(line);
  return g;
}

EgressAllow allow(DestKind d, std::string value, std::uint32_t line,
                  std::vector<PortRange> ports = {}, std::vector<std::string> except = {}) {
  EgressAllow a;
  a.dest = d;
  a.value = std::move(value);
  a.ports = std::move(ports);
  a.except = std::move(except);
  a.from = at(line);
  return a;
}

std::vector<std::pair<std::string, std::uint32_t>> run(const Model& m) {
  Findings f;
  test::network(m, f);
  std::vector<std::pair<std::string, std::uint32_t>> out;
  for (const auto& x : f.items()) out.emplace_back(x.rule_id, x.at.line);
  std::sort(out.begin(), out.end());
  return out;
}

bool fired(const Model& m, const std::string& rule) {
  auto r = run(m);
  return std::any_of(r.begin(), r.end(), [&](const auto& p) { return p.first == rule; });
}

const PortRange kDnsUdp{"UDP", 53, 53};
const PortRange kDnsTcp{"TCP", 53, 0};

}  // namespace

TEST_CASE("cidr parsing and containment, both families", "[inv5]") {
  auto a = engine::parse_cidr("10.1.2.3/8");
  REQUIRE(a);
  CHECK(a->str() == "10.0.0.0/8");  // host bits cleared
  CHECK(engine::parse_cidr("169.254.169.254")->single_host());
  CHECK_FALSE(engine::parse_cidr("10.0.0.0/33"));
  CHECK_FALSE(engine::parse_cidr("10.0.0/8"));
  CHECK_FALSE(engine::parse_cidr("fd00::/129"));
  CHECK_FALSE(engine::parse_cidr("10.0.0.0/"));
  CHECK(
      engine::cidr_contains(*engine::parse_cidr("fc00::/7"), *engine::parse_cidr("fd00:ec2::254")));
  CHECK_FALSE(engine::cidr_contains(*engine::parse_cidr("::/0"), *engine::parse_cidr("10.0.0.1")));
  CHECK(engine::cidr_overlaps(*engine::parse_cidr("10.0.0.0/8"), *engine::parse_cidr("0.0.0.0/0")));
  // Two halves cover the whole; one half does not.
  std::vector<engine::Cidr> halves = {*engine::parse_cidr("10.0.0.0/9"),
                                      *engine::parse_cidr("10.128.0.0/9")};
  CHECK(engine::cidr_covered_by(*engine::parse_cidr("10.0.0.0/8"), halves));
  halves.pop_back();
  CHECK_FALSE(engine::cidr_covered_by(*engine::parse_cidr("10.0.0.0/8"), halves));
}

TEST_CASE("sensitive ranges reached by an allowed CIDR", "[inv5]") {
  auto names = [](const std::string& cidr, const std::vector<std::string>& except) {
    std::vector<std::string> out;
    for (const auto& r : engine::sensitive_reached(*engine::parse_cidr(cidr), except)) {
      out.push_back(r.cidr);
    }
    return out;
  };
  std::vector<std::string> all_v4 = {"169.254.169.254/32", "100.100.100.200/32", "10.0.0.0/8",
                                     "172.16.0.0/12",      "192.168.0.0/16",     "100.64.0.0/10",
                                     "127.0.0.0/8"};
  CHECK(names("0.0.0.0/0", {}) == all_v4);
  // The agent-sandbox managed policy shape: internet, minus private space and metadata.
  CHECK(names("0.0.0.0/0", {"10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10",
                            "127.0.0.0/8", "169.254.0.0/16", "100.100.100.200/32"})
            .empty());
  CHECK(names("0.0.0.0/0", {"10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10",
                            "127.0.0.0/8", "100.100.100.200/32"}) ==
        std::vector<std::string>{"169.254.169.254/32"});
  CHECK(names("10.0.0.53/32", {}).empty());  // a host route to the resolver is fine
  CHECK(names("169.254.169.254/32", {}) == std::vector<std::string>{"169.254.169.254/32"});
  CHECK(names("10.20.0.0/16", {}) == std::vector<std::string>{"10.0.0.0/8"});
  CHECK(names("10.20.0.0/16", {"10.20.0.0/17", "10.20.128.0/17"}).empty());
  CHECK(names("203.0.113.0/24", {}).empty());
  CHECK(names("::/0", {}) ==
        std::vector<std::string>{"fd00:ec2::254/128", "fe80::/10", "fc00::/7"});
  CHECK(names("::/0", {"fc00::/7", "fe80::/10"}).empty());
  CHECK(names("fd00:ec2::/64", {}) == std::vector<std::string>{"fd00:ec2::254/128", "fc00::/7"});
  CHECK(names("2001:db8::/32", {}).empty());
}

TEST_CASE("no policy selecting the pod: egress open, reported at the pod spec", "[inv5]") {
  Model m = pod_model();
  auto r = run(m);
  CHECK(std::count(r.begin(), r.end(), std::make_pair(std::string("SB5001"), 5u)) == 1);
  CHECK_FALSE(fired(m, "SB5002"));
}

TEST_CASE("a default-deny policy allowing DNS to kube-dns and one /32 passes", "[inv5]") {
  Model m = pod_model();
  EgressGate g = policy("agent-egress", 30);
  g.allows.push_back(allow(DestKind::NamespaceSelector, "kube-system", 35, {kDnsUdp, kDnsTcp}));
  g.allows.push_back(allow(DestKind::Cidr, "10.96.0.40/32", 40, {{"TCP", 3128, 0}}));
  m.workloads[0].network.egress.push_back(g);
  for (const char* rule : {"SB5001", "SB5002", "SB5003", "SB5004", "SB5005", "SB5006"}) {
    INFO(rule);
    CHECK_FALSE(fired(m, rule));
  }
}

TEST_CASE("policies add up: one egress: [{}] opens what another denies", "[inv5]") {
  Model m = pod_model();
  EgressGate deny = policy("default-deny", 30);
  EgressGate open = policy("allow-all", 50);
  open.allows.push_back(allow(DestKind::Any, "", 55));
  m.workloads[0].network.egress = {deny, open};
  auto r = run(m);
  CHECK_FALSE(fired(m, "SB5001"));
  CHECK(std::count(r.begin(), r.end(), std::make_pair(std::string("SB5003"), 55u)) == 1);
  // Every destination includes metadata and private space.
  CHECK(std::count(r.begin(), r.end(), std::make_pair(std::string("SB5005"), 55u)) == 1);
}

TEST_CASE("a ports-only rule on 53 is DNS to anywhere, not open egress", "[inv5]") {
  Model m = pod_model();
  EgressGate g = policy("dns", 30);
  g.allows.push_back(allow(DestKind::Any, "", 33, {kDnsUdp, kDnsTcp}));
  m.workloads[0].network.egress.push_back(g);
  auto r = run(m);
  CHECK(std::count(r.begin(), r.end(), std::make_pair(std::string("SB5006"), 33u)) == 1);
  CHECK_FALSE(fired(m, "SB5003"));
  CHECK_FALSE(fired(m, "SB5005"));
  // A named port kept as 0 means any port: no longer DNS-only.
  m.workloads[0].network.egress[0].allows[0].ports.push_back({"TCP", 0, 0});
  CHECK(fired(m, "SB5003"));
  CHECK_FALSE(fired(m, "SB5006"));
}

TEST_CASE("0.0.0.0/0 excepting private space and metadata is still open internet", "[inv5]") {
  Model m = pod_model();
  EgressGate g = policy("internet", 30);
  g.kind = GateKind::SandboxManagedPolicy;
  g.allows.push_back(allow(DestKind::Cidr, "0.0.0.0/0", 34, {},
                           {"10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10",
                            "127.0.0.0/8", "169.254.169.254/32", "100.100.100.200/32"}));
  m.workloads[0].network.egress.push_back(g);
  CHECK(fired(m, "SB5003"));
  CHECK_FALSE(fired(m, "SB5005"));
  // Without the metadata except, the same rule also reaches metadata.
  m.workloads[0].network.egress[0].allows[0].except.pop_back();
  m.workloads[0].network.egress[0].allows[0].except.pop_back();
  CHECK(fired(m, "SB5005"));
}

TEST_CASE("IPv6 allows: ::/0 is any destination, fd00::/8 reaches metadata", "[inv5]") {
  Model m = pod_model();
  EgressGate g = policy("v6", 30);
  g.allows.push_back(allow(DestKind::Cidr, "fd00::/8", 31, {{"TCP", 443, 0}}));
  m.workloads[0].network.egress.push_back(g);
  auto r = run(m);
  CHECK(std::count(r.begin(), r.end(), std::make_pair(std::string("SB5005"), 31u)) == 1);
  CHECK_FALSE(fired(m, "SB5003"));
  m.workloads[0].network.egress[0].allows[0].value = "::/0";
  CHECK(fired(m, "SB5003"));
}

// One fact, one finding: the v6 gap of a ruleset that denies IPv4 alone is SB5072's, at the
// ruleset; SB5001 used to report it a second time for the workload.
TEST_CASE("a gate that leaves IPv6 open is SB5072's finding, not SB5001's", "[inv5]") {
  Model m = pod_model();
  m.workloads[0].engine = Engine::Podman;
  EgressGate g;
  g.kind = GateKind::Nft;
  g.name = "egress.nft";
  g.denies_v4 = true;
  g.from = at(12);
  m.workloads[0].network.egress.push_back(g);
  ScriptFacts s;
  s.file = g.from.at.file;
  s.gates.push_back(g);
  m.scripts.push_back(s);
  Findings f;
  test::network(m, f);
  CHECK(std::none_of(f.items().begin(), f.items().end(),
                     [](const Finding& x) { return x.rule_id == "SB5001"; }));
  auto it = std::find_if(f.items().begin(), f.items().end(),
                         [](const Finding& x) { return x.rule_id == "SB5072"; });
  REQUIRE(it != f.items().end());
  CHECK(it->at.line == 12);
  // Nothing denying either family is still SB5001.
  m.workloads[0].network.egress[0].denies_v4 = false;
  CHECK(fired(m, "SB5001"));
}

TEST_CASE("a --network none workload denies everything whatever else is allowed", "[inv5]") {
  Model m = pod_model();
  m.workloads[0].engine = Engine::Podman;
  m.workloads[0].network.mode = fact(NetMode::None, at(3));
  CHECK_FALSE(fired(m, "SB5001"));
}

TEST_CASE("hostNetwork pods are not subject to policies", "[inv5]") {
  Model m = pod_model();
  EgressGate g = policy("default-deny", 30);
  m.workloads[0].network.egress.push_back(g);
  m.workloads[0].network.host_network = fact(true, at(8));
  m.workloads[0].network.policies_apply = false;
  Findings f;
  test::network(m, f);
  auto it = std::find_if(f.items().begin(), f.items().end(),
                         [](const Finding& x) { return x.rule_id == "SB5001"; });
  REQUIRE(it != f.items().end());
  CHECK(it->at.line == 8);
  CHECK(it->message.find("hostNetwork pods") != std::string::npos);
  REQUIRE(it->related.size() == 1);
  CHECK(it->related[0].at.line == 30);

  // Without any policy the message still names the host network, at its line.
  m.workloads[0].network.egress.clear();
  Findings f2;
  test::network(m, f2);
  it = std::find_if(f2.items().begin(), f2.items().end(),
                    [](const Finding& x) { return x.rule_id == "SB5001"; });
  REQUIRE(it != f2.items().end());
  CHECK(it->at.line == 8);
  CHECK(it->message.find("host network") != std::string::npos);
  CHECK(fired(m, "SB5011"));
}

TEST_CASE("loopback is not judged through a Kubernetes policy", "[inv5]") {
  Model m = pod_model();
  EgressGate g = policy("lo", 30);
  g.allows.push_back(allow(DestKind::Cidr, "127.0.0.0/8", 31));
  m.workloads[0].network.egress.push_back(g);
  CHECK_FALSE(fired(m, "SB5005"));
  m.workloads[0].network.egress[0].kind = GateKind::Nft;  // a host ruleset: loopback is real
  CHECK(fired(m, "SB5005"));
}

TEST_CASE("open egress with secrets inside is the critical rule, naming no value", "[inv5]") {
  Model m = pod_model();
  EnvVar e;
  e.name = "OPENAI_API_KEY";
  e.source = EnvSource::SecretRef;
  e.ref = "llm";
  e.from = at(20);
  m.workloads[0].env.push_back(e);
  CHECK(fired(m, "SB5002"));
  CHECK_FALSE(fired(m, "SB5001"));

  // A token that reaches the pod counts as a secret inside.
  Model t = pod_model();
  t.workloads[0].service.pod_automount.reset();
  CHECK(fired(t, "SB5002"));

  // A declared intended secret is still a secret inside.
  Model d = pod_model();
  EnvVar plain;
  plain.name = "MODEL_ENDPOINT_AUTH";
  plain.source = EnvSource::ConfigMapRef;
  plain.from = at(21);
  d.workloads[0].env.push_back(plain);
  CHECK(fired(d, "SB5001"));
  d.intended_secrets.push_back("MODEL_ENDPOINT_AUTH");
  CHECK(fired(d, "SB5002"));

  // Open egress allow with a literal secret-named value: critical, value never printed.
  Model l = pod_model();
  EnvVar lit;
  lit.name = "DB_PASSWORD";
  lit.value = "hunter2-very-secret";
  lit.from = at(22);
  l.workloads[0].env.push_back(lit);
  EgressGate g = policy("allow-all", 30);
  g.allows.push_back(allow(DestKind::Entity, "world", 31));
  g.kind = GateKind::CiliumNetworkPolicy;
  l.workloads[0].network.egress.push_back(g);
  Findings f;
  test::network(l, f);
  bool saw = false;
  for (const auto& x : f.items()) {
    CHECK(x.message.find("hunter2") == std::string::npos);
    saw = saw || (x.rule_id == "SB5004" && x.at.line == 31 &&
                  x.message.find("DB_PASSWORD") != std::string::npos);
  }
  CHECK(saw);
}

TEST_CASE("one finding per pod, not per container", "[inv5]") {
  Model m = pod_model();
  Workload side = m.workloads[0];
  side.id.container = "proxy";
  side.container_from = at(12);
  m.workloads.push_back(side);
  auto r = run(m);
  CHECK(std::count(r.begin(), r.end(), std::make_pair(std::string("SB5001"), 5u)) == 1);
  CHECK(std::count(r.begin(), r.end(), std::make_pair(std::string("SB5011"), 5u)) == 1);
}

TEST_CASE("dnsPolicy Default, hostPort, Services and Ingresses", "[inv5]") {
  Model m = pod_model();
  auto& n = m.workloads[0].network;
  n.dns_policy = fact(std::string("Default"), at(9));
  PublishedPort p;
  p.is_host_port = true;
  p.container_port = "8080";
  p.host_port = "8080";
  p.from = at(14);
  n.ports.push_back(p);
  n.exposures.push_back(
      {ExposureKind::NodePort, "runner", at(60), {{Location{0, 62, 1}, "selector"}}});
  n.exposures.push_back({ExposureKind::Ingress, "runner", at(80), {}});
  auto r = run(m);
  for (auto [rule, line] : {std::pair{"SB5007", 9u},
                            {"SB5008", 14u},
                            {"SB5009", 60u},
                            {"SB5010", 80u},
                            {"SB5011", 5u}}) {
    INFO(rule);
    CHECK(std::count(r.begin(), r.end(), std::make_pair(std::string(rule), line)) == 1);
  }
  n.ingress_default_deny = true;
  CHECK_FALSE(fired(m, "SB5011"));
}

TEST_CASE("the CNI note is reported once, at the first policy by file and line", "[inv5]") {
  Model m;
  m.files.add("b.yaml");
  m.files.add("a.yaml");
  NetworkPolicyObject p1, p2, p3;
  p1.ref = {"NetworkPolicy", "", "x", Provenance{Location{0, 1, 1}}};
  p2.ref = {"NetworkPolicy", "", "y", Provenance{Location{1, 9, 1}}};
  p3.ref = {"NetworkPolicy", "", "z", Provenance{Location{1, 3, 1}}};
  m.cluster.network_policies = {p1, p2, p3};
  Findings f;
  test::network(m, f);
  REQUIRE(f.items().size() == 1);
  CHECK(f.items()[0].rule_id == "SB5012");
  CHECK(f.items()[0].at == Location{1, 3, 1});
}

TEST_CASE("egress helper predicates", "[inv5]") {
  CHECK_FALSE(engine::is_dns_only({}));
  CHECK(engine::is_dns_only({kDnsUdp, kDnsTcp}));
  CHECK_FALSE(engine::is_dns_only({{"UDP", 53, 54}}));
  CHECK_FALSE(engine::is_dns_only({{"UDP", 0, 0}}));
  CHECK(engine::allows_any_destination(allow(DestKind::Fqdn, "*", 1)));
  CHECK_FALSE(engine::allows_any_destination(allow(DestKind::Fqdn, "*.github.com", 1)));
  CHECK(engine::allows_any_destination(allow(DestKind::Entity, "world", 1)));
  CHECK_FALSE(engine::allows_any_destination(allow(DestKind::Entity, "kube-apiserver", 1)));
  CHECK_FALSE(engine::allows_any_destination(allow(DestKind::NamespaceSelector, "{}", 1)));
  CHECK(engine::allows_any_destination(allow(DestKind::Cidr, "::/0", 1)));
  CHECK_FALSE(engine::allows_any_destination(
      allow(DestKind::Cidr, "0.0.0.0/0", 1, {}, {"0.0.0.0/1", "128.0.0.0/1"})));
  CHECK_FALSE(engine::allows_any_destination(allow(DestKind::Cidr, "not-a-cidr", 1)));
  CHECK(engine::describe_ports({kDnsUdp, {"TCP", 8000, 8080}, {"", 0, 0}}) ==
        "UDP 53, TCP 8000-8080, any port");
}

TEST_CASE("a gate that passes by default contributes no allows", "[inv5]") {
  Model m = pod_model();
  EgressGate g = policy("log-only", 30);
  g.denies_v4 = g.denies_v6 = false;
  g.allows.push_back(allow(DestKind::Any, "", 31));
  m.workloads[0].network.egress.push_back(g);
  auto r = run(m);
  CHECK(std::count(r.begin(), r.end(), std::make_pair(std::string("SB5001"), 30u)) == 1);
  CHECK_FALSE(fired(m, "SB5003"));
}

TEST_CASE("a pod-level finding names the main container, not an init container", "[inv5]") {
  Model m = pod_model();
  Workload init = m.workloads[0];
  init.id.container = "fetch-repo";
  init.role = ContainerRole::Init;
  m.workloads.insert(m.workloads.begin(), init);
  Findings f;
  test::network(m, f);
  auto it = std::find_if(f.items().begin(), f.items().end(),
                         [](const Finding& x) { return x.rule_id == "SB5001"; });
  REQUIRE(it != f.items().end());
  CHECK(it->subject == "Pod/agents/runner/agent");
}

// End to end through the Kubernetes frontend: the policy semantics the checks rely on.
namespace {

Model from_yaml(const std::string& text) {
  Model m;
  SourceFile f;
  f.path = "m.yaml";
  f.id = m.files.add(f.path);
  f.type = FileType::Yaml;
  f.bytes = text;
  f.readable = true;
  FilePart part;
  read_kubernetes_file(f, part);
  merge_part(std::move(part), m);
  link_kubernetes(m);
  return m;
}

const char* kPod = R"(apiVersion: v1
kind: Pod
metadata:
  name: agent
  labels: {app: agent}
spec:
  automountServiceAccountToken: false
  containers:
  - name: agent
    image: example/agent:1
---
)";

}  // namespace

TEST_CASE("policy types: implied Egress when egress rules exist, Ingress-only leaves egress open",
          "[inv5]") {
  Model implied = from_yaml(std::string(kPod) + R"(apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: p}
spec:
  podSelector: {matchLabels: {app: agent}}
  egress:
  - to:
    - ipBlock: {cidr: 10.96.0.10/32}
)");
  CHECK_FALSE(fired(implied, "SB5001"));

  Model ingress_only = from_yaml(std::string(kPod) + R"(apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: p}
spec:
  podSelector: {matchLabels: {app: agent}}
  ingress: []
)");
  CHECK(fired(ingress_only, "SB5001"));
  CHECK_FALSE(fired(ingress_only, "SB5011"));
}

TEST_CASE("selectors are cluster peers, a ports-only 53 rule is DNS anywhere", "[inv5]") {
  Model m = from_yaml(std::string(kPod) + R"(apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: p}
spec:
  podSelector: {}
  policyTypes: [Egress]
  egress:
  - to:
    - namespaceSelector: {}
  - ports:
    - {port: 53, protocol: UDP}
)");
  auto r = run(m);
  CHECK(std::count(r.begin(), r.end(), std::make_pair(std::string("SB5006"), 21u)) == 1);
  CHECK_FALSE(fired(m, "SB5003"));
  CHECK_FALSE(fired(m, "SB5005"));
}

TEST_CASE("podman kube play does not enforce network policies", "[inv5]") {
  Model m = pod_model();
  m.workloads[0].engine = Engine::PodmanKubePlay;
  m.workloads[0].network.egress.push_back(policy("default-deny", 30));
  Findings f;
  test::network(m, f);
  auto it = std::find_if(f.items().begin(), f.items().end(),
                         [](const Finding& x) { return x.rule_id == "SB5001"; });
  REQUIRE(it != f.items().end());
  CHECK(it->message.find("kube play") != std::string::npos);
  CHECK(it->at.line == 5);
  m.workloads[0].engine = Engine::Kubelet;
  CHECK_FALSE(fired(m, "SB5001"));
}

}  // namespace inv5_test
