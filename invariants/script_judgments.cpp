// The judgment list's one-at-a-place rule and the stable names of the judgment kinds.
#include "invariants/script_judgments.h"

namespace sbr::inv {
namespace {
using K = ScriptFindingKind;
}  // namespace

void add_unique(std::vector<ScriptJudgment>& out, ScriptJudgment j) {
  for (const ScriptJudgment& x : out) {
    if (x.kind == j.kind && x.from.at == j.from.at && x.message == j.message) return;
  }
  out.push_back(std::move(j));
}

const char* script_finding_kind_name(ScriptFindingKind k) {
  switch (k) {
    case K::ErrexitMissing:
      return "errexit-missing";
    case K::FailOpenStep:
      return "fail-open";
    case K::UnvalidatedSplice:
      return "unvalidated-splice";
    case K::MissingCleanup:
      return "missing-cleanup";
    case K::TrapDiscardedByExec:
      return "trap-discarded-by-exec";
    case K::TrapAfterStart:
      return "trap-after-start";
    case K::CurlPipeShell:
      return "curl-pipe-shell";
    case K::EscapeHatch:
      return "escape-hatch";
    case K::SecretFileUnprotected:
      return "secret-file-unprotected";
    case K::XtraceWithSecrets:
      return "xtrace-with-secrets";
    case K::SecretInUrl:
      return "secret-in-url";
    case K::CapabilityKeptAtExec:
      return "capability-kept-at-exec";
    case K::PartialStrictMode:
      return "partial-strict-mode";
    case K::GateAfterStart:
      return "gate-after-start";
  }
  return "script-finding";
}

}  // namespace sbr::inv
