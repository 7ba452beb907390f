// `sbreview prove [PATH...]`: analyse as `check` does, launch every workload with podman, and
// write the findings with the runtime's verdicts (prove_command.cpp; the prover is prover/lib).
#pragma once

#include <iosfwd>

#include "analyzer/cli/options.h"

namespace sbr {

class Catalog;

int run_prove(const Options& o, std::ostream& out, std::ostream& err, const Catalog& catalog);

}  // namespace sbr
