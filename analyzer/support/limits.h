// The default bounds on what a pull request can make sbreview read (`limits:` in
// .sbreview.yaml; docs/robustness.md). One place, so the configuration, the pipeline and the
// frontends cannot disagree on them.
#pragma once

#include <cstddef>
#include <cstdint>

namespace sbr {

inline constexpr std::uint64_t kDefaultMaxFileBytes = 64ull << 20;  // SB0004 above it
inline constexpr std::uint32_t kDefaultMaxDocuments = 10'000;       // per YAML file (SB0007)
// Containers (workloads) one Kubernetes file or rendered stream may add to the model (SB0007).
inline constexpr std::size_t kMaxWorkloadsPerFile = 10'000;
// The whole run, rendering and reporting included: the last resorts (SB0007, RunBudget).
inline constexpr std::uint32_t kDefaultWallClockSeconds = 120;
inline constexpr std::uint32_t kDefaultMemoryMegabytes = 1024;  // resident set

}  // namespace sbr
