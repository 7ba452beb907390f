// Helm charts rendered by the project's own chart engine (no helm binary exists in Debian):
// what `helm template` prints, with a source map to template and values lines.
#pragma once

#include "analyzer/render/render_roots.h"

namespace sbr::render {

// Every chart directory of `sources` (a `Chart.yaml`) that is not a subchart of another:
// rendered into `out.streams`; its files go to `out.consumed`.
void render_helm_charts(const SourceSet& sources, const RenderOptions& options, RenderOutput& out);

}  // namespace sbr::render
