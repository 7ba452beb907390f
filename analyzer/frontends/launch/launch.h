// Container launches into workloads: podman/docker/nerdctl run|create argument lists (from the
// bash renderer), compose services, devcontainer.json, Dockerfiles and seccomp profiles.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/frontends/frontend.h"
#include "analyzer/model/invocation.h"

namespace sbr {

// What one script has set up so far that later launches inherit: `podman pod create` options
// are applied to every container that joins the pod with `--pod NAME`.
struct LaunchState {
  std::map<std::string, Workload> pods;  // pod name -> the options the pod was created with
  // `podman build -t TAG [-f FILE] CONTEXT`: image tag -> Dockerfile path and build context in
  // the source set, so a later `podman run TAG` gets the image's USER, ENV and grants.
  std::map<std::string, std::pair<std::string, std::string>> built_images;
  // Launch paths seen so far (WorkloadId::launch_path): a second launch on the same path and
  // with the same name or image is told apart by its ordinal among those only.
  std::map<std::string, int> launch_paths;
};

struct LaunchContext {
  FileId script = kNoFile;
  std::optional<Engine> configured_engine;  // .sbreview.yaml `engine`, for "$ENGINE" run
  const SourceSet* sources = nullptr;
  LaunchState* state = nullptr;  // per script; nullptr: `own_state` below is used
  // A context lives for one script, so it can carry the script's state itself: callers that
  // reuse one context across the script's invocations get pod inheritance without wiring.
  mutable LaunchState own_state;
  LaunchState& launch_state() const { return state ? *state : own_state; }
};

// When `inv` runs a container engine (run/create/kube play/pod create), appends the workloads
// it starts to `out` and returns true; false for any other command.
bool workloads_from_invocation(const Invocation& inv, const LaunchContext& ctx, FilePart& out);

void read_compose_file(const SourceFile& file, const FrontendContext& ctx, FilePart& out);
// `docker compose -f a.yml -f b.yml up`: the files as one project, later files over earlier
// ones, its workloads named `name` (compose.cpp). Relative paths in every file resolve against
// the project directory: `project_dir` (`--project-directory`, a repository path, "" for the
// top), else the first file's directory, as compose does.
// `environment`: the variables the command's environment sets (the launcher's exports, inline
// assignments), over the project's `.env` as compose reads them.
void read_compose_project(const std::vector<const SourceFile*>& files, std::string name,
                          const FrontendContext& ctx, FilePart& out,
                          const std::optional<std::string>& project_dir = std::nullopt,
                          const std::vector<std::pair<std::string, std::string>>& environment = {});
// When `inv` is `docker compose` / `podman compose` / `docker-compose` with `-f` files that
// starts services (up, run, create), reads those files as one project into `out` and returns
// true (compose_invocation.cpp).
bool compose_from_invocation(const Invocation& inv, const LaunchContext& ctx, FilePart& out);
void read_devcontainer_file(const SourceFile& file, const FrontendContext& ctx, FilePart& out);
void read_dockerfile(const SourceFile& file, const FrontendContext& ctx, FilePart& out);
// A seccomp JSON profile (root object with "defaultAction").
void read_seccomp_profile(const SourceFile& file, const FrontendContext& ctx, FilePart& out);

}  // namespace sbr

namespace sbr {
// Runs once after every file is read: a manifest that a launcher plays with `podman kube play`
// is judged as podman runs it, so the kubelet reading of the same objects is dropped (the
// file's Kubernetes semantics would otherwise be reported twice, once wrongly).
void link_launches(Model& model);
// Also after every file is read: a devcontainer with `dockerComposeFile` + `service` joins that
// compose service's workload (link_devcontainers.cpp).
void link_devcontainers(Model& model);
}  // namespace sbr
