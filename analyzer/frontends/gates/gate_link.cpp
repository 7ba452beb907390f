// Which gates filter which workload's traffic (INVARIANTS.md 5):
// - a launcher's host ruleset filters its bridged containers at FORWARD (DOCKER-USER), and at
//   OUTPUT only the traffic that leaves from a host process: --network host, and rootless
//   podman's pasta/slirp4netns, which relay the container's connections as the user's own;
// - a ruleset the container's own entrypoint loads (a repository script it runs, a script its
//   devcontainer lifecycle commands run, or an nft file its command names) filters that
//   container at its OUTPUT;
// - `--network none`, and an `--internal` network created by the same script, deny everything;
// - a squid proxy counts only for a workload pointed at a proxy whose direct egress is blocked.
#include <algorithm>
#include <map>
#include <tuple>

#include "analyzer/frontends/gates/gates.h"
#include "analyzer/support/strings.h"

namespace sbr {
namespace {

NetMode mode_of(const Workload& w) {
  return w.network.mode ? w.network.mode->value : NetMode::EngineDefault;
}

// Rootless podman relays the container's connections through pasta/slirp4netns, processes of
// the user on the host (named networks too: they live in the rootless network namespace), so
// their packets cross the host's OUTPUT, not FORWARD. Podman without a known rootful launch is
// taken as rootless, its default.
bool leaves_as_host_process(const Workload& w) {
  NetMode m = mode_of(w);
  if (m == NetMode::Host || m == NetMode::Pasta || m == NetMode::Slirp4netns) return true;
  bool rootless_podman = w.engine == Engine::Podman && !(w.rootful && w.rootful->value);
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
  for (const auto& c : w.identity.cap_add) {
    if (c.value == Capability::NetAdmin || c.value == Capability::All) return true;
  }
  return false;
}

bool is_proxy_env(const std::string& name) {
  std::string n = lower(name);
  return n == "http_proxy" || n == "https_proxy" || n == "all_proxy";
}

bool is_shell(const std::string& b) {
  return b == "sh" || b == "bash" || b == "dash" || b == "tini" || b == "dumb-init" ||
         b == "catatonit" || b == "sudo" || b == "env" || b == "-c" || b == "--";
}

// Base names the container runs first: its entrypoint, or the script a shell or init runs.
std::vector<std::string> entry_names(const Workload& w) {
  std::vector<std::string> out;
  for (size_t i = 0; i < w.command.size() && i < 4; ++i) {
    std::string b = base_name(w.command[i].value);
    if (b.empty() || b[0] == '-') continue;
    out.push_back(b);
    if (!is_shell(b)) break;
  }
  return out;
}

std::string joined_command(const Workload& w) {
  std::string out;
  for (const auto& c : w.command) out += c.value + " ";
  return out;
}

// `nft -f /etc/sandbox/egress.nft && exec ...` in the container's own command.
bool command_loads(const std::string& cmd, const std::string& path) {
  std::string b = base_name(path);
  return !b.empty() && cmd.find("nft") != std::string::npos && cmd.find(b) != std::string::npos;
}

bool command_drops_bounding_set(const std::string& cmd) {
  bool setpriv =
      cmd.find("--bounding-set") != std::string::npos &&
      (cmd.find("-all") != std::string::npos || cmd.find("-net_admin") != std::string::npos);
  bool capsh = cmd.find("capsh") != std::string::npos && cmd.find("--drop") != std::string::npos;
  return setpriv || capsh;
}

// A script the container runs around its start (devcontainer postCreateCommand...). The
// initializeCommand runs on the host before the container exists: not inside.
bool setup_runs(const Workload& w, const std::string& path) {
  const std::string b = base_name(path);
  for (const auto& c : w.setup_commands) {
    if (c.value.rfind("initializeCommand", 0) == 0) continue;
    if (!b.empty() && c.value.find(b) != std::string::npos) return true;
  }
  return false;
}

void attach(Workload& w, EgressGate g) {
  for (const auto& e : w.network.egress) {
    if (e.kind == g.kind && e.name == g.name && e.from.at == g.from.at) return;
  }
  w.network.egress.push_back(std::move(g));
}

bool denies_directly(const Workload& w) {
  if (mode_of(w) == NetMode::None) return true;
  return std::any_of(w.network.egress.begin(), w.network.egress.end(), [](const EgressGate& g) {
    return g.kind != GateKind::Squid && (g.denies_v4 || g.denies_v6);
  });
}

}  // namespace

void link_gates(Model& model) {
  // Scripts in a stable order, so the attached gates do not depend on file read order.
  std::vector<const ScriptFacts*> scripts;
  for (const auto& s : model.scripts) {
    if (!s.gates.empty()) scripts.push_back(&s);
  }
  std::stable_sort(scripts.begin(), scripts.end(), [&](const ScriptFacts* a, const ScriptFacts* b) {
    return std::make_tuple(model.files.path(a->file), a->gates.front().from.at.line) <
           std::make_tuple(model.files.path(b->file), b->gates.front().from.at.line);
  });

  for (Workload& w : model.workloads) {
    if (mode_of(w) == NetMode::None) {
      EgressGate g;
      g.kind = GateKind::NetworkNone;
      g.name = "none";
      g.denies_v4 = g.denies_v6 = true;
      g.from = w.network.mode->from;
      attach(w, std::move(g));
    }
    const FileId launcher = w.object_from.at.file;
    auto entries = entry_names(w);
    const std::string cmd = joined_command(w);
    for (const ScriptFacts* s : scripts) {
      const std::string& path = model.files.path(s->file);
      bool same_script = s->file == launcher;
      bool entrypoint =
          !same_script && model.files.path(s->file).size() > 0 &&
          (std::find(entries.begin(), entries.end(), base_name(path)) != entries.end() ||
           setup_runs(w, path));
      bool loaded_by_command = !same_script && command_loads(cmd, path);
      for (const EgressGate& g : s->gates) {
        if (g.kind == GateKind::Squid) continue;
        EgressGate copy = g;
        bool on_path = false;
        if (same_script) {
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
              copy.removable_by_workload =
                  mode_of(w) == NetMode::Host && holds_net_admin(w) &&
                  (w.engine == Engine::Docker || (w.rootful && w.rootful->value));
              break;
            case GateHook::NetnsOutput:
              on_path = mode_of(w) != NetMode::Host && mode_of(w) != NetMode::None;
              copy.removable_by_workload = holds_net_admin(w) && !g.setup_caps_dropped;
              break;
          }
        } else if (loaded_by_command && g.hook == GateHook::Output) {
          on_path = true;
          copy.hook = GateHook::NetnsOutput;
          copy.removable_by_workload = holds_net_admin(w) && !command_drops_bounding_set(cmd);
        } else if (entrypoint && g.hook == GateHook::Output) {
          // Loaded inside the container: it filters the container's own namespace, and the
          // workload can flush it unless NET_ADMIN is gone from the bounding set.
          on_path = true;
          copy.hook = GateHook::NetnsOutput;
          copy.removable_by_workload = holds_net_admin(w) && !g.setup_caps_dropped;
        }
        if (on_path) attach(w, std::move(copy));
      }
    }
    // A proxy is a gate only when direct egress is blocked too.
    bool proxied = std::any_of(w.env.begin(), w.env.end(),
                               [](const EnvVar& e) { return is_proxy_env(e.name); });
    if (proxied && denies_directly(w)) {
      for (const ScriptFacts* s : scripts) {
        for (const EgressGate& g : s->gates) {
          if (g.kind == GateKind::Squid) attach(w, g);
        }
      }
    }
  }
}

}  // namespace sbr
