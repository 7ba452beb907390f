// Invariant 5: see docs/invariants/5-network.md.
#include "invariants/common.h"
#include "invariants/modules.h"

namespace sbr::inv {

void check_network(const Model& model, Findings& out) {
  check_gates(model, out);
}

}  // namespace sbr::inv
