// Kustomize overlays rendered with `kubectl kustomize` / `kustomize build` in a private,
// symlink-free export of the tree, with no network, no plugins and no exec functions.
#pragma once

#include "analyzer/render/render_roots.h"

namespace sbr::render {

// Every kustomization directory of `sources` that no other kustomization uses as a base:
// rendered into `out.streams`; the files it consumed go to `out.consumed`.
void render_kustomizations(const SourceSet& sources, const RenderOptions& options,
                           RenderOutput& out);

}  // namespace sbr::render
