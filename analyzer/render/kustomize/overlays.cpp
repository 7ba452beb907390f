#include "analyzer/render/kustomize/kustomize.h"

namespace sbr::render {

// The Kustomize renderer lands in this directory; until then overlays are read raw.
void render_kustomizations(const SourceSet& /*sources*/, const RenderOptions& /*options*/,
                           RenderOutput& /*out*/) {}

}  // namespace sbr::render
