// `sbreview prove --self-test`: which fields this machine's podman honours, as a table (text)
// or rows (json). Exit 0 when the launches ran, 2 when podman is missing or broken.
#pragma once

#include <iosfwd>

#include "analyzer/cli/options.h"

namespace sbr {

int run_prove_self_test(const Options& o, std::ostream& out, std::ostream& err);

}  // namespace sbr
