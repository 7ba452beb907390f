#include "analyzer/engine/gate_path.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <tuple>

namespace sbr::engine {
namespace {

NetMode mode_of(const Workload& w) {
  return w.network.mode ? w.network.mode->value : NetMode::EngineDefault;
}

bool rootful(const Workload& w) {
  return w.rootful && w.rootful->value;
}

void attach(Workload& w, EgressGate g) {
  for (const auto& e : w.network.egress) {
    // The same load on another path (another input of its heredoc) is another gate.
    if (e.kind == g.kind && e.name == g.name && e.from.at == g.from.at &&
        e.from.condition().text == g.from.condition().text)
      return;
  }
  w.network.egress.push_back(std::move(g));
}

bool denies_directly(const Workload& w) {
  if (mode_of(w) == NetMode::None) return true;
  return std::any_of(w.network.egress.begin(), w.network.egress.end(), [](const EgressGate& g) {
    return g.kind != GateKind::Squid && (g.denies_v4 || g.denies_v6);
  });
}

// A host ruleset of the workload's own launcher.
std::optional<EgressGate> host_gate(const Workload& w, EgressGate g) {
  bool on_path = false;
  switch (g.hook) {
    case GateHook::None:
      on_path = g.kind == GateKind::InternalNetwork && mode_of(w) == NetMode::Named &&
                w.network.mode_arg == g.name;
      break;
    case GateHook::Forward:
      on_path = bridged(w);
      break;
    case GateHook::Output:
      on_path = leaves_as_host_process(w);
      // Only a rootful engine gives a host-network container the host's NET_ADMIN.
      g.removable_by_workload = mode_of(w) == NetMode::Host && holds_net_admin(w) &&
                                (w.engine == Engine::Docker || rootful(w));
      break;
    case GateHook::NetnsOutput:
      on_path = mode_of(w) != NetMode::Host && mode_of(w) != NetMode::None;
      g.removable_by_workload = holds_net_admin(w) && !g.setup_caps_dropped;
      break;
  }
  if (!on_path) return std::nullopt;
  return g;
}

// The workloads whose network namespace `w` joins (`network_mode: service:X` in its compose
// project, `--network container:X` from its own launcher): a ruleset loaded inside `w` filters
// theirs too, since it is one namespace.
std::vector<std::size_t> joined_namespaces(const Model& model, const Workload& w) {
  std::vector<std::size_t> out;
  if (mode_of(w) != NetMode::Container || w.network.mode_arg.empty()) return out;
  for (std::size_t i = 0; i < model.workloads.size(); ++i) {
    const Workload& x = model.workloads[i];
    if (&x == &w || x.id.container != w.network.mode_arg || x.engine != w.engine) continue;
    bool same_project = w.engine == Engine::Compose
                            ? x.id.name == w.id.name
                            : x.object_from.at.file == w.object_from.at.file;
    if (same_project) out.push_back(i);
  }
  return out;
}

// What a joiner holding NET_ADMIN runs in the namespace that sbreview could not read: the
// paths its command or lifecycle commands run that nothing fills from the input, or, with no
// command and no build in the input, its image's own start.
std::string unseen_run(const Workload& j) {
  if (!j.unresolved_runs.empty()) {
    const auto& u = j.unresolved_runs.front();
    return fmt::format("runs `{}` ({}), which no file of the input is", u.path, u.runner);
  }
  if (j.command.empty() && j.dockerfile.empty())
    return fmt::format("runs what its image {} starts, which the input does not build", j.image);
  return "";
}

// A sidecar that sets up another's namespace from a file sbreview could not read: the
// namespace's egress is judged without what it loads, and says so.
// The sidecar's own egress is that namespace's too.
void note_unseen_setup(Model& model) {
  for (std::size_t ji = 0; ji < model.workloads.size(); ++ji) {
    const Workload& j = model.workloads[ji];
    if (!holds_net_admin(j)) continue;
    const std::string run = unseen_run(j);
    std::vector<std::size_t> joined =
        run.empty() ? std::vector<std::size_t>{} : joined_namespaces(model, j);
    if (joined.empty()) continue;
    Fact<std::string> note =
        fact(fmt::format("{} {} joins its network namespace holding NET_ADMIN and {}",
                         j.engine == Engine::Compose ? "compose service" : "container",
                         j.id.container, run),
             j.network.mode->from);
    joined.push_back(ji);
    for (std::size_t x : joined) model.workloads[x].network.unseen_setup.push_back(note);
  }
}

}  // namespace

// Rootless podman relays the container's connections through pasta/slirp4netns, processes of
// the user on the host (named networks too: they live in the rootless network namespace), so
// their packets cross the host's OUTPUT, not FORWARD. Podman without a known rootful launch is
// taken as rootless, its default.
bool leaves_as_host_process(const Workload& w) {
  NetMode m = mode_of(w);
  if (m == NetMode::Host || m == NetMode::Pasta || m == NetMode::Slirp4netns) return true;
  bool rootless_podman = w.engine == Engine::Podman && !rootful(w);
  return rootless_podman &&
         (m == NetMode::EngineDefault || m == NetMode::Bridge || m == NetMode::Named);
}

bool bridged(const Workload& w) {
  NetMode m = mode_of(w);
  bool on_bridge = m == NetMode::Bridge || m == NetMode::Named || m == NetMode::EngineDefault;
  return on_bridge && !leaves_as_host_process(w);
}

bool holds_net_admin(const Workload& w) {
  if (w.identity.privileged && w.identity.privileged->value) return true;
  return std::any_of(w.identity.cap_add.begin(), w.identity.cap_add.end(), [](const auto& c) {
    return c.value == Capability::NetAdmin || c.value == Capability::All;
  });
}

std::optional<EgressGate> gate_on_path(const Workload& w, const EgressGate& g,
                                       const GateLink& link) {
  if (g.kind == GateKind::Squid) return std::nullopt;  // proxies: attach_gates, after the rest
  switch (link.via) {
    case GateVia::SameScript:
      return host_gate(w, g);
    case GateVia::CommandLoad:
    case GateVia::Entrypoint: {
      // Loaded inside the container: it filters the container's own namespace, and the
      // workload can flush it unless NET_ADMIN is gone from the bounding set.
      if (g.hook != GateHook::Output) return std::nullopt;
      EgressGate copy = g;
      copy.hook = GateHook::NetnsOutput;
      bool dropped =
          link.via == GateVia::CommandLoad ? link.command_drops_bounding_set : g.setup_caps_dropped;
      copy.removable_by_workload = holds_net_admin(w) && !dropped;
      return copy;
    }
    case GateVia::ContainerExec: {
      // In the exec'd container's namespace, which the workload is or shares: the workload
      // can flush it with NET_ADMIN unless the script cleared the bounding set.
      EgressGate copy = g;
      copy.hook = GateHook::NetnsOutput;
      copy.removable_by_workload = holds_net_admin(w) && !g.setup_caps_dropped;
      return copy;
    }
    case GateVia::Proxy:
      return std::nullopt;
  }
  return std::nullopt;
}

HookMiss hook_missed(const Workload& w, GateHook hook) {
  NetMode m = mode_of(w);
  if (m == NetMode::None || m == NetMode::Container || m == NetMode::Namespace)
    return HookMiss::None;
  bool forward = hook == GateHook::Forward;
  if (m == NetMode::Host) return forward ? HookMiss::HostNetworkSkipsForward : HookMiss::None;
  bool rootless = w.engine == Engine::Podman && !rootful(w);
  if (forward) return rootless ? HookMiss::RootlessRelaySkipsForward : HookMiss::None;
  if (m == NetMode::Pasta || m == NetMode::Slirp4netns || rootless) return HookMiss::None;
  return HookMiss::BridgedSkipsOutput;
}

std::vector<UnlinkedGate> unlinked_gates(const Model& model) {
  // A ruleset loaded with another path's input (a heredoc whose allowlist an option widens) is
  // written at the same place as the default one, on its own path.
  using Key = std::tuple<int, FileId, std::uint32_t, std::uint32_t, std::string>;
  auto key = [](const EgressGate& g) {
    return Key{static_cast<int>(g.kind), g.from.at.file, g.from.at.line, g.from.at.column,
               g.from.condition().text};
  };
  std::set<Key> linked;
  for (const GateLink& l : model.gate_links) {
    if (l.script >= model.scripts.size() || l.gate >= model.scripts[l.script].gates.size())
      continue;
    linked.insert(key(model.scripts[l.script].gates[l.gate]));
  }
  std::vector<UnlinkedGate> out;
  std::set<Key> seen;
  for (const ScriptFacts& s : model.scripts) {
    for (const EgressGate& g : s.gates) {
      if (g.kind != GateKind::Nft && g.kind != GateKind::Iptables) continue;
      if (linked.count(key(g)) != 0 || !seen.insert(key(g)).second) continue;
      out.push_back({&s, &g});
    }
  }
  return out;
}

void attach_gates(Model& model) {
  for (Workload& w : model.workloads) {
    if (mode_of(w) != NetMode::None) continue;
    EgressGate g;
    g.kind = GateKind::NetworkNone;
    g.name = "none";
    g.denies_v4 = g.denies_v6 = true;
    g.from = w.network.mode->from;
    attach(w, std::move(g));
  }
  for (const GateLink& l : model.gate_links) {
    if (l.workload >= model.workloads.size() || l.script >= model.scripts.size()) continue;
    const auto& gates = model.scripts[l.script].gates;
    if (l.gate >= gates.size() || l.via == GateVia::Proxy) continue;
    Workload& w = model.workloads[l.workload];
    if (auto g = gate_on_path(w, gates[l.gate], l)) attach(w, std::move(*g));
    if (l.via != GateVia::Entrypoint && l.via != GateVia::CommandLoad) continue;
    // A firewall sidecar: loaded in the namespace it shares with the sandbox, which it
    // filters as well; whether the sandbox can flush it is the sandbox's NET_ADMIN.
    for (std::size_t x : joined_namespaces(model, model.workloads[l.workload])) {
      if (auto g = gate_on_path(model.workloads[x], gates[l.gate], l))
        attach(model.workloads[x], std::move(*g));
    }
  }
  note_unseen_setup(model);
  // A proxy is a gate only when direct egress is blocked too.
  for (const GateLink& l : model.gate_links) {
    if (l.via != GateVia::Proxy || l.workload >= model.workloads.size() ||
        l.script >= model.scripts.size() || l.gate >= model.scripts[l.script].gates.size())
      continue;
    Workload& w = model.workloads[l.workload];
    if (denies_directly(w)) attach(w, model.scripts[l.script].gates[l.gate]);
  }
}

}  // namespace sbr::engine
