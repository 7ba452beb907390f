// Which gates a workload meets, as written: the gates its own launcher script builds, those of
// a script the container runs first (its entrypoint, or a script a devcontainer lifecycle
// command runs), those of an nft file its command loads, and squid proxies when it has a proxy
// variable. Recorded as GateLinks; whether each gate is on the workload's traffic path and
// whether the workload can remove it is decided by engine::attach_gates (engine/gate_path.h).
#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "analyzer/frontends/container_paths.h"
#include "analyzer/frontends/gates/gates.h"
#include "analyzer/frontends/gates/run_paths.h"
#include "analyzer/support/strings.h"

namespace sbr {
namespace {

bool is_proxy_env(const std::string& name) {
  std::string n = lower(name);
  return n == "http_proxy" || n == "https_proxy" || n == "all_proxy";
}

std::string joined_command(const Workload& w) {
  std::string out;
  for (const auto& c : w.command) out += c.value + " ";
  return out;
}

bool command_drops_bounding_set(const std::string& cmd) {
  bool setpriv =
      cmd.find("--bounding-set") != std::string::npos &&
      (cmd.find("-all") != std::string::npos || cmd.find("-net_admin") != std::string::npos);
  bool capsh = cmd.find("capsh") != std::string::npos && cmd.find("--drop") != std::string::npos;
  return setpriv || capsh;
}

// A lifecycle command as recorded ("postStartCommand: sudo /usr/local/bin/fw.sh"): its key and
// its text.
std::pair<std::string, std::string> setup_command(const std::string& recorded) {
  std::size_t colon = recorded.find(": ");
  if (colon == std::string::npos) return {"", recorded};
  return {recorded.substr(0, colon), recorded.substr(colon + 2)};
}

// The repository files the container runs first or loads itself, as its configuration says
// which file sits at each path (container_paths.h): its command's program, the script a shell
// in it runs, the file `nft -f` reads, the same in the lifecycle commands run inside it
// (devcontainer postStartCommand...; not initializeCommand, which runs on the host), and the
// image's ENTRYPOINT/CMD start script when the workload keeps it. A path the configuration
// does not fill from the repository stays unresolved: it is never matched by its base name.
struct Entries {
  std::set<std::string> runs;   // scripts its command runs (or the image's start script)
  std::set<std::string> loads;  // rulesets its own command loads (`nft -f`)
  std::set<std::string> setup;  // what its lifecycle commands run or load
  std::vector<Workload::UnresolvedRun> unresolved;
};

Entries entries_of(const Workload& w, const RepositoryFiles& repo) {
  Entries e;
  auto resolve = [&](const RunPath& p, std::set<std::string>& into, const std::string& who) {
    if (auto f = repository_file_at(w, p.path, p.use, repo)) {
      into.insert(f->repo_path);
    } else {
      e.unresolved.push_back({p.path, who, p.loaded, p.from});
    }
  };
  for (const RunPath& p : run_paths_of_argv(w.command)) {
    resolve(p, p.loaded ? e.loads : e.runs, "the container's command");
  }
  for (const auto& c : w.setup_commands) {
    auto [key, text] = setup_command(c.value);
    if (key.starts_with("initializeCommand")) continue;
    for (const RunPath& p : run_paths_of_shell(text, c.from)) resolve(p, e.setup, "its " + key);
  }
  if (w.command.empty()) {
    for (const auto& f : w.start_scripts) e.runs.insert(f.repo_path);
  }
  return e;
}

// The workload is the container `podman exec CTR` entered, or joins its network namespace.
bool in_exec_container(const Workload& w, const std::string& ctr) {
  if (ctr.empty()) return false;
  bool joins =
      w.network.mode && w.network.mode->value == NetMode::Container && w.network.mode_arg == ctr;
  return joins || w.id.container == ctr;
}

bool contains(const std::set<std::string>& s, const std::string& v) {
  return s.count(v) > 0;
}

// The repository files a proxy's lists are (squid `acl x dstdomain "/etc/squid/allow.txt"`):
// the path resolved in each container that bind-mounts the squid configuration (the file, or
// its own directory) from the repository: the proxy itself.
void resolve_list_files(Model& model, const RepositoryFiles& repo) {
  for (ScriptFacts& s : model.scripts) {
    const std::string& conf = model.files.path(s.file);
    const std::string conf_dir =
        conf.substr(0, conf.rfind('/') == std::string::npos ? 0 : conf.rfind('/'));
    for (EgressGate& g : s.gates) {
      g.list_repo_files.clear();
      if (g.list_files.empty()) continue;
      for (const Workload& w : model.workloads) {
        bool proxy = std::any_of(w.mounts.begin(), w.mounts.end(), [&](const Mount& m) {
          auto src = bind_source_in_repository(m, repo);
          return src && (*src == conf || *src == conf_dir);
        });
        if (!proxy) continue;
        for (const auto& list : g.list_files) {
          auto f = repository_file_at(w, list.value, PathUse::File, repo);
          if (f && std::find(g.list_repo_files.begin(), g.list_repo_files.end(), f->repo_path) ==
                       g.list_repo_files.end()) {
            g.list_repo_files.push_back(f->repo_path);
          }
        }
      }
    }
  }
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

  const RepositoryFiles repo(model.files);
  resolve_list_files(model, repo);
  for (std::size_t wi = 0; wi < model.workloads.size(); ++wi) {
    Workload& w = model.workloads[wi];
    const FileId launcher = w.object_from.at.file;
    Entries entries = entries_of(w, repo);
    w.unresolved_runs = std::move(entries.unresolved);
    const std::string cmd = joined_command(w);
    bool proxied = std::any_of(w.env.begin(), w.env.end(),
                               [](const EnvVar& e) { return is_proxy_env(e.name); });
    for (std::size_t si : scripts) {
      const ScriptFacts& s = model.scripts[si];
      const std::string& path = model.files.path(s.file);
      bool same_script = s.file == launcher;
      bool entrypoint =
          !same_script && (contains(entries.runs, path) || contains(entries.setup, path));
      bool loaded_by_command = !same_script && contains(entries.loads, path);
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
