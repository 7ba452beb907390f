// Invariant 7 over launcher scripts: errexit, fail-open security steps, unvalidated input in
// code, cleanup traps, escape hatches and downloaded code (INVARIANTS.md 7).
#include "generated/rule_ids.h"
#include "invariants/modules.h"
#include "invariants/script_findings.h"

namespace sbr::inv {

void check_script_lifecycle(const Model& model, Findings& out) {
  for (const ScriptFacts& s : model.scripts) {
    for (const ScriptJudgment& f : judge_lifecycle(s.observed)) {
      RuleId rule;
      switch (f.kind) {
        case ScriptFindingKind::ErrexitMissing:
          rule = rule::launcher_without_errexit;
          break;
        case ScriptFindingKind::PartialStrictMode:
          rule = rule::partial_strict_mode;
          break;
        case ScriptFindingKind::GateAfterStart:
          rule = rule::gate_after_detached_start;
          break;
        case ScriptFindingKind::FailOpenStep:
          rule = rule::security_step_fails_open;
          break;
        case ScriptFindingKind::UnvalidatedSplice:
          rule = rule::unvalidated_input_in_code;
          break;
        case ScriptFindingKind::MissingCleanup:
        case ScriptFindingKind::TrapAfterStart:
          // A published port or a secret file left behind is worse than a stray container.
          rule = f.high_stakes ? rule::missing_cleanup_of_published_port_or_secret
                               : rule::missing_cleanup_trap;
          break;
        case ScriptFindingKind::TrapDiscardedByExec:
          rule = rule::trap_discarded_by_exec;
          break;
        case ScriptFindingKind::EscapeHatch:
          rule = rule::escape_hatch;
          break;
        case ScriptFindingKind::CurlPipeShell:
          rule = rule::downloaded_code_executed;
          break;
        default:
          continue;
      }
      out.add(script_finding(model, s, f, rule));
    }
  }
}

}  // namespace sbr::inv
