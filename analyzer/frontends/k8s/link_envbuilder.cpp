// A Kubernetes container that runs envbuilder builds its own image from a devcontainer.json and
// runs the result in place: the devcontainer is part of that workload, not a container of its
// own. What envbuilder applies from the file (the image's build, its features, containerEnv and
// remoteEnv, the lifecycle commands it runs inside) joins the Kubernetes workload; what only a
// container engine applies (runArgs, mounts, capAdd, privileged, securityOpt, appPort,
// initializeCommand on a host) does not exist there, because the pod already runs. The
// standalone devcontainer workload is then dropped, so it is not judged a second time.
#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/frontends/k8s/k8s_frontend.h"

namespace sbr {
namespace {

constexpr std::string_view kImage = "ghcr.io/coder/envbuilder";

// The literal value of NAME (or of its pre-1.0 name without the ENVBUILDER_ prefix, which
// envbuilder still reads) in the container's environment. A value from a Secret or one the
// input does not spell is unknown: the caller does not link on it.
struct Setting {
  bool present = false;
  bool known = false;
  std::string value;
  Provenance from;
};

Setting setting(const Workload& w, std::string_view name) {
  Setting s;
  for (std::string_view n : {name, name.substr(std::string_view("ENVBUILDER_").size())}) {
    for (const EnvVar& e : w.env) {
      if (e.name != n) continue;
      s.present = true;
      s.known = e.source == EnvSource::Literal;
      s.value = e.value;
      s.from = e.from;
    }
    if (s.present) return s;
  }
  return s;
}

bool runs_envbuilder(const Workload& w) {
  if (w.image.rfind(kImage, 0) == 0) return true;
  // A mirrored image still reads its settings from these variables, which nothing else reads.
  return std::any_of(w.env.begin(), w.env.end(), [](const EnvVar& e) {
    return e.name == "ENVBUILDER_GIT_URL" || e.name == "ENVBUILDER_DEVCONTAINER_DIR" ||
           e.name == "ENVBUILDER_DEVCONTAINER_JSON_PATH" || e.name == "ENVBUILDER_INIT_SCRIPT";
  });
}

// A git URL that names a directory of this machine, not a remote repository.
bool local_repository(std::string_view url) {
  return url.rfind("file://", 0) == 0 || url.rfind('/', 0) == 0 || url.rfind('.', 0) == 0;
}

std::string join(const std::string& dir, const std::string& path) {
  if (path.rfind('/', 0) == 0 || dir.empty()) return path;
  return dir.back() == '/' ? dir + path : dir + "/" + path;
}

// The repository-relative path of `path` inside the checkout at `workspace`; nullopt when the
// path lies outside it (envbuilder would read a file the repository does not hold).
std::optional<std::string> in_repository(std::string path, const std::string& workspace) {
  while (path.rfind("./", 0) == 0) path.erase(0, 2);
  if (path.rfind('/', 0) != 0) return path;
  std::string root = workspace.back() == '/' ? workspace : workspace + "/";
  if (path.rfind(root, 0) != 0) return std::nullopt;
  path.erase(0, root.size());
  while (path.rfind("./", 0) == 0) path.erase(0, 2);
  return path;
}

// The devcontainer.json paths envbuilder tries, in its order, repository-relative, with where
// the input chose it. Empty when the repository it builds may be another one (a remote
// ENVBUILDER_GIT_URL: sbreview does not read .git, so it cannot tell the clone is this
// repository) or when a setting is not spelled in the input.
struct Candidates {
  std::vector<std::string> paths;
  Provenance from;
};

Candidates devcontainer_paths(const Workload& w) {
  Candidates c;
  Setting url = setting(w, "ENVBUILDER_GIT_URL");
  if (url.present && !(url.known && local_repository(url.value))) return c;
  Setting folder = setting(w, "ENVBUILDER_WORKSPACE_FOLDER");
  Setting dir = setting(w, "ENVBUILDER_DEVCONTAINER_DIR");
  Setting json = setting(w, "ENVBUILDER_DEVCONTAINER_JSON_PATH");
  for (const Setting* s : {&folder, &dir, &json}) {
    if (s->present && !s->known) return c;
  }
  // envbuilder's defaults: the checkout at /workspaces/empty without a URL, the folder
  // .devcontainer in it, devcontainer.json in that folder.
  std::string workspace = folder.present && !folder.value.empty() ? folder.value
                          : url.present                           ? url.value
                                                                  : "/workspaces/empty";
  if (workspace.rfind("file://", 0) == 0) workspace.erase(0, 7);
  std::string d = join(workspace, dir.present ? dir.value : ".devcontainer");
  std::string j = join(d, json.present ? json.value : "devcontainer.json");
  if (auto p = in_repository(j, workspace)) c.paths.push_back(*p);
  // Without either setting, a .devcontainer.json at the root of the checkout is read next.
  if (!dir.present && !json.present) c.paths.emplace_back(".devcontainer.json");
  c.from = json.present ? json.from : dir.present ? dir.from : w.container_from;
  return c;
}

template <class T>
void append(std::vector<T>& into, const std::vector<T>& from) {
  into.insert(into.end(), from.begin(), from.end());
}

// What envbuilder applies from the devcontainer inside the pod that runs it.
void fold_into(Workload& pod, const Workload& dev, Provenance from) {
  pod.runs_devcontainer = fact(dev.id.name, std::move(from));
  append(pod.features, dev.features);
  append(pod.env, dev.env);
  append(pod.setup_commands, dev.setup_commands);
  if (pod.dockerfile.empty()) pod.dockerfile = dev.dockerfile;
}

}  // namespace

void link_envbuilder(Model& model) {
  std::vector<std::size_t> folded;
  for (Workload& pod : model.workloads) {
    if (pod.engine != Engine::Kubelet || pod.pod_only || !runs_envbuilder(pod)) continue;
    Candidates c = devcontainer_paths(pod);
    for (const std::string& path : c.paths) {
      auto dev = std::find_if(model.workloads.begin(), model.workloads.end(), [&](const auto& w) {
        return w.engine == Engine::Devcontainer && w.id.name == path;
      });
      if (dev == model.workloads.end()) continue;
      fold_into(pod, *dev, c.from);
      folded.push_back(static_cast<std::size_t>(dev - model.workloads.begin()));
      break;
    }
  }
  // Several pods may build the same devcontainer (a SandboxTemplate and a Sandbox): it is
  // dropped once, after every pod took its facts.
  std::sort(folded.begin(), folded.end());
  folded.erase(std::unique(folded.begin(), folded.end()), folded.end());
  for (auto it = folded.rbegin(); it != folded.rend(); ++it) {
    model.workloads.erase(model.workloads.begin() + static_cast<std::ptrdiff_t>(*it));
  }
}

}  // namespace sbr
