// Whether a value a firewall script computed comes from the host's own network configuration:
// the default gateway (`ip route`, `/proc/net/route`) or a container network's subnet (`docker
// network inspect`, `podman network inspect`). An observation for the allow it ends up in
// (EgressAllow::host_subnet_from); SB5077 judges it.
#pragma once

#include <string>

#include "analyzer/model/invocation.h"
#include "analyzer/source/source.h"

namespace sbr::gates {

// What the symbolic word was computed from ("the default gateway (`ip route`)"), or "" when it
// is not symbolic or not computed from the host's network. A command substitution is read as
// written; a variable it names (`$(echo "$GW" | sed ...)`) is followed to its assignments in the
// file the word is used in, a few steps deep.
std::string host_network_origin(const Word& w, const SourceSet* sources);

}  // namespace sbr::gates
