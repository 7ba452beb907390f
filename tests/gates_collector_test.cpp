// Gate commands of a script, replayed in order: iptables/ip6tables/ipset, nft commands and
// heredocs, network create --internal, namespaces entered from the host.
#include <catch2/catch.hpp>

#include "tests/gates_test_util.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace gates_collector_test {

using namespace sbr;
using test::gate_with_hook;

TEST_CASE("iptables allowlist in DOCKER-USER for both families", "[gates]") {
  std::vector<Problem> problems;
  auto gs = test::collect_gates(test::read_gate_fixture("allowlist-iptables.sh"), 5, problems);
  REQUIRE(problems.empty());
  REQUIRE(gs.size() == 1);
  const EgressGate& g = gs[0];
  CHECK(g.kind == GateKind::Iptables);
  CHECK(g.hook == GateHook::Forward);
  CHECK(g.denies_v4);
  CHECK(g.denies_v6);
  CHECK(g.from.at.file == 5);
  CHECK(g.from.at.line == 15);  // the final REJECT (DOCKER-USER has no policy)
  REQUIRE(g.allows.size() == 3);
  CHECK(g.allows[0].value == "10.89.0.1");
  CHECK(g.allows[0].ports.at(0).protocol == "udp");
  CHECK(g.allows[1].value == "140.82.112.0/20");
  CHECK(g.allows[1].ports.size() == 2);
  CHECK(g.allows[1].ports[0].from == 80);
  CHECK(g.allows[2].value == "151.101.0.0/16");
  CHECK(g.allows[2].from.at.line == 14);
}

TEST_CASE("iptables without ip6tables leaves IPv6 open, -I goes to the top", "[gates]") {
  std::vector<Problem> problems;
  auto gs =
      test::collect_gates(test::read_gate_fixture("allowlist-iptables-v4only.sh"), 6, problems);
  REQUIRE(problems.empty());
  const EgressGate* g = gate_with_hook(gs, GateHook::Output, GateKind::Iptables);
  REQUIRE(g != nullptr);
  CHECK(g->denies_v4);
  CHECK_FALSE(g->denies_v6);
  CHECK(g->from.at.line == 3);
  REQUIRE(g->allows.size() == 2);
  CHECK(g->allows[0].value == "140.82.112.0/20");
  CHECK(g->allows[1].dest == DestKind::Any);  // DNS to every address
  CHECK(g->allows[1].ports.at(0).from == 53);

  // An ACCEPT inserted at the top runs before the DROP appended later.
  auto open = test::collect_gates("iptables -A OUTPUT -j DROP\niptables -I OUTPUT -j ACCEPT\n", 1,
                                  problems);
  REQUIRE(open.size() == 1);
  CHECK_FALSE(open[0].denies_v4);
}

TEST_CASE("malformed iptables commands are located ParseErrors", "[gates]") {
  std::vector<Problem> problems;
  test::collect_gates("iptables -P OUTPUT\niptables -A OUTPUT bogus -j DROP\n", 2, problems);
  REQUIRE(problems.size() == 2);
  CHECK(problems[0].message == "iptables: option -P needs a value");
  CHECK(problems[0].at.line == 1);
  CHECK(problems[1].message == "iptables: unexpected argument `bogus`");
  CHECK(problems[1].at.line == 2);
  CHECK(problems[1].at.column == 20);
}

TEST_CASE("nft heredoc: positions are the body line in the script", "[gates]") {
  const char* script = R"(#!/bin/bash
set -euo pipefail
nft -f - <<'EOF'
table inet egress {
  chain out {
    type filter hook output priority 0; policy drop;
    ip daddr 192.0.2.1 tcp dport 443 accept
  }
}
EOF
podman run --rm img
)";
  std::vector<Problem> problems;
  auto gs = test::collect_gates(script, 4, problems);
  REQUIRE(problems.empty());
  REQUIRE(gs.size() == 1);
  CHECK(gs[0].kind == GateKind::Nft);
  CHECK(gs[0].from.at.file == 4);
  CHECK(gs[0].from.at.line == 6);
  REQUIRE(gs[0].allows.size() == 1);
  CHECK(gs[0].allows[0].from.at.line == 7);
  CHECK(gs[0].allows[0].from.at.column == 5);
}

TEST_CASE("nft commands in order, symbolic values are kept, not judged", "[gates]") {
  const char* script = R"(nft add table inet egress
nft add chain inet egress out '{ type filter hook output priority 0; policy drop; }'
nft add set inet egress allow '{ type ipv4_addr; }'
nft add element inet egress allow '{ 198.51.100.4 }'
nft add rule inet egress out ip daddr @allow tcp dport 443 accept
nft add rule inet egress out ip daddr $EXTRA_ALLOW accept
nft insert rule inet egress out oifname lo accept
)";
  std::vector<Problem> problems;
  auto gs = test::collect_gates(script, 7, problems);
  REQUIRE(problems.empty());
  REQUIRE(gs.size() == 1);
  const EgressGate& g = gs[0];
  CHECK(g.denies_v4);
  CHECK(g.denies_v6);
  CHECK(g.from.at.line == 2);
  REQUIRE(g.allows.size() == 2);
  CHECK(g.allows[0].value == "198.51.100.4");
  CHECK(g.allows[0].from.at.line == 5);
  CHECK(g.allows[1].dest == DestKind::Cidr);
  CHECK(g.allows[1].value == "env EXTRA_ALLOW");
  CHECK(g.allows[1].from.at.line == 6);
}

TEST_CASE("a failing nft command changes nothing, nft -c loads nothing", "[gates]") {
  std::vector<Problem> problems;
  auto gs = test::collect_gates(
      "nft add rule inet missing out drop\nnft -c -f - <<EOF\ntable ip t {\n chain o { type "
      "filter hook output priority 0; policy drop; }\n}\nEOF\n",
      8, problems);
  CHECK(gs.empty());
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].message == "nft: no such table: missing");
  CHECK(problems[0].at.line == 1);
}

TEST_CASE("network create --internal yields an InternalNetwork gate", "[gates]") {
  std::vector<Problem> problems;
  auto gs = test::collect_gates(
      "podman network create --internal sandbox-net\npodman network create open-net\n", 9,
      problems);
  REQUIRE(gs.size() == 1);
  CHECK(gs[0].kind == GateKind::InternalNetwork);
  CHECK(gs[0].name == "sandbox-net");
  CHECK(gs[0].denies_v4);
  CHECK(gs[0].denies_v6);
  CHECK(gs[0].from.at.line == 1);
  CHECK(gs[0].from.at.column == 23);
}

TEST_CASE("rules entered into a container namespace filter its OUTPUT", "[gates]") {
  std::vector<Problem> problems;
  auto gs = test::collect_gates(
      "nsenter -t $PID -n nft -f - <<EOF\ntable inet t {\n chain o { type filter hook output "
      "priority 0; policy drop; }\n}\nEOF\nsetpriv --bounding-set -all --reuid 1000 agent\n",
      10, problems);
  REQUIRE(problems.empty());
  REQUIRE(gs.size() == 1);
  CHECK(gs[0].hook == GateHook::NetnsOutput);
  CHECK(gs[0].denies_v4);
  CHECK(gs[0].setup_caps_dropped);
}

TEST_CASE("nft -f FILE reads the file from the repository, or says it cannot", "[gates]") {
  SourceSet sources;
  sources.files.push_back(test::gate_file(0, "sandbox/run.sh", "", FileType::Shell));
  sources.files.push_back(test::gate_file(1, "sandbox/egress.nft",
                                          test::read_gate_fixture("egress.nft"), FileType::Nft));
  std::vector<Problem> problems;
  auto gs = test::collect_gates("nft -f ./egress.nft\n", 0, problems, &sources);
  REQUIRE(problems.empty());
  REQUIRE(gs.size() == 1);
  CHECK(gs[0].from.at.file == 1);
  CHECK(gs[0].from.at.line == 23);

  gs = test::collect_gates("nft -f /etc/nftables.conf\n", 0, problems, &sources);
  CHECK(gs.empty());
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].kind == ProblemKind::RenderFailed);
  CHECK(problems[0].message.find("/etc/nftables.conf") != std::string::npos);
}

TEST_CASE("iptables-restore and ipset restore read their heredoc", "[gates]") {
  const char* script = R"(ipset restore <<EOF
create allow hash:net
add allow 203.0.113.0/24
EOF
iptables-restore <<EOF
*filter
:OUTPUT DROP [0:0]
-A OUTPUT -m set --match-set allow dst -p tcp --dport 443 -j ACCEPT
COMMIT
EOF
)";
  std::vector<Problem> problems;
  auto gs = test::collect_gates(script, 11, problems);
  REQUIRE(problems.empty());
  const EgressGate* g = gate_with_hook(gs, GateHook::Output, GateKind::Iptables);
  REQUIRE(g != nullptr);
  CHECK(g->denies_v4);
  CHECK_FALSE(g->denies_v6);
  CHECK(g->from.at.line == 7);
  REQUIRE(g->allows.size() == 1);
  CHECK(g->allows[0].value == "203.0.113.0/24");
  CHECK(g->allows[0].from.at.line == 8);
}

TEST_CASE("the collector consumes gate commands only", "[gates]") {
  GateCollector c;
  auto inv =
      test::fake_render("iptables -P OUTPUT DROP\npodman run img\nsudo nft list ruleset\n", 1);
  CHECK(c.add(inv[0]));
  CHECK_FALSE(c.add(inv[1]));
  CHECK(c.add(inv[2]));
}

TEST_CASE("an allowlist chain scoped to the sandbox bridge denies its traffic", "[gates]") {
  const char* script = R"(iptables -N AGENTBOX
iptables -F AGENTBOX
iptables -A AGENTBOX -d github.com -p tcp --dport 443 -j ACCEPT
iptables -A AGENTBOX -j DROP
iptables -I DOCKER-USER -i $BRIDGE -j AGENTBOX
ip6tables -P FORWARD DROP
)";
  std::vector<Problem> problems;
  auto gs = test::collect_gates(script, 12, problems);
  REQUIRE(problems.empty());
  REQUIRE(gs.size() == 1);
  CHECK(gs[0].hook == GateHook::Forward);
  CHECK(gs[0].denies_v4);
  CHECK(gs[0].denies_v6);
  CHECK(gs[0].from.at.line == 4);
  REQUIRE(gs[0].allows.size() == 1);
  CHECK(gs[0].allows[0].dest == DestKind::Fqdn);
  CHECK(gs[0].allows[0].value == "github.com");
}

TEST_CASE("a heredoc value that expanded to nothing keeps the rule's verdict", "[gates]") {
  const char* script = R"(nft -f - <<EOF
table inet agentbox {
  chain forward {
    type filter hook forward priority 0; policy drop;
    tcp dport  accept
  }
}
EOF
)";
  std::vector<Problem> problems;
  auto gs = test::collect_gates(script, 13, problems);
  REQUIRE(problems.empty());
  REQUIRE(gs.size() == 1);
  REQUIRE(gs[0].allows.size() == 1);
  CHECK(gs[0].allows[0].dest == DestKind::Any);
  CHECK(gs[0].allows[0].ports.at(0).from == 0);  // unknown port: every port
}

TEST_CASE("timeout and similar wrappers run the tool in the script's namespace", "[gates]") {
  std::vector<Problem> problems;
  auto gs = test::collect_gates("timeout 10 iptables -P OUTPUT DROP\n", 14, problems);
  REQUIRE(gs.size() == 1);
  CHECK(gs[0].hook == GateHook::Output);
  CHECK(gs[0].denies_v4);
}

TEST_CASE("a default deny only on a non-default path does not deny, where it is is kept",
          "[gates]") {
  auto invs = test::fake_render(
      "nft -f - <<EOF\ntable inet egress {\n chain out {\n  type filter hook output priority 0; "
      "policy drop;\n }\n}\nEOF\n",
      15);
  REQUIRE(invs.size() == 1);
  invs[0].from.set_condition(Condition{"when ALLOWED_IPS is set", true});
  GateCollector c;
  c.add(invs[0]);
  std::vector<Problem> problems;
  auto gs = c.finish(problems);
  REQUIRE(gs.size() == 1);
  CHECK_FALSE(gs[0].denies_v4);
  CHECK(gs[0].from.condition().always());  // open is the default, not a switch
  REQUIRE(gs[0].switched_deny);
  CHECK(gs[0].switched_deny->at.line == 4);
  CHECK(gs[0].switched_deny->condition().text == "when ALLOWED_IPS is set");

  // On the default path of an `if` (no switch) the deny counts.
  invs[0].from.set_condition(Condition{"when ALLOWED_IPS is set", false});
  GateCollector d;
  d.add(invs[0]);
  gs = d.finish(problems);
  CHECK(gs.at(0).denies_v4);
  CHECK_FALSE(gs.at(0).switched_deny);
}

}  // namespace gates_collector_test
