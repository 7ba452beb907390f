// `sbreview render [PATH...]`: what the render roots render to, per root, with the `# Source:`
// comments `helm template` prints, for debugging charts and comparing with Helm.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "analyzer/cli/options.h"
#include "analyzer/render/render_roots.h"

namespace sbr {

// The render options of `check` and `render` from the command line.
render::RenderOptions render_options(const Options& o);

int run_render(const Options& o, std::ostream& out, std::ostream& err);

// `sbreview render helm [NAME] CHART [flags]`: helm template's arguments and output.
int run_render_helm(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace sbr
