// Invariant 7: see docs/invariants/7-lifecycle.md.
#include "invariants/common.h"
#include "invariants/modules.h"

namespace sbr::inv {

void check_lifecycle(const Model& model, Findings& out) {
  check_script_lifecycle(model, out);
  (void)model;
  (void)out;
}

}  // namespace sbr::inv
