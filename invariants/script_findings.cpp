#include "invariants/script_findings.h"

#include <fmt/format.h>

#include "analyzer/support/secrets.h"

namespace sbr::inv {

Finding script_finding(const Model& model, const ScriptFacts& script, const ScriptJudgment& fact,
                       RuleId rule) {
  Finding f;
  f.rule_id = rule;
  const std::string& path = model.files.path(script.file);
  // Messages name variables and commands, never values; key formats are redacted regardless.
  f.message = secrets::redact_key_formats(fact.message);
  f.at = fact.from.at;
  f.related = fact.related;
  f.subject = path;
  f.fact_path = secrets::redact_key_formats(
      fmt::format("script.{}.{}", script_finding_kind_name(fact.kind), fact.key));
  f.set_condition(fact.from.condition());
  f.threat = ThreatClass::UntrustedCode;
  f.threat_reason = "a launcher script: judged for the sandbox it starts";
  return f;
}

}  // namespace sbr::inv
