#include "invariants/script_findings.h"

#include <fmt/format.h>

#include "analyzer/engine/secrets.h"

namespace sbr::inv {

std::string_view script_fact_name(ScriptFactKind k) {
  switch (k) {
    case ScriptFactKind::ErrexitMissing: return "errexit-missing";
    case ScriptFactKind::FailOpenStep: return "fail-open";
    case ScriptFactKind::UnvalidatedSplice: return "unvalidated-splice";
    case ScriptFactKind::MissingCleanup: return "missing-cleanup";
    case ScriptFactKind::TrapDiscardedByExec: return "trap-discarded-by-exec";
    case ScriptFactKind::TrapAfterStart: return "trap-after-start";
    case ScriptFactKind::CurlPipeShell: return "curl-pipe-shell";
    case ScriptFactKind::EscapeHatch: return "escape-hatch";
    case ScriptFactKind::SecretFileUnprotected: return "secret-file-unprotected";
    case ScriptFactKind::XtraceWithSecrets: return "xtrace-with-secrets";
    case ScriptFactKind::SecretInUrl: return "secret-in-url";
    case ScriptFactKind::CapabilityKeptAtExec: return "capability-kept-at-exec";
    case ScriptFactKind::PublishWithNetworkNone: return "publish-with-network-none";
    case ScriptFactKind::EmptyAllowlistOpen: return "empty-allowlist-open";
    case ScriptFactKind::SudoGrant: return "sudo-grant";
  }
  return "script";
}

Finding script_finding(const Model& model, const ScriptFacts& script, const ScriptFact& fact,
                       std::string_view rule) {
  Finding f;
  f.rule_id = std::string(rule);
  const std::string& path = model.files.path(script.file);
  // Details name variables and commands, never values; key formats are redacted regardless.
  f.message = engine::redact_key_formats(fmt::format("{}: {}", path, fact.detail));
  f.at = fact.from.at;
  f.related = fact.related;
  f.subject = path;
  f.fact_path = engine::redact_key_formats(
      fmt::format("script.{}.{}", script_fact_name(fact.kind), fact.detail));
  f.condition = fact.from.condition;
  f.threat = ThreatClass::UntrustedCode;
  return f;
}

}  // namespace sbr::inv
