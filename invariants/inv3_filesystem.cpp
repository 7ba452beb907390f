// Invariant 3: see docs/invariants/3-filesystem.md.
#include "invariants/common.h"
#include "invariants/modules.h"

namespace sbr::inv {

void check_filesystem(const Model& model, Findings& out) {
  (void)model;
  (void)out;
}

}  // namespace sbr::inv
