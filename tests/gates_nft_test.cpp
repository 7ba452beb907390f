// nft rulesets into EgressGate facts: families, hooks, policies, sets, defines, base chains that
// must all accept, and parse errors with positions.
#include <catch2/catch.hpp>

#include "tests/gates_test_util.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace gates_nft_test {

using namespace sbr;

namespace {

FilePart read_nft(const std::string& text, const std::string& path = "egress.nft") {
  FilePart part;
  read_nft_file(test::gate_file(3, path, text, FileType::Nft), part);
  return part;
}

const EgressGate& only_gate(const FilePart& p) {
  REQUIRE(p.scripts.size() == 1);
  REQUIRE(p.scripts[0].gates.size() == 1);
  return p.scripts[0].gates[0];
}

std::vector<std::string> values(const EgressGate& g) {
  std::vector<std::string> out;
  for (const auto& a : g.allows) out.push_back(a.value);
  return out;
}

}  // namespace

TEST_CASE("inet table with policy drop denies both families, allows come from sets", "[gates]") {
  FilePart p = read_nft(test::read_gate_fixture("egress.nft"));
  REQUIRE(p.problems.empty());
  const EgressGate& g = only_gate(p);
  CHECK(g.kind == GateKind::Nft);
  CHECK(g.hook == GateHook::Output);
  CHECK(g.denies_v4);
  CHECK(g.denies_v6);
  CHECK(g.name == "egress.nft: inet sandbox_egress (hook output)");
  // `policy drop;` on line 23 is where the default deny is written.
  CHECK(g.from.at.line == 23);
  CHECK(g.from.at.column == 46);
  // established/related and loopback are not egress allows; DNS only to the resolver.
  CHECK(values(g) == std::vector<std::string>{"10.89.0.1", "10.89.0.1", "140.82.112.0/20",
                                              "151.101.0.0/16", "104.16.0.0/13", "2a04:4e42::/32"});
  REQUIRE(g.allows[0].ports.size() == 1);
  CHECK(g.allows[0].ports[0].protocol == "udp");
  CHECK(g.allows[0].ports[0].from == 53);
  CHECK(g.allows[0].from.at.line == 26);
  CHECK(g.allows[2].ports[0].from == 443);
  CHECK(g.allows[2].from.at.line == 28);
  for (const auto& a : g.allows) CHECK(a.dest == DestKind::Cidr);
}

TEST_CASE("a table of family ip leaves IPv6 open", "[gates]") {
  FilePart p = read_nft(test::read_gate_fixture("egress-ipv4-only.nft"));
  REQUIRE(p.problems.empty());
  const EgressGate& g = only_gate(p);
  CHECK(g.denies_v4);
  CHECK_FALSE(g.denies_v6);
  CHECK(g.from.at.line == 13);
  REQUIRE(g.allows.size() == 3);
  CHECK(g.allows[1].ports.size() == 2);
  CHECK(g.allows[1].ports[1].from == 443);
}

TEST_CASE("an nft file that does not parse loads nothing and is a located ParseError", "[gates]") {
  FilePart p = read_nft(test::read_gate_fixture("egress-broken.nft"));
  CHECK(p.scripts.empty());
  REQUIRE(p.problems.size() == 1);
  CHECK(p.problems[0].kind == ProblemKind::ParseError);
  CHECK(p.problems[0].at.file == 3);
  CHECK(p.problems[0].at.line >= 4);
  CHECK(p.problems[0].message.rfind("nft: ", 0) == 0);
}

TEST_CASE("nft parse errors name the cause", "[gates]") {
  CHECK(read_nft("tabel inet x {}\n").problems.at(0).message == "nft: unknown command `tabel`");
  auto p = read_nft(
      "table inet x {\n chain c {\n type filter hook output priority 0; policy "
      "maybe;\n }\n}\n");
  CHECK(p.problems.at(0).message == "nft: policy must be accept or drop");
  CHECK(p.problems.at(0).at.line == 3);
  CHECK(read_nft("add rule inet t c accept\n").problems.at(0).message == "nft: no such table: t");
  CHECK(read_nft("table ip t {\n chain c {\n ip daddr $NOPE accept\n }\n}\n")
            .problems.at(0)
            .message == "nft: undefined variable $NOPE");
  CHECK(read_nft("table ip t { comment \"x }\n").problems.at(0).message ==
        "nft: unterminated string");
}

TEST_CASE("an accept in one base chain does not override a drop in another", "[gates]") {
  const char* text = R"(table inet a {
  chain out {
    type filter hook output priority 0; policy accept;
    accept
  }
}
table inet b {
  chain out {
    type filter hook output priority 10; policy drop;
    ip daddr 192.0.2.10 tcp dport 443 accept
  }
}
)";
  FilePart part = read_nft(text);
  const EgressGate& g = only_gate(part);
  CHECK(g.denies_v4);
  CHECK(g.denies_v6);
  CHECK(g.from.at.line == 9);
  // The unconditional accept of table a passes only what b also accepts.
  CHECK(values(g) == std::vector<std::string>{"192.0.2.10"});
}

TEST_CASE("a final unconditional drop rule is a default deny, accepts after it are dead",
          "[gates]") {
  const char* text = R"(table inet t {
  chain out {
    type filter hook output priority 0;
    tcp dport 443 accept
    drop
    ip daddr 0.0.0.0/0 accept
  }
}
)";
  FilePart part = read_nft(text);
  const EgressGate& g = only_gate(part);
  CHECK(g.denies_v4);
  CHECK(g.denies_v6);
  CHECK(g.from.at.line == 5);
  REQUIRE(g.allows.size() == 1);
  CHECK(g.allows[0].dest == DestKind::Any);  // port 443 to anywhere
  CHECK(g.allows[0].ports.at(0).protocol == "tcp");
}

TEST_CASE("policy accept without a final drop does not deny", "[gates]") {
  FilePart part = read_nft(
      ("table inet t {\n chain out {\n  type filter hook output priority 0; policy accept;\n  ip "
       "daddr 169.254.169.254 drop\n }\n}\n"));
  const EgressGate& g = only_gate(part);
  CHECK_FALSE(g.denies_v4);
  CHECK_FALSE(g.denies_v6);
  CHECK(g.from.at.line == 1);  // the table line
}

TEST_CASE("ip daddr != @set drop denies the family and leaves the set", "[gates]") {
  const char* text = R"(table ip t {
  set allow { type ipv4_addr; elements = { 203.0.113.5 } }
  chain out {
    type filter hook output priority 0; policy accept;
    ip daddr != @allow drop
  }
}
)";
  FilePart part = read_nft(text);
  const EgressGate& g = only_gate(part);
  CHECK(g.denies_v4);
  CHECK_FALSE(g.denies_v6);
  CHECK(g.from.at.line == 5);
  CHECK(values(g) == std::vector<std::string>{"203.0.113.5"});
  CHECK(g.allows[0].ports.empty());  // the accept policy passes every port of the set
}

TEST_CASE("drops of a destination become exceptions of wider allows", "[gates]") {
  const char* text = R"(table inet t {
  chain guard {
    type filter hook output priority -10; policy accept;
    ip daddr 169.254.169.254 drop
  }
  chain out {
    type filter hook output priority 0; policy drop;
    ip daddr 10.0.0.0/8 drop
    tcp dport 443 accept
  }
}
)";
  FilePart part = read_nft(text);
  const EgressGate& g = only_gate(part);
  REQUIRE(g.allows.size() == 2);
  CHECK(g.allows[0].dest == DestKind::Cidr);
  CHECK(g.allows[0].value == "0.0.0.0/0");
  CHECK(g.allows[0].except == std::vector<std::string>{"10.0.0.0/8", "169.254.169.254"});
  CHECK(g.allows[1].dest == DestKind::Any);  // IPv6: nothing dropped before it
}

TEST_CASE("forward and output hooks give one gate each, jumps are followed", "[gates]") {
  const char* text = R"(table inet t {
  chain allowlist {
    ip daddr 198.51.100.7 accept
    drop
  }
  chain fwd {
    type filter hook forward priority 0;
    iifname "podman0" jump allowlist
  }
  chain out {
    type filter hook output priority 0; policy accept;
  }
}
)";
  FilePart p = read_nft(text);
  REQUIRE(p.scripts.size() == 1);
  const auto& gs = p.scripts[0].gates;
  REQUIRE(gs.size() == 2);
  CHECK(gs[0].hook == GateHook::Output);
  CHECK_FALSE(gs[0].denies_v4);
  CHECK(gs[1].hook == GateHook::Forward);
  // The input interface says which sandbox the jump is for: the sandbox's traffic is dropped
  // unless the chain allows it.
  CHECK(gs[1].denies_v4);
  CHECK(gs[1].from.at.line == 4);

  FilePart part2 = read_nft((R"(table ip t {
  chain allowlist {
    ip daddr 198.51.100.7 accept
    drop
  }
  chain fwd {
    type filter hook forward priority 0;
    jump allowlist
  }
}
)"));
  const EgressGate& g = only_gate(part2);
  CHECK(g.hook == GateHook::Forward);
  CHECK(g.denies_v4);
  CHECK(g.from.at.line == 4);
  CHECK(values(g) == std::vector<std::string>{"198.51.100.7"});
}

TEST_CASE("flush ruleset and delete table remove earlier gates", "[gates]") {
  FilePart p = read_nft(
      "table ip t {\n chain o { type filter hook output priority 0; policy drop; }\n}\nflush "
      "ruleset\n");
  CHECK(p.problems.empty());
  CHECK(p.scripts.empty());
  p = read_nft(
      "table ip t {\n chain o { type filter hook output priority 0; policy drop; }\n}\ndelete "
      "table ip t\n");
  CHECK(p.scripts.empty());
}

TEST_CASE("an empty set an accept depends on allows nothing", "[gates]") {
  FilePart part = read_nft((R"(table inet t {
  set allow { type ipv4_addr; }
  chain o {
    type filter hook output priority 0; policy drop;
    ip daddr @allow accept
  }
}
)"));
  const EgressGate& g = only_gate(part);
  CHECK(g.denies_v4);
  CHECK(g.allows.empty());
}

}  // namespace gates_nft_test
