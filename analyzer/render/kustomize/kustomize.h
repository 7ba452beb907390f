// Kustomize overlays rendered with `kubectl kustomize` / `kustomize build` in a private,
// symlink-free export of the tree, with no network, no plugins and no exec functions.
#pragma once

#include <string>
#include <vector>

#include "analyzer/render/render_roots.h"

namespace sbr::render {

// Every kustomization directory of `sources` that no other kustomization uses as a base:
// rendered into `out.streams`; the files it consumed go to `out.consumed`.
void render_kustomizations(const SourceSet& sources, const RenderOptions& options,
                           RenderOutput& out);

// Chart directories that kustomizations of `sources` inflate (`helmCharts:`): analysed
// through those kustomizations, never as Helm render roots of their own.
std::vector<std::string> kustomize_inflated_charts(const SourceSet& sources);

}  // namespace sbr::render
