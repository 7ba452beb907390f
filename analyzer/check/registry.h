// The C++ invariant checks, one module per invariant (invariants/). Each is a pure function of
// the model: it reads the model and appends findings; it never prints and never does I/O.
#pragma once

#include <vector>

#include "analyzer/check/finding.h"
#include "analyzer/model/model.h"

namespace sbr {

using CheckFn = void (*)(const Model&, Findings&);

struct InvariantCheck {
  int invariant;
  const char* name;
  CheckFn fn;
};

const std::vector<InvariantCheck>& invariant_checks();

}  // namespace sbr
