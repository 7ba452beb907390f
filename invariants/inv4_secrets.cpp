// Invariant 4: see docs/invariants/4-secrets.md. The environment, command-line and data rules
// (SB4001-SB4003, SB4053, SB4070, SB4071) are data rules; the service account's grants and the
// scripts' secrets are judged by the modules called here.
#include "invariants/inv4_parts.h"
#include "invariants/modules.h"

namespace sbr::inv {

void check_secrets(const Model& model, Findings& out) {
  check_service_account(model, out);
  check_script_secrets(model, out);
}

}  // namespace sbr::inv
