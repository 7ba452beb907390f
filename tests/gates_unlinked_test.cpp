// Gates judged on their own: iptables list/check/wait options, unlinked rulesets, destinations
// computed from the host's network (SB5077), rules loaded into a container with exec, and the
// one IPv6 finding of a v4-only gate.
#include <catch2/catch.hpp>

#include <algorithm>

#include "analyzer/engine/egress.h"
#include "analyzer/engine/gate_path.h"
#include "analyzer/render/bash/render.h"
#include "invariants/inv5_parts.h"
#include "invariants/modules.h"
#include "tests/gates_test_util.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace gates_unlinked_test {

using namespace sbr;

namespace {

std::vector<gates::Arg> args(const std::string& line) {
  return gates::split_line(line, Provenance{Location{0, 1, 1}, Frontend::Bash, {}});
}

// Applies each line as one iptables command; returns the problems.
std::vector<Problem> apply(const std::vector<std::string>& lines, gates::Ruleset& rs) {
  std::vector<Problem> problems;
  for (const auto& l : lines) gates::apply_iptables(args(l), false, Provenance{}, rs, problems);
  return problems;
}

size_t output_rules(const gates::Ruleset& rs) {
  for (const auto& t : rs.tables) {
    if (const gates::Chain* c = t.chain("OUTPUT")) return c->rules.size();
  }
  return 0;
}

std::vector<Finding> egress_findings(const Model& m) {
  Findings f;
  inv::check_egress(m, f);
  return f.items();
}

size_t count(const std::vector<Finding>& fs, const std::string& rule) {
  return static_cast<size_t>(
      std::count_if(fs.begin(), fs.end(), [&](const Finding& f) { return f.rule_id == rule; }));
}

}  // namespace

TEST_CASE("iptables list, check and wait options parse and add no rule", "[gates]") {
  gates::Ruleset rs;
  auto problems = apply(
      {
          "-w -A OUTPUT -p tcp --dport 443 -j ACCEPT",
          "-w 5 -A OUTPUT -p tcp --dport 80 -j ACCEPT",
          "--wait=5 -S OUTPUT",
          "--wait 3 -L OUTPUT -n -v --line-numbers",
          "-W 100000 -w -L -n",
          "-nvL OUTPUT",
          "-S OUTPUT 1",
          "-C OUTPUT -p tcp --dport 22 -j ACCEPT",
          "--check OUTPUT -d 10.0.0.1 -j ACCEPT",
          "-t nat -L -n",
          "-t nat -S POSTROUTING",
          "-x -v -n -L INPUT",
          "-Z OUTPUT",
      },
      rs);
  for (const auto& p : problems) INFO(p.message);
  CHECK(problems.empty());
  CHECK(output_rules(rs) == 2);  // only the two -A commands
  // The wait option does not make the rule conditional: it is a plain accept on 443.
  REQUIRE(!rs.tables.empty());
  const gates::Chain* out = rs.tables[0].chain("OUTPUT");
  REQUIRE(out != nullptr);
  CHECK_FALSE(out->rules[0].other_match);
  CHECK_FALSE(out->rules[1].other_match);
  CHECK(out->rules[1].ports.at(0).from == 80);
}

TEST_CASE("iptables -D by position removes that rule", "[gates]") {
  // ContainAI's cleanup loop: `_cai_iptables -D "$chain" "$rule_num"`.
  gates::Ruleset rs;
  auto problems = apply(
      {
          "-A OUTPUT -p tcp --dport 443 -j ACCEPT", "-A OUTPUT -p tcp --dport 80 -j ACCEPT",
          "-D OUTPUT 1",
          "-D OUTPUT 7",  // past the end: nothing to remove
      },
      rs);
  for (const auto& p : problems) INFO(p.message);
  CHECK(problems.empty());
  REQUIRE(output_rules(rs) == 1);
  CHECK(rs.tables[0].chain("OUTPUT")->rules[0].ports.at(0).from == 80);
}

TEST_CASE("a stray word after a list command is still a parse problem", "[gates]") {
  gates::Ruleset rs;
  auto problems = apply({"-L OUTPUT INPUT"}, rs);
  CHECK(problems.size() == 1);
}

// Where an iptables destination's value was computed, as the renderer follows it: through
// variables, text filters, a function's output and a library sourced from another file.
TEST_CASE("host network origins: ip route, network inspect, followed values", "[gates]") {
  SourceSet src;
  auto add = [&](const std::string& path, const std::string& text) {
    src.files.push_back(
        test::gate_file(static_cast<FileId>(src.files.size()), path, text, FileType::Shell));
  };
  add("fw.sh",
      "source ./lib/net.sh\n"
      "GW=$(ip -4 route show default | awk '{print $3}')\n"
      "NET=$(echo \"$GW\" | sed 's/x/y/')\n"
      "cidr() {\n  docker network inspect \"$1\" -f x\n}\n"
      "OTHER=$(dig +short example.com)\n"
      "LIB=$(host_subnet)\n"
      "for d in \"$GW\" \"$NET\" \"$(cidr agents)\" \"$(podman network inspect n)\" "
      "\"$OTHER\" \"$(getent hosts tip)\" \"$ENV_NET\" \"$LIB\" \"${GW%.*}.0/24\"; do\n"
      "  iptables -A OUTPUT -d \"$d\" -j ACCEPT\n"
      "done\n");
  add("lib/net.sh",
      "host_subnet() {\n  local gw\n  gw=$(ip route | awk '/default/ {print $3}')\n"
      "  echo \"${gw%.*}.0/24\"\n}\n");
  auto r = bash::render_script(src.files[0], &src);
  std::vector<std::string> origins;
  for (const auto& inv : r.invocations) {
    if (inv.argv.size() > 4 && inv.argv[0].text == "iptables")
      origins.push_back(inv.argv[4].host_network);
  }
  const std::string route = "the default gateway (`ip route`)";
  REQUIRE(origins.size() == 9);
  CHECK(origins[0] == route);
  CHECK(origins[1] == route);  // a text filter of a value from the route table
  CHECK(origins[2] == "the container network's subnet (`docker network inspect`)");
  CHECK(origins[3] == "the container network's subnet (`podman network inspect`)");
  CHECK(origins[4].empty());  // a name lookup is not the host's network
  CHECK(origins[5].empty());
  CHECK(origins[6].empty());   // the environment says nothing of where it came from
  CHECK(origins[7] == route);  // printed by a function of a sourced library
  CHECK(origins[8] == route);  // the /24 around the gateway
}

TEST_CASE("an unlinked firewall script is judged as written", "[gates]") {
  Model m;
  m.files.add("init-firewall.sh");
  SourceSet src;
  const std::string script =
      "iptables -A OUTPUT -p udp --dport 53 -j ACCEPT\n"
      "iptables -A OUTPUT -p tcp --dport 443 -j ACCEPT\n"
      "iptables -A OUTPUT -d 172.16.0.0/12 -j ACCEPT\n"
      "iptables -A OUTPUT -d $HOST_NET -j ACCEPT\n"
      "iptables -P OUTPUT DROP\n";
  std::vector<Problem> problems;
  ScriptFacts s;
  s.file = 0;
  s.gates = test::collect_gates(script, 0, problems);
  REQUIRE(s.gates.size() == 1);
  // The stand-in renderer gives `$HOST_NET` an env origin: mark it as the frontend would.
  for (auto& a : s.gates[0].allows) {
    if (a.from.at.line == 4) a.host_subnet_from = "the default gateway (`ip route`)";
  }
  m.scripts.push_back(s);
  auto fs = egress_findings(m);
  CHECK(count(fs, "SB5006") == 1);
  CHECK(count(fs, "SB5003") == 1);
  CHECK(count(fs, "SB5005") == 2);  // 172.16.0.0/12; the any-destination 443 reaches it too
  CHECK(count(fs, "SB5077") == 1);
  for (const auto& f : fs) {
    INFO(f.message);
    CHECK(f.message.rfind("unlinked gate iptables ruleset ip filter (hook output) in "
                          "init-firewall.sh",
                          0) == 0);
    CHECK(f.subject == "init-firewall.sh");
    if (f.rule_id == "SB5003") CHECK(f.at.line == 2);
    if (f.rule_id == "SB5077") CHECK(f.at.line == 4);
    if (f.rule_id == "SB5005" && f.at.line == 3) {
      CHECK(f.message.find("docker0 172.17.0.0/16") != std::string::npos);
    }
  }

  SECTION("once linked, the workload's findings replace the unlinked ones") {
    Workload w;
    w.engine = Engine::Docker;
    w.id.kind = "launcher";
    w.object_from.at = Location{0, 20, 1};
    w.network.mode = fact(NetMode::Host, Provenance{Location{0, 20, 10}, Frontend::Bash, {}});
    m.workloads.push_back(w);
    link_gates(m);
    engine::attach_gates(m);
    REQUIRE(m.workloads[0].network.egress.size() == 1);
    auto linked = egress_findings(m);
    CHECK(count(linked, "SB5003") == 1);
    CHECK(count(linked, "SB5077") == 1);
    for (const auto& f : linked) {
      INFO(f.message);
      CHECK(f.message.find("unlinked gate") == std::string::npos);
    }
    // IPv6 is open, but that is SB5072's fact at the gate, not a second SB5001.
    CHECK(count(linked, "SB5001") == 0);
  }
}

TEST_CASE("the gateway's DNS port is not a host subnet", "[gates]") {
  EgressGate g;
  g.kind = GateKind::Iptables;
  g.denies_v4 = g.denies_v6 = true;
  EgressAllow dns;
  dns.dest = DestKind::Cidr;
  dns.value = "command substitution `ip route`";
  dns.host_subnet_from = "the default gateway (`ip route`)";
  dns.ports = {{"udp", 53, 53}};
  g.allows.push_back(dns);
  CHECK(engine::gate_posture(g).host_subnet.empty());
  g.allows[0].ports = {{"tcp", 0, 0}};
  CHECK(engine::gate_posture(g).host_subnet.size() == 1);
}

TEST_CASE("SB5001 stays when nothing denies either family", "[gates]") {
  Model m;
  m.files.add("run.sh");
  Workload w;
  w.engine = Engine::Docker;
  w.id.kind = "launcher";
  w.object_from.at = Location{0, 20, 1};
  EgressGate open;
  open.kind = GateKind::Iptables;
  open.name = "ip filter (hook output)";
  open.from.at = Location{0, 3, 1};
  w.network.egress.push_back(open);
  m.workloads.push_back(w);
  CHECK(count(egress_findings(m), "SB5001") == 1);
  m.workloads[0].network.egress[0].denies_v4 = true;  // v4 only: SB5072's fact
  CHECK(count(egress_findings(m), "SB5001") == 0);
}

TEST_CASE("rules loaded with podman exec filter that container and those joining it", "[gates]") {
  std::vector<Problem> problems;
  auto gs = test::collect_gates(
      "podman exec -i egress-gw nft -f - <<'EOF'\n"
      "table inet egress {\n"
      "  chain out {\n"
      "    type filter hook output priority 0; policy drop;\n"
      "    tcp dport 443 accept\n"
      "  }\n"
      "}\n"
      "EOF\n",
      0, problems);
  REQUIRE(problems.empty());
  REQUIRE(gs.size() == 1);
  CHECK(gs[0].exec_container == "egress-gw");
  CHECK(gs[0].hook == GateHook::NetnsOutput);

  Model m;
  m.files.add("run.sh");
  m.files.add("other.sh");
  ScriptFacts s;
  s.file = 0;
  s.gates = gs;
  m.scripts.push_back(s);
  auto launch = [&](FileId file, const std::string& name, NetMode mode, const std::string& arg) {
    Workload w;
    w.engine = Engine::Podman;
    w.object_from.at = Location{file, 20, 1};
    w.id.container = name;
    w.network.mode = fact(mode, Provenance{Location{file, 20, 15}, Frontend::Bash, {}});
    w.network.mode_arg = arg;
    m.workloads.push_back(w);
  };
  launch(0, "egress-gw", NetMode::EngineDefault, "");
  launch(0, "agent", NetMode::Container, "egress-gw");
  launch(0, "docs", NetMode::EngineDefault, "");         // same script, not behind it
  launch(1, "agent2", NetMode::Container, "egress-gw");  // another script's namespace
  link_gates(m);
  engine::attach_gates(m);
  for (const auto& l : m.gate_links) CHECK(l.via == GateVia::ContainerExec);
  CHECK(m.workloads[0].network.egress.size() == 1);
  CHECK(m.workloads[1].network.egress.size() == 1);
  CHECK(m.workloads[2].network.egress.empty());
  CHECK(m.workloads[3].network.egress.empty());
  CHECK(engine::unlinked_gates(m).empty());
}

TEST_CASE("docker exec iptables-restore records the container too", "[gates]") {
  std::vector<Problem> problems;
  auto gs = test::collect_gates(
      "docker exec -i fw iptables-restore <<EOF\n"
      "*filter\n"
      ":OUTPUT DROP [0:0]\n"
      "-A OUTPUT -d 140.82.112.3/32 -p tcp --dport 443 -j ACCEPT\n"
      "COMMIT\n"
      "EOF\n"
      "docker exec fw ip6tables -w -P OUTPUT DROP\n",
      0, problems);
  REQUIRE(problems.empty());
  REQUIRE(gs.size() == 1);
  CHECK(gs[0].exec_container == "fw");
  CHECK(gs[0].hook == GateHook::NetnsOutput);
  CHECK(gs[0].denies_v4);
  CHECK(gs[0].denies_v6);
  REQUIRE(gs[0].allows.size() == 1);
  CHECK(gs[0].allows[0].value == "140.82.112.3/32");
}

}  // namespace gates_unlinked_test
