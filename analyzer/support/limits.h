// The default bounds on what a pull request can make sbreview read (`limits:` in
// .sbreview.yaml; docs/robustness.md). One place, so the configuration, the pipeline and the
// frontends cannot disagree on them.
#pragma once

#include <cstdint>

namespace sbr {

inline constexpr std::uint64_t kDefaultMaxFileBytes = 64ull << 20;  // SB0004 above it
inline constexpr std::uint32_t kDefaultMaxDocuments = 10'000;       // per YAML file (SB0007)
// The whole run, rendering and reporting included: the last resorts (SB0007, RunBudget).
inline constexpr std::uint32_t kDefaultWallClockSeconds = 120;
inline constexpr std::uint32_t kDefaultMemoryMegabytes = 1024;  // resident set

}  // namespace sbr
