// Which script's gates a workload is linked to, as the gates frontend observes it: the ruleset
// was built by the workload's own launcher, by the entrypoint or setup script the container
// runs, by an nft file the container's command loads, or it is a proxy the workload is pointed
// at. Whether the gate then sits on the workload's traffic path, and whether the workload can
// remove it, is the engine's answer (engine/gate_path.h), not the frontend's.
#pragma once

#include <cstddef>
#include <cstdint>

namespace sbr {

enum class GateVia : std::uint8_t {
  SameScript,   // the launcher that started the workload built the gate (a host ruleset)
  Entrypoint,   // a script the container runs first, or a setup command runs, loads it inside
  CommandLoad,  // the container's own command runs `nft -f` on the gate's file
  Proxy,        // a squid gate, and the workload has a proxy variable set
  // `podman|docker exec CTR nft|iptables ...` loads the ruleset into the running container CTR:
  // it filters CTR (a launch `--name CTR`) and every workload that joins CTR's network
  // namespace (`--network container:CTR`, compose `network_mode: service:CTR`).
  ContainerExec,
};

struct GateLink {
  std::size_t workload = 0;  // index into Model::workloads
  std::size_t script = 0;    // index into Model::scripts
  std::size_t gate = 0;      // index into that script's gates
  GateVia via = GateVia::SameScript;
  // CommandLoad: the container's command drops NET_ADMIN from the bounding set (setpriv
  // --bounding-set -all / -net_admin, capsh --drop) before it hands over.
  bool command_drops_bounding_set = false;
};

}  // namespace sbr
