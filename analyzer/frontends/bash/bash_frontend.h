// Shell launchers: parsed with tree-sitter-bash and rendered by partial evaluation
// (analyzer/render) into concrete invocations, which become workloads, gates and script
// observations.
#pragma once

#include "analyzer/frontends/frontend.h"

namespace sbr {

void read_bash_file(const SourceFile& file, const FrontendContext& ctx, FilePart& out);

// Shell text embedded in another file (a Dockerfile RUN line, a devcontainer lifecycle
// command), written at `line`:`column` of `file`. Its observations (a download pipeline, a
// step and its status use, a splice) join the model located in that file; it launches nothing
// and builds no gate on the host, so only observations and invocations are kept.
// A build step's environment (`build_step`: a RUN line's ARG and ENV values, the base
// image's) is the builder's, set before any agent runs: a value from it spliced into code is
// not input someone else controls, so no splice from the environment is kept there.
void read_embedded_shell(FileId file, std::string_view text, std::uint32_t line,
                         std::uint32_t column, const FrontendContext& ctx, FilePart& out,
                         bool build_step = false);

}  // namespace sbr
