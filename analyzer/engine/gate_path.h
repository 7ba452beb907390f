// Which traffic path a workload's egress takes and which linked gates sit on it
// (INVARIANTS.md 5):
// - a launcher's host ruleset filters its bridged containers at FORWARD (DOCKER-USER), and at
//   OUTPUT only the traffic that leaves from a host process: --network host, and rootless
//   podman's pasta/slirp4netns, which relay the container's connections as the user's own;
// - a ruleset the container's own entrypoint loads (a repository script it runs, a script its
//   devcontainer lifecycle commands run, or an nft file its command names) filters that
//   container at its OUTPUT;
// - `--network none`, and an `--internal` network created by the same script, deny everything;
// - a squid proxy counts only for a workload pointed at a proxy whose direct egress is blocked.
// And what the workload holds that could remove a gate: NET_ADMIN (cap_add or privileged) in
// the namespace the gate lives in.
#pragma once

#include <optional>
#include <vector>

#include "analyzer/model/model.h"

namespace sbr::engine {

// The container's connections leave as a host process (host network, pasta, slirp4netns,
// rootless podman): they cross the host's OUTPUT hook.
bool leaves_as_host_process(const Workload& w);
// The container's packets are forwarded by the host from a bridge: they cross FORWARD.
bool bridged(const Workload& w);
// NET_ADMIN in the workload's bounding set: cap_add NET_ADMIN / ALL, or privileged.
bool holds_net_admin(const Workload& w);

// The gate as it filters `w` through `link` (its hook, whether `w` can remove it), or nullopt
// when the gate is not on `w`'s path.
std::optional<EgressGate> gate_on_path(const Workload& w, const EgressGate& g,
                                       const GateLink& link);

// Why a host hook misses a workload's traffic; None when the hook is crossed, or when no
// traffic of the workload reaches the host (network none, another container's namespace).
enum class HookMiss : std::uint8_t {
  None,
  HostNetworkSkipsForward,    // --network host: the traffic is the host's own (OUTPUT)
  RootlessRelaySkipsForward,  // rootless podman relays through pasta/slirp4netns (OUTPUT)
  BridgedSkipsOutput,         // a bridged container is forwarded (FORWARD, DOCKER-USER)
};
HookMiss hook_missed(const Workload& w, GateHook hook);

// A script's firewall ruleset (nft, iptables) that no GateLink names: no analysed launcher or
// workload uses it, so it is judged on its own, as written. A gate that shares its location
// with a linked one (an nft file a linked script loads) counts as linked. In model order.
struct UnlinkedGate {
  const ScriptFacts* script = nullptr;
  const EgressGate* gate = nullptr;
};
std::vector<UnlinkedGate> unlinked_gates(const Model& model);

// Attaches to every workload the gates on its path: `--network none` as a gate, then each
// linked script gate in link order (a ruleset a container loads also filters the workloads
// whose namespace it joins: a firewall sidecar's sandbox), then linked proxies when direct
// egress is denied. A sidecar holding NET_ADMIN whose command nothing in the input fills is
// recorded on the namespace it joins (Network::unseen_setup).
void attach_gates(Model& model);

}  // namespace sbr::engine
