// The static probe binary (prover/probe), embedded in sbreview at build time so that the prover
// needs nothing but podman: it writes the probe into a root filesystem and imports it.
#pragma once

#include <string_view>

namespace sbr::prove {

std::string_view embedded_probe();

}  // namespace sbr::prove
