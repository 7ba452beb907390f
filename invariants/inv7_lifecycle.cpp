// Invariant 7: see docs/invariants/7-lifecycle.md.
#include "invariants/common.h"
#include "invariants/modules.h"

namespace sbr::inv {

void check_lifecycle(const Model& model, Findings& out) {
  (void)model;
  (void)out;
}

}  // namespace sbr::inv
