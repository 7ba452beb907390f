// Invariant 4: see docs/invariants/4-secrets.md.
#include "invariants/common.h"
#include "invariants/modules.h"

namespace sbr::inv {

void check_secrets(const Model& model, Findings& out) {
  check_env_on_argv(model, out);
  (void)model;
  (void)out;
}

}  // namespace sbr::inv
