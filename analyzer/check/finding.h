// What a check returns. Severity and invariant come from the catalog entry of rule_id; the
// runner adjusts severity for the threat class and for conditional facts, in one place.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/check/rule_id.h"
#include "analyzer/model/provenance.h"
#include "analyzer/model/workload.h"
#include "analyzer/support/cause.h"
#include "analyzer/support/message_text.h"
#include "analyzer/support/severity.h"
#include "analyzer/support/shared_text.h"

namespace sbr {

// Another workload that has the same fact at the same place (a compose `extends` or `x-`
// anchor, a launch function called twice): listed on one finding rather than repeated.
struct SharedWith {
  std::string subject;
  std::string label;        // as the message names it
  std::string fingerprint;  // the finding it would have had alone
};

// A finding of another rule on the same fact whose fix is the same (the catalog's
// `folds_into`): one finding with several reasons, each keeping its rule and fingerprint.
struct Reason {
  RuleId rule_id;
  std::string message;
  Severity severity = Severity::Note;
  int invariant = 0;
  std::string fingerprint;
};

// A launch the threat inference lowered for what it is, not for what it runs: one of a
// launcher's helper steps, or a test suite's container. A file holds dozens of them with the same
// gaps, and its findings of one rule are reported once (analyzer/check/repeated_steps.h).
enum class RepeatedStep : std::uint8_t { None, Helper, Test };

// The condition of the path the fact is on (for facts reached only on some path) and its
// provenance chain (nearest first) are the fact's own TrailRef, shared rather than copied.
struct Finding : TrailRef {
  RuleId rule_id;       // rules::privileged_container (generated/rule_ids.h)
  MessageText message;  // names the workload; never contains a secret value
  Location at;          // the field that causes it, or the object that lacks it
  std::vector<Related> related;
  SharedText subject;    // workload identity ("Deployment/ns/name/container") or file
  SharedText fact_path;  // stable path of the fact ("securityContext.privileged", "-p 8080")
  ThreatClass threat = ThreatClass::UntrustedCode;
  SharedText threat_reason;  // the workload's class evidence in words (Workload::threat_reason)
  SharedText identity;       // the workload's identity_key() for the fingerprint; "" = subject
  // The rule catalog's applies_to name of the workload's engine ("kubernetes", "launcher",
  // "compose", "devcontainer"; "" for a file): picks the remediation in that engine's terms.
  SharedText engine;
  SharedText label;  // describe(workload) as the message words it; "" for a file
  RepeatedStep step = RepeatedStep::None;
  // Invariant 0 only: whose gap it is. A check sets it where it knows (the Problem's cause);
  // the runner fills in the rule's catalog `cause:` otherwise.
  std::optional<Cause> cause;

  // Filled when findings are grouped (analyzer/check/group.h), not by checks.
  std::vector<SharedWith> shared_with;
  std::vector<Reason> reasons;

  // Filled by the runner, not by checks.
  Severity severity = Severity::Note;
  int invariant = 0;
  std::string accepted_reason;  // non-empty: a risk acceptance turned this into a note
  // How it was accepted, as SARIF names suppression kinds: "external" (.sbreview.yaml) or
  // "inSource" (a comment or annotation); "" when it was not.
  std::string suppression_kind;
  Severity severity_before = Severity::Note;  // what an acceptance or suppression lowered
  std::string fingerprint;
};

// The sink a check writes to. Checks never print and never do I/O. The texts a finding shares
// with its workload's other findings are kept once (a third of a finding's memory).
class Findings {
 public:
  void add(Finding f);
  void reserve(std::size_t n) { items_.reserve(n); }
  std::vector<Finding>& items() { return items_; }
  const std::vector<Finding>& items() const { return items_; }

 private:
  std::vector<Finding> items_;
  TextPool texts_;
};

}  // namespace sbr
