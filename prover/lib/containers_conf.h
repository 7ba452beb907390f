// The containers.conf a prover run hands to podman when gVisor is installed: the machine's own
// configuration (the file $CONTAINERS_CONF names, else /etc/containers/containers.conf) with a
// runtime `sbrp-runsc` added, a wrapper that starts runsc with its network off (TOOLCHAIN.md:
// `podman kube play` has no --runtime-flag). Every podman command of the run reads it, so that
// a pod under that runtime is known to all of them; the kube-play launches of a gVisor workload
// read a second one whose default runtime is `sbrp-runsc`. Text-level TOML editing: only the
// `[engine]` and `[engine.runtimes]` tables are touched.
#pragma once

#include <string>

namespace sbr::prove {

inline constexpr const char* kRunscRuntime = "sbrp-runsc";

// `base` with `sbrp-runsc = ["<wrapper>"]` in [engine.runtimes] and, when `make_default`,
// `runtime = "sbrp-runsc"` in [engine] (replacing the runtime it named).
std::string conf_with_runsc(const std::string& base, const std::string& wrapper, bool make_default);

}  // namespace sbr::prove
