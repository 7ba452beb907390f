// Invariant 4 over launcher scripts: secrets written to readable files, traced by `set -x`,
// put into URLs or echoed (INVARIANTS.md 4, "Scripts").
#include "generated/rule_ids.h"
#include "invariants/modules.h"
#include "invariants/script_findings.h"

namespace sbr::inv {

void check_script_secrets(const Model& model, Findings& out) {
  for (const ScriptFacts& s : model.scripts) {
    for (const ScriptJudgment& f : judge_secrets(s.observed)) {
      RuleId rule;
      switch (f.kind) {
        case ScriptFindingKind::SecretFileUnprotected:
          rule = rule::secret_file_unprotected;
          break;
        case ScriptFindingKind::XtraceWithSecrets:
          rule = rule::xtrace_with_secrets;
          break;
        case ScriptFindingKind::SecretInUrl:
          rule = rule::secret_in_url;
          break;
        default:
          continue;
      }
      out.add(script_finding(model, s, f, rule));
    }
  }
}

}  // namespace sbr::inv
