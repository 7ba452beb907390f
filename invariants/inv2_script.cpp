// Invariant 2 over entrypoint scripts: a capability the setup needed (NET_ADMIN for the
// firewall) must be gone from the bounding set before the untrusted command is exec'd.
#include "generated/rule_ids.h"
#include "invariants/modules.h"
#include "invariants/script_findings.h"

namespace sbr::inv {

void check_script_privilege(const Model& model, Findings& out) {
  for (const ScriptFacts& s : model.scripts) {
    for (const ScriptJudgment& j : judge_privilege(s.observed))
      out.add(script_finding(model, s, j, rule::capability_kept_across_exec));
  }
}

}  // namespace sbr::inv
