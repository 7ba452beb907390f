#include "analyzer/render/helm/helm.h"

namespace sbr::render {

// The chart engine lands in this directory; until then charts are read raw.
void render_helm_charts(const SourceSet& /*sources*/, const RenderOptions& /*options*/,
                        RenderOutput& /*out*/) {}

}  // namespace sbr::render
