// Invariant 4 over launcher scripts: secrets written to readable files, traced by `set -x`,
// put into URLs or echoed (INVARIANTS.md 4, "Scripts").
#include "invariants/modules.h"
#include "invariants/script_findings.h"

namespace sbr::inv {

void check_script_secrets(const Model& model, Findings& out) {
  for (const ScriptFacts& s : model.scripts) {
    for (const ScriptJudgment& f : judge_secrets(s.observed)) {
      std::string_view rule;
      switch (f.kind) {
        case ScriptFindingKind::SecretFileUnprotected:
          rule = "SB4050";
          break;
        case ScriptFindingKind::XtraceWithSecrets:
          rule = "SB4051";
          break;
        case ScriptFindingKind::SecretInUrl:
          rule = "SB4052";
          break;
        default:
          continue;
      }
      out.add(script_finding(model, s, f, rule));
    }
  }
}

}  // namespace sbr::inv
