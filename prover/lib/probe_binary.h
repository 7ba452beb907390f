// Where `sbreview prove` finds its probe (the static `sbreview_probe` of prover/probe):
// installed, in <prefix>/libexec/sbreview/ beside <prefix>/bin/;
// in the build tree, beside the `sbreview` binary. Looked up from the running executable, so
// an installed sbreview never picks up a build tree's probe, nor the reverse.
#pragma once

#include <string>
#include <vector>

#include "analyzer/support/result.h"

namespace sbr::prove {

inline constexpr const char* kProbeFileName = "sbreview_probe";

// The places a probe is looked for when the executable is `exe`, in order.
std::vector<std::string> probe_candidates(const std::string& exe);

// The bytes of the first candidate that is a readable ELF file; otherwise an error naming
// every place looked at.
Result<std::string> read_probe(const std::string& exe);

// The running executable (/proc/self/exe resolved), "" when it cannot be read.
std::string self_executable();

}  // namespace sbr::prove
