// Invariant 6: see docs/invariants/6-resources.md.
#include "invariants/common.h"
#include "invariants/modules.h"

namespace sbr::inv {

void check_resources(const Model& model, Findings& out) {
  check_launch_limits(model, out);
  (void)model;
  (void)out;
}

}  // namespace sbr::inv
