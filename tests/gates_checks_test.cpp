// The gate-specific invariant-5 checks over hand-built models: where each finding points, and
// that one gate seen twice (a file and the script loading it) is reported once.
#include <catch2/catch.hpp>

#include "invariants/modules.h"
#include "tests/gates_test_util.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace gates_checks_test {

using namespace sbr;

namespace {

std::vector<Finding> run(const Model& m) {
  Findings f;
  inv::check_gates(m, f);
  return f.items();
}

std::vector<std::string> rules(const std::vector<Finding>& fs) {
  std::vector<std::string> out;
  for (const auto& f : fs) out.push_back(f.rule_id);
  return out;
}

}  // namespace

TEST_CASE("SB5072 once per gate, at the default deny", "[gates]") {
  Model m;
  m.files.add("egress.nft");
  FilePart part;
  read_nft_file(test::gate_file(0, "egress.nft", test::read_gate_fixture("egress-ipv4-only.nft"),
                                FileType::Nft),
                part);
  REQUIRE(part.scripts.size() == 1);
  m.scripts.push_back(part.scripts[0]);
  m.scripts.push_back(part.scripts[0]);  // the same file loaded by a script: one finding
  auto fs = run(m);
  REQUIRE(rules(fs) == std::vector<std::string>{"SB5072"});
  CHECK(fs[0].at.line == 13);
  CHECK(fs[0].subject == "egress.nft");
  CHECK(fs[0].fact_path == "egress-family:egress.nft: ip sandbox_egress (hook output)");
}

TEST_CASE("SB5070 and SB5071 on squid configs", "[gates]") {
  Model m;
  m.files.add("open.squid.conf");
  m.files.add("closed.squid.conf");
  for (FileId id : {0u, 1u}) {
    FilePart part;
    read_squid_file(test::gate_file(id, m.files.path(id), test::read_gate_fixture(m.files.path(id)),
                                    FileType::Squid),
                    part);
    REQUIRE(part.scripts.size() == 1);
    m.scripts.push_back(part.scripts[0]);
  }
  auto fs = run(m);
  REQUIRE(rules(fs) == std::vector<std::string>{"SB5070", "SB5071"});
  CHECK(fs[0].at.line == 9);
  CHECK(fs[0].at.file == 0);
  CHECK(fs[1].at.line == 9);
}

TEST_CASE("SB5074 points at the capability the workload keeps", "[gates]") {
  Model m;
  m.files.add("run.sh");
  Workload w;
  w.engine = Engine::Podman;
  w.object_from.at = Location{0, 9, 1};
  w.identity.cap_add.push_back(
      fact(Capability::NetAdmin, Provenance{Location{0, 9, 24}, Frontend::Bash, {}}));
  EgressGate g;
  g.kind = GateKind::Nft;
  g.name = "inet t (hook output)";
  g.hook = GateHook::NetnsOutput;
  g.denies_v4 = g.denies_v6 = true;
  g.removable_by_workload = true;
  g.from.at = Location{0, 4, 5};
  w.network.egress.push_back(g);
  m.workloads.push_back(w);
  auto fs = run(m);
  REQUIRE(rules(fs) == std::vector<std::string>{"SB5074"});
  CHECK(fs[0].at.line == 9);
  CHECK(fs[0].at.column == 24);
  REQUIRE(fs[0].related.size() == 1);
  CHECK(fs[0].related[0].at.line == 4);
}

TEST_CASE("SB5075 once per workload, only without a direct block", "[gates]") {
  Model m;
  m.files.add("pod.yaml");
  Workload w;
  w.object_from.at = Location{0, 1, 1};
  for (const char* n : {"https_proxy", "HTTP_PROXY"}) {
    EnvVar e;
    e.name = n;
    e.value = "http://proxy:3128";
    e.from.at = Location{0, 12, 14};
    w.env.push_back(e);
  }
  m.workloads.push_back(w);
  auto fs = run(m);
  REQUIRE(rules(fs) == std::vector<std::string>{"SB5075"});
  CHECK(fs[0].fact_path == "env:https_proxy");

  EgressGate squid;  // a proxy alone is not a block
  squid.kind = GateKind::Squid;
  squid.denies_v4 = squid.denies_v6 = true;
  m.workloads[0].network.egress.push_back(squid);
  CHECK(rules(run(m)) == std::vector<std::string>{"SB5075"});

  EgressGate nft = squid;
  nft.kind = GateKind::Nft;
  m.workloads[0].network.egress.push_back(nft);
  CHECK(run(m).empty());
}

TEST_CASE("SB5073 at the deny a switch guards, reported unconditionally", "[gates]") {
  Model m;
  m.files.add("gate.sh");
  ScriptFacts sf;
  sf.file = 0;
  EgressGate g;
  g.kind = GateKind::Nft;
  g.name = "inet egress (hook output)";
  g.hook = GateHook::Output;
  g.from.at = Location{0, 8, 1};
  g.switched_deny =
      Provenance{Location{0, 11, 41}, Frontend::Nft, {"when ALLOWED_IPS is set", true}};
  sf.gates.push_back(g);
  m.scripts.push_back(sf);
  auto fs = run(m);
  REQUIRE(rules(fs) == std::vector<std::string>{"SB5073"});
  CHECK(fs[0].at.line == 11);
  CHECK(fs[0].condition().always());
  CHECK(fs[0].message.find("only applied when ALLOWED_IPS is set") != std::string::npos);

  m.scripts[0].gates[0].denies_v4 = true;  // denied on the default path anyway: nothing
  m.scripts[0].gates[0].denies_v6 = true;
  CHECK(run(m).empty());
}

TEST_CASE("SB5072 once per ruleset even with output and forward gates", "[gates]") {
  Model m;
  m.files.add("init-firewall.sh");
  std::vector<Problem> problems;
  ScriptFacts sf;
  sf.file = 0;
  sf.gates =
      test::collect_gates("iptables -P OUTPUT DROP\niptables -P FORWARD DROP\n", 0, problems);
  REQUIRE(sf.gates.size() == 2);
  m.scripts.push_back(sf);
  auto fs = run(m);
  REQUIRE(rules(fs) == std::vector<std::string>{"SB5072"});
  CHECK(fs[0].at.line == 1);
}

}  // namespace gates_checks_test
