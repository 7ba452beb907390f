// The documents of the run in --dump-model: each claim with where it is, how its sentence reads,
// what it is about and its verdict (the same verdict the doc-claim checks report), the evidence
// a claims table cites, and the examples.
#pragma once

#include <ostream>

#include "analyzer/model/model.h"

namespace sbr::report {

// Documents with no claim, evidence or example print nothing.
void dump_documents(const Model& model, std::ostream& out);

}  // namespace sbr::report
