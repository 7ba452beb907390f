// Invariant 2: see docs/invariants/2-privilege.md.
#include "invariants/common.h"
#include "invariants/modules.h"

namespace sbr::inv {

void check_privilege(const Model& model, Findings& out) {
  check_seccomp_profiles(model, out);
  check_script_privilege(model, out);
  (void)model;
  (void)out;
}

}  // namespace sbr::inv
