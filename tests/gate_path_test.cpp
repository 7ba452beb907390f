// Engine gate-path functions: which host hook a workload's traffic crosses, what it holds that
// could remove a gate, and how a recorded link becomes an attached gate. The frontend only
// records links (frontends/gates/gate_link.cpp); these answer for every check.
#include <catch2/catch.hpp>

#include "analyzer/engine/gate_path.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace gate_path_test {

using namespace sbr;

namespace {

Workload workload(Engine e, std::optional<NetMode> mode) {
  Workload w;
  w.engine = e;
  if (mode) w.network.mode = Fact<NetMode>{*mode, Provenance{}};
  return w;
}

EgressGate output_gate() {
  EgressGate g;
  g.kind = GateKind::Nft;
  g.hook = GateHook::Output;
  g.name = "egress";
  g.denies_v4 = true;
  return g;
}

}  // namespace

TEST_CASE("engine: what a workload holds that could remove a gate", "[gates][engine]") {
  Workload w = workload(Engine::Docker, std::nullopt);
  CHECK_FALSE(engine::holds_net_admin(w));
  w.identity.privileged = Fact<bool>{true, Provenance{}};
  CHECK(engine::holds_net_admin(w));
  Workload c = workload(Engine::Docker, std::nullopt);
  c.identity.cap_add.push_back(Fact<Capability>{Capability::All, Provenance{}});
  CHECK(engine::holds_net_admin(c));
}

TEST_CASE("engine: which host hook a workload's traffic misses", "[gates][engine]") {
  using engine::HookMiss;
  CHECK(engine::hook_missed(workload(Engine::Docker, NetMode::Host), GateHook::Forward) ==
        HookMiss::HostNetworkSkipsForward);
  CHECK(engine::hook_missed(workload(Engine::Docker, NetMode::Host), GateHook::Output) ==
        HookMiss::None);
  CHECK(engine::hook_missed(workload(Engine::Podman, std::nullopt), GateHook::Forward) ==
        HookMiss::RootlessRelaySkipsForward);
  CHECK(engine::hook_missed(workload(Engine::Docker, std::nullopt), GateHook::Output) ==
        HookMiss::BridgedSkipsOutput);
  CHECK(engine::hook_missed(workload(Engine::Docker, NetMode::None), GateHook::Output) ==
        HookMiss::None);
  Workload rootful = workload(Engine::Podman, std::nullopt);
  rootful.rootful = Fact<bool>{true, Provenance{}};
  CHECK(engine::hook_missed(rootful, GateHook::Output) == HookMiss::BridgedSkipsOutput);
  CHECK(engine::leaves_as_host_process(workload(Engine::Podman, NetMode::Named)));
  CHECK_FALSE(engine::leaves_as_host_process(rootful));
  CHECK(engine::bridged(rootful));
}

TEST_CASE("engine: a link becomes a gate on the workload's path", "[gates][engine]") {
  Workload w = workload(Engine::Podman, std::nullopt);
  w.identity.cap_add.push_back(Fact<Capability>{Capability::NetAdmin, Provenance{}});
  GateLink load{0, 0, 0, GateVia::CommandLoad, false};
  auto g = engine::gate_on_path(w, output_gate(), load);
  REQUIRE(g.has_value());
  CHECK(g->hook == GateHook::NetnsOutput);  // loaded inside: the container's own namespace
  CHECK(g->removable_by_workload);
  load.command_drops_bounding_set = true;
  CHECK_FALSE(engine::gate_on_path(w, output_gate(), load)->removable_by_workload);
  EgressGate forward = output_gate();
  forward.hook = GateHook::Forward;
  CHECK_FALSE(engine::gate_on_path(w, forward, GateLink{0, 0, 0, GateVia::Entrypoint, false}));
  // The launcher's own host OUTPUT ruleset filters a rootless podman container.
  auto host = engine::gate_on_path(w, output_gate(), GateLink{});
  REQUIRE(host.has_value());
  CHECK(host->hook == GateHook::Output);
  CHECK_FALSE(host->removable_by_workload);  // rootless: no host NET_ADMIN

  Model m;
  m.workloads.push_back(workload(Engine::Docker, NetMode::None));
  m.workloads.back().network.mode->from.at.line = 7;
  engine::attach_gates(m);
  REQUIRE(m.workloads[0].network.egress.size() == 1);
  CHECK(m.workloads[0].network.egress[0].kind == GateKind::NetworkNone);
  engine::attach_gates(m);  // idempotent
  CHECK(m.workloads[0].network.egress.size() == 1);
}

}  // namespace gate_path_test
