// One compose service definition (one file's `services.NAME` mapping) applied onto a workload.
// Several layers (extends, override files) are applied in order onto the same workload, each
// with the provenance of its own file, which gives compose's merge: scalars of a later layer
// win, sequences append, mounts and environment entries replace the ones they redefine.
#pragma once

#include <optional>
#include <string>

#include "analyzer/frontends/frontend.h"
#include "analyzer/frontends/launch/compose_interpolate.h"
#include "analyzer/support/yaml_tree.h"

namespace sbr::launch {

struct ComposeLayer {
  const SourceFile* file = nullptr;
  const yaml::Node* root = nullptr;  // the file's document root
  std::string dir;                   // relative paths in this file resolve against it
  const ComposeEnv* env = nullptr;
};

// Applies `svc` (a service mapping of `layer`) onto `w`. `later` marks an override layer, whose
// command/entrypoint replace earlier ones instead of appending.
void apply_compose_service(const ComposeLayer& layer, const yaml::Node* svc,
                           const FrontendContext& ctx, bool later, Workload& w);

// What a service's `build:` names, as repository paths: its Dockerfile (a `Containerfile`
// when no `dockerfile:` is given and there is no `Dockerfile`) and its context directory;
// nullopt for a remote context, which is not in the input.
struct ComposeBuild {
  std::string dockerfile;
  std::string context;  // "dir/" as the layer resolves it
};
std::optional<ComposeBuild> compose_build(const ComposeLayer& layer, const yaml::Node* build,
                                          const FrontendContext& ctx);

// A relative bind source ("./data", "..", "data/x") as a path from the repository root, through
// the compose file's directory; other sources unchanged.
std::string resolve_compose_source(const std::string& source, const std::string& dir);

}  // namespace sbr::launch
