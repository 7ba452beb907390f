// Symbolic identity: a container started with `--name "$NAME"`, NAME an unknown value set once,
// is the container `podman exec "$NAME" nft ...` loads rules into and the one
// `--network container:$NAME` joins; a compose service a script execs into is linked the same
// way (GateVia::ContainerExec).
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "analyzer/pipeline/analysis.h"
#include "analyzer/source/memory_tree.h"
#include "tests/bash_helpers.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace bash_identity_test {

using namespace sbr;

namespace {

const char* kRuleset =
    "table inet egress {\n"
    "  chain out {\n"
    "    type filter hook output priority 0; policy drop;\n"
    "    tcp dport 443 accept\n"
    "  }\n"
    "}\n";

Model model_of(const MemoryTree& t) {
  return analyze(t, Config{}, {}).model;
}

// The workloads each ContainerExec link attaches the gate to, by container name.
std::vector<std::string> exec_linked(const Model& m) {
  std::vector<std::string> out;
  for (const GateLink& l : m.gate_links) {
    if (l.via == GateVia::ContainerExec) out.push_back(m.workloads[l.workload].id.container);
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("a word's identity is the same wherever one value is used", "[bash-identity]") {
  auto r = test::render_text(
      "NAME=\"agent-$(date +%s)\"\n"
      "podman run --name \"$NAME\" a\n"
      "podman exec \"$NAME\" true\n"
      "OTHER=$(uuidgen)\n"
      "podman run --name \"$OTHER\" --label \"$CTR\" --label \"${CTR:-gw}\" --label \"$RANDOM\" b\n"
      "shift\n"
      "podman run --name \"$1\" c\n");
  REQUIRE(r.invocations.size() >= 4);
  auto word = [&](std::size_t inv, std::size_t w) { return r.invocations[inv].argv[w]; };
  // date, podman run a, podman exec, uuidgen, podman run b, podman run c
  const Word name_a = word(1, 3);
  CHECK(name_a.identity == "$NAME@launch.sh:1");  // the value as assigned
  CHECK(name_a.name() == name_a.identity);
  CHECK(word(2, 2).identity == name_a.identity);  // the same value at its second use
  CHECK(word(4, 3).identity == "$OTHER@launch.sh:4");
  CHECK(word(4, 5).identity == "$CTR");      // the environment: one value for the run
  CHECK(word(4, 7).identity == "$CTR:-gw");  // the same expression of that value
  CHECK(word(4, 9).identity.empty());        // a new number at every expansion
  CHECK(word(5, 3).identity == "$2");        // after one shift, $1 is the second argument
}

TEST_CASE("podman exec \"$NAME\" links its rules to the --name \"$NAME\" launch and its joiners",
          "[bash-identity]") {
  MemoryTree t;
  t.add_file("run.sh",
             std::string("#!/bin/bash\nset -euo pipefail\n"
                         "GW=\"egress-$(date +%s)\"\n"
                         "podman run -d --rm --name \"$GW\" --cap-drop=ALL gw:1 sleep infinity\n"
                         "podman exec -i \"$GW\" nft -f - <<'EOF'\n") +
                 kRuleset +
                 "EOF\n"
                 "podman run --rm --network container:\"$GW\" --cap-drop=ALL agent:1\n"
                 "podman run --rm --cap-drop=ALL docs:1\n");
  Model m = model_of(t);
  const std::string gw = "$GW@run.sh:3";
  // The gateway itself (named by the identity) and the unnamed launch that joins it.
  CHECK(exec_linked(m) == std::vector<std::string>{gw, "line 13"});
  std::size_t joined = 0;
  for (const Workload& w : m.workloads) joined += w.network.mode_arg == gw ? 1 : 0;
  CHECK(joined == 1);
}

TEST_CASE("another assignment of the variable is another container", "[bash-identity]") {
  MemoryTree t;
  t.add_file("run.sh",
             std::string("#!/bin/bash\nset -euo pipefail\n"
                         "GW=\"egress-$(date +%s)\"\n"
                         "podman run -d --rm --name \"$GW\" --cap-drop=ALL gw:1 sleep infinity\n"
                         "GW=\"other-$(date +%s)\"\n"
                         "podman exec -i \"$GW\" nft -f - <<'EOF'\n") +
                 kRuleset + "EOF\n");
  Model m = model_of(t);
  CHECK(exec_linked(m).empty());
}

TEST_CASE("compose exec into a service gates it and the services on service:NAME",
          "[bash-identity]") {
  MemoryTree t;
  t.add_file("compose.yaml",
             "services:\n"
             "  gateway:\n"
             "    image: gw:1\n"
             "    cap_add: [NET_ADMIN]\n"
             "  agent:\n"
             "    image: agent:1\n"
             "    network_mode: service:gateway\n"
             "  docs:\n"
             "    image: docs:1\n");
  t.add_file("up.sh",
             "#!/bin/bash\nset -euo pipefail\n"
             "docker compose up -d\n"
             "docker compose exec gateway iptables -P OUTPUT DROP\n"
             "docker compose exec gateway ip6tables -P OUTPUT DROP\n"
             "docker compose exec gateway iptables -A OUTPUT -p tcp --dport 443 -j ACCEPT\n");
  Model m = model_of(t);
  std::vector<std::string> linked = exec_linked(m);
  CHECK(std::count(linked.begin(), linked.end(), "gateway") >= 1);
  CHECK(std::count(linked.begin(), linked.end(), "agent") >= 1);
  CHECK(std::count(linked.begin(), linked.end(), "docs") == 0);
}

}  // namespace bash_identity_test
