// A readable, deterministic dump of what the bash renderer produced for one script: every
// invocation as an argument list with each argument's origin (file:line:col), whether it is
// conditional, and the renderer's observations. Secret values are redacted. Used by golden tests
// and by `--dump-model`.
#pragma once

#include <ostream>

#include "analyzer/model/model.h"

namespace sbr::report {

void dump_script(const Model& model, const ScriptFacts& script, std::ostream& out);
void dump_observations(const Model& model, const ScriptObservations& o, std::ostream& out);

}  // namespace sbr::report
