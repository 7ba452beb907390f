// Placeholder until the launch frontend lands: recognises nothing.
#include "analyzer/frontends/launch/launch.h"

namespace sbr {

bool workloads_from_invocation(const Invocation&, const LaunchContext&, FilePart&) { return false; }
void read_compose_file(const SourceFile&, const FrontendContext&, FilePart&) {}
void read_devcontainer_file(const SourceFile&, const FrontendContext&, FilePart&) {}
void read_dockerfile(const SourceFile&, const FrontendContext&, FilePart&) {}

}  // namespace sbr
