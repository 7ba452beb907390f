// Invariant 1: see docs/invariants/1-isolation.md.
#include "invariants/common.h"
#include "invariants/modules.h"

namespace sbr::inv {

void check_isolation(const Model& model, Findings& out) {
  (void)model;
  (void)out;
}

}  // namespace sbr::inv
