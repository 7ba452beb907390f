// Which gates a workload meets, as written: the gates its own launcher script builds, those of
// a script the container runs first (its entrypoint, or a script a devcontainer lifecycle
// command runs), those of an nft file its command loads, and squid proxies when it has a proxy
// variable. Recorded as GateLinks; whether each gate is on the workload's traffic path and
// whether the workload can remove it is decided by engine::attach_gates (engine/gate_path.h).
#include <algorithm>
#include <map>
#include <tuple>

#include "analyzer/frontends/gates/gates.h"
#include "analyzer/support/strings.h"

namespace sbr {
namespace {

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

// The repository files the container runs first, where its image says which they are: a
// command word that is the in-container path of a file the Dockerfile's COPY/ADD put there,
// and, for a container that keeps its image's ENTRYPOINT/CMD, the start scripts. A basename is
// not evidence once the image tells which file sits at a path.
std::vector<std::string> entry_files(const Workload& w) {
  std::vector<std::string> out;
  for (size_t i = 0; i < w.command.size() && i < 4; ++i) {
    for (const auto& f : w.image_files) {
      if (f.container_path == w.command[i].value) out.push_back(f.repo_path);
    }
  }
  if (w.command.empty()) {
    for (const auto& f : w.start_scripts) out.push_back(f.repo_path);
  }
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

// The workload is the container `podman exec CTR` entered, or joins its network namespace.
bool in_exec_container(const Workload& w, const std::string& ctr) {
  if (ctr.empty()) return false;
  bool joins =
      w.network.mode && w.network.mode->value == NetMode::Container && w.network.mode_arg == ctr;
  return joins || w.id.container == ctr;
}

std::string dir_of(const std::string& path) {
  auto slash = path.rfind('/');
  return slash == std::string::npos ? "" : path.substr(0, slash);
}

// `docker compose ... up` (or run, create, start; `docker-compose up`) among the commands.
bool starts_compose(const ScriptFacts& s) {
  for (const Invocation& inv : s.invocations) {
    if (inv.argv.empty()) continue;
    const std::string b = base_name(inv.argv[0].text);
    std::size_t i = 1;
    if (b == "docker" || b == "podman" || b == "nerdctl") {
      while (i < inv.argv.size() && inv.argv[i].text != "compose") ++i;
      if (i++ >= inv.argv.size()) continue;
    } else if (b != "docker-compose" && b != "podman-compose") {
      continue;
    }
    for (; i < inv.argv.size(); ++i) {
      const std::string& t = inv.argv[i].text;
      if (t == "up" || t == "run" || t == "create" || t == "start") return true;
    }
  }
  return false;
}

// A compose service the script starts: the project it runs with `-f` (its render root), or
// the compose file beside the script or at the root when it runs `compose up` without `-f`.
bool compose_run_by(const Workload& w, const ScriptFacts& s, const Model& model) {
  if (w.engine != Engine::Compose) return false;
  const std::string& script = model.files.path(s.file);
  if (w.id.render_root == script) return true;
  const std::string compose_dir = dir_of(model.files.path(w.object_from.at.file));
  return starts_compose(s) && (compose_dir == dir_of(script) || compose_dir.empty());
}

}  // namespace

void link_gates(Model& model) {
  model.gate_links.clear();
  // Scripts in a stable order, so the links do not depend on file read order.
  std::vector<std::size_t> scripts;
  for (std::size_t i = 0; i < model.scripts.size(); ++i) {
    if (!model.scripts[i].gates.empty()) scripts.push_back(i);
  }
  auto key = [&](std::size_t i) {
    const ScriptFacts& s = model.scripts[i];
    return std::make_tuple(model.files.path(s.file), s.gates.front().from.at.line);
  };
  std::stable_sort(scripts.begin(), scripts.end(),
                   [&](std::size_t a, std::size_t b) { return key(a) < key(b); });

  for (std::size_t wi = 0; wi < model.workloads.size(); ++wi) {
    const Workload& w = model.workloads[wi];
    const FileId launcher = w.object_from.at.file;
    auto entries = entry_names(w);
    const auto files = entry_files(w);
    const std::string cmd = joined_command(w);
    bool proxied = std::any_of(w.env.begin(), w.env.end(),
                               [](const EnvVar& e) { return is_proxy_env(e.name); });
    for (std::size_t si : scripts) {
      const ScriptFacts& s = model.scripts[si];
      const std::string& path = model.files.path(s.file);
      bool same_script = s.file == launcher;
      // The image's own files decide when it names them; the base name only when it does not.
      bool by_name = files.empty() ? std::find(entries.begin(), entries.end(), base_name(path)) !=
                                         entries.end()
                                   : std::find(files.begin(), files.end(), path) != files.end();
      bool entrypoint = !same_script && !path.empty() && (by_name || setup_runs(w, path));
      bool loaded_by_command = !same_script && command_loads(cmd, path);
      for (std::size_t gi = 0; gi < s.gates.size(); ++gi) {
        GateLink l{wi, si, gi, GateVia::SameScript, false};
        const std::string& ctr = s.gates[gi].exec_container;
        if (!ctr.empty()) {
          // Rules inside a named container filter that container's namespace only.
          // Container names are per host, but a name reused by another script is another run:
          // only the launches of the script that runs the exec are linked.
          // A compose service is its project's container: the script that starts the project
          // and execs into SERVICE filters SERVICE and the services on `service:SERVICE`.
          bool started_here = same_script || compose_run_by(w, s, model);
          if (!started_here || !in_exec_container(w, ctr)) continue;
          l.via = GateVia::ContainerExec;
        } else if (s.gates[gi].kind == GateKind::Squid) {
          if (!proxied) continue;
          l.via = GateVia::Proxy;
        } else if (same_script) {
          l.via = GateVia::SameScript;
        } else if (loaded_by_command) {
          l.via = GateVia::CommandLoad;
          l.command_drops_bounding_set = command_drops_bounding_set(cmd);
        } else if (entrypoint) {
          l.via = GateVia::Entrypoint;
        } else {
          continue;
        }
        model.gate_links.push_back(l);
      }
    }
  }
}

}  // namespace sbr
