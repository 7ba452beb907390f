// Shell launchers: parsed with tree-sitter-bash and rendered by partial evaluation
// (analyzer/render) into concrete invocations, which become workloads, gates and script facts.
#pragma once

#include "analyzer/frontends/frontend.h"

namespace sbr {

void read_bash_file(const SourceFile& file, const FrontendContext& ctx, FilePart& out);

}  // namespace sbr
