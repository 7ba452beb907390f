// A Kubernetes container that builds and runs a devcontainer itself. envbuilder builds the
// image a devcontainer.json describes and runs the result in place: the devcontainer is part of
// that workload, not a container of its own. What envbuilder applies from the file (the image's
// build, its features, containerEnv and remoteEnv, the lifecycle commands it runs inside) joins
// the Kubernetes workload; what only a container engine applies (runArgs, mounts, capAdd,
// privileged, securityOpt, appPort, initializeCommand on a host) does not exist there, because
// the pod already runs. The standalone devcontainer workload is then dropped, so it is not
// judged a second time. The devcontainer CLI (`devcontainer up`) instead starts the devcontainer
// as a container of the Docker daemon the pod reaches: its run options do apply to it, so it
// stays a workload of its own, and the pod records which file it starts. When the file is not
// in the input (a remote repository, a setting from a Secret), an invariant-0 note says so.
#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/frontends/k8s/k8s_frontend.h"
#include "analyzer/frontends/k8s/pod_devcontainer.h"

namespace sbr {
namespace {

using k8s::PodDevcontainer;
using k8s::PodDevcontainerTool;

template <class T>
void append(std::vector<T>& into, const std::vector<T>& from) {
  into.insert(into.end(), from.begin(), from.end());
}

// What envbuilder applies from the devcontainer inside the pod that runs it.
void fold_into(Workload& pod, const Workload& dev) {
  append(pod.features, dev.features);
  append(pod.env, dev.env);
  append(pod.setup_commands, dev.setup_commands);
  if (pod.dockerfile.empty()) pod.dockerfile = dev.dockerfile;
}

// The devcontainer workload at checkout-relative `rel`, in the repository that holds the pod's
// manifest: the nearest directory above the manifest that has it (the checkout's top is not
// marked in the input; a repository analysed from a parent directory still links).
std::optional<std::size_t> devcontainer_at(const Model& model, const Workload& pod,
                                           const std::string& rel) {
  std::string dir = model.files.path(pod.object_from.at.file);
  while (true) {
    std::size_t slash = dir.rfind('/');
    dir = slash == std::string::npos ? "" : dir.substr(0, slash);
    const std::string path = dir.empty() ? rel : dir + "/" + rel;
    for (std::size_t i = 0; i < model.workloads.size(); ++i) {
      const Workload& w = model.workloads[i];
      if (w.engine == Engine::Devcontainer && w.id.name == path) return i;
    }
    if (dir.empty()) return std::nullopt;
  }
}

std::string tool_name(const PodDevcontainer& d) {
  return d.tool == PodDevcontainerTool::Envbuilder ? "envbuilder" : "the devcontainer CLI";
}

// Why the devcontainer the pod runs is not in the input, in words.
std::string not_in_input(const Model& model, const Workload& pod, const PodDevcontainer& d) {
  std::string why = d.unknown;
  if (why.empty()) {
    why = fmt::format("no devcontainer.json of the input is at {}, the path it reads",
                      d.paths.front());
  }
  std::string mention;
  for (const std::string& p : d.paths) {
    if (auto i = devcontainer_at(model, pod, p)) {
      mention = fmt::format("; this repository's {}, at that path, is judged on its own",
                            model.workloads[*i].id.name);
      break;
    }
  }
  std::string hint = d.remote_url.empty() ? ""
                                          : "; if it is this repository, list its URL "
                                            "under `repository.urls` in .sbreview.yaml";
  return fmt::format(
      "builds and runs a devcontainer with {}, but {}: what that devcontainer "
      "adds inside the pod (its features, Dockerfile, environment and lifecycle "
      "commands) was not reviewed{}{}",
      tool_name(d), why, mention, hint);
}

}  // namespace

void link_envbuilder(Model& model) {
  std::vector<std::size_t> folded;
  for (Workload& pod : model.workloads) {
    if (pod.engine != Engine::Kubelet || pod.pod_only) continue;
    auto d = k8s::envbuilder_devcontainer(pod, model.repository_urls);
    if (!d) d = k8s::cli_devcontainer(pod);
    if (!d) continue;
    std::optional<std::size_t> dev;
    if (d->unknown.empty()) {
      for (const std::string& path : d->paths) {
        if ((dev = devcontainer_at(model, pod, path))) break;
      }
    }
    if (!dev) {
      pod.devcontainer_not_in_input = fact(not_in_input(model, pod, *d), d->from);
      continue;
    }
    pod.runs_devcontainer = fact(model.workloads[*dev].id.name, d->from);
    if (d->tool == PodDevcontainerTool::Envbuilder) {
      fold_into(pod, model.workloads[*dev]);
      folded.push_back(*dev);
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
