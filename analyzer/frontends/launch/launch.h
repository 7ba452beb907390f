// Container launches into workloads: podman/docker/nerdctl run|create argument lists (from the
// bash renderer), compose services, devcontainer.json, Dockerfiles and seccomp profiles.
#pragma once

#include <optional>

#include "analyzer/frontends/frontend.h"
#include "analyzer/render/invocation.h"

namespace sbr {

struct LaunchContext {
  FileId script = kNoFile;
  std::optional<Engine> configured_engine;  // .sbreview.yaml `engine`, for "$ENGINE" run
  const SourceSet* sources = nullptr;
};

// When `inv` runs a container engine (run/create/kube play/pod create), appends the workloads
// it starts to `out` and returns true; false for any other command.
bool workloads_from_invocation(const Invocation& inv, const LaunchContext& ctx, FilePart& out);

void read_compose_file(const SourceFile& file, const FrontendContext& ctx, FilePart& out);
void read_devcontainer_file(const SourceFile& file, const FrontendContext& ctx, FilePart& out);
void read_dockerfile(const SourceFile& file, const FrontendContext& ctx, FilePart& out);

}  // namespace sbr
