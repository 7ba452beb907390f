// Placeholder until the bash frontend lands: counts the script, reads nothing.
#include "analyzer/frontends/bash/bash_frontend.h"

namespace sbr {

void read_bash_file(const SourceFile&, const FrontendContext&, FilePart& out) {
  ++out.summary.scripts;
}

}  // namespace sbr
