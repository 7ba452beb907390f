// Invariant 7 over launcher scripts: errexit, fail-open security steps, unvalidated input in
// code, cleanup traps, escape hatches and downloaded code (INVARIANTS.md 7).
#include "invariants/modules.h"
#include "invariants/script_findings.h"

namespace sbr::inv {

void check_script_lifecycle(const Model& model, Findings& out) {
  for (const ScriptFacts& s : model.scripts) {
    for (const ScriptJudgment& f : judge_lifecycle(s.observed)) {
      std::string_view rule;
      switch (f.kind) {
        case ScriptFindingKind::ErrexitMissing:
          rule = "SB7050";
          break;
        case ScriptFindingKind::FailOpenStep:
          rule = "SB7051";
          break;
        case ScriptFindingKind::UnvalidatedSplice:
          rule = "SB7052";
          break;
        case ScriptFindingKind::MissingCleanup:
        case ScriptFindingKind::TrapAfterStart:
          // A published port or a secret file left behind is worse than a stray container.
          rule = f.high_stakes ? "SB7054" : "SB7053";
          break;
        case ScriptFindingKind::TrapDiscardedByExec:
          rule = "SB7055";
          break;
        case ScriptFindingKind::EscapeHatch:
          rule = "SB7056";
          break;
        case ScriptFindingKind::CurlPipeShell:
          rule = "SB7057";
          break;
        default:
          continue;
      }
      out.add(script_finding(model, s, f, rule));
    }
  }
}

}  // namespace sbr::inv
