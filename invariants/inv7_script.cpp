// Invariant 7 over launcher scripts: errexit, fail-open security steps, unvalidated input in
// code, cleanup traps, escape hatches and downloaded code (INVARIANTS.md 7).
#include "invariants/modules.h"
#include "invariants/script_findings.h"

namespace sbr::inv {

void check_script_lifecycle(const Model& model, Findings& out) {
  for (const ScriptFacts& s : model.scripts) {
    for (const ScriptFact& f : s.facts) {
      std::string_view rule;
      switch (f.kind) {
        case ScriptFactKind::ErrexitMissing:
          rule = "SB7050";
          break;
        case ScriptFactKind::FailOpenStep:
          rule = "SB7051";
          break;
        case ScriptFactKind::UnvalidatedSplice:
          rule = "SB7052";
          break;
        case ScriptFactKind::MissingCleanup:
        case ScriptFactKind::TrapAfterStart:
          // A published port or a secret file left behind is worse than a stray container.
          rule = f.high_stakes ? "SB7054" : "SB7053";
          break;
        case ScriptFactKind::TrapDiscardedByExec:
          rule = "SB7055";
          break;
        case ScriptFactKind::EscapeHatch:
          rule = "SB7056";
          break;
        case ScriptFactKind::CurlPipeShell:
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
