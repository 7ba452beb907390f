// Doc claims (INVARIANTS.md, "Doc claims"; docs/doc-claims.md): each control a document claims
// is checked against the workloads it speaks about. One predicate per claim form, in a table
// (doc_claims_predicates.cpp); the verdict over the workloads in doc_claims_judge.cpp; the
// findings in doc_claims_findings.cpp. --dump-model prints the same verdicts.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analyzer/check/finding.h"
#include "analyzer/model/model.h"

namespace sbr::inv {

// What one workload says about one claim.
enum class Outcome : std::uint8_t {
  Holds,
  Contradicted,
  NotCheckable,   // the input cannot tell (a user name, an image's user)
  NotApplicable,  // the claim is not about this workload (no mount of that path)
};

struct Judgement {
  Outcome outcome = Outcome::NotApplicable;
  std::string what;  // contradicted: what the workload does instead; else why
  Provenance at;     // where the fact lives, or the invocation or container that lacks it
  std::string at_note;
  bool critical = false;  // the weakness underneath is critical (INVARIANTS.md)
};

// The predicate's view of the run: the model, and which paths of a launcher count.
struct ClaimContext {
  const Model& model;
  bool every_path = false;  // the claim says "always": facts on switched paths count too
  std::string platform;     // the claim names a platform: only paths that run there count
};

using Predicate = Judgement (*)(const ClaimContext&, const Workload&, const Claim&);

// A claim form's predicate and its rules: `high` for a contradiction, `critical` when the
// weakness underneath is critical (one rule id has one severity).
struct FormCheck {
  Predicate predicate;
  ClaimForm form;
  RuleId high;
  std::optional<RuleId> critical;
};

// The row for `f`, or nullptr (Unknown has none).
const FormCheck* form_check(ClaimForm f);

enum class VerdictKind : std::uint8_t { Holds, Contradicted, NotCheckable, NotAClaim };

struct Contradiction {
  const Workload* workload = nullptr;
  Judgement judgement;
};

struct ClaimVerdict {
  VerdictKind kind = VerdictKind::NotCheckable;
  std::string why;  // holds, not checkable, not a claim: in words
  std::vector<Contradiction> contradictions;
};

ClaimVerdict judge_claim(const Model& model, const Claim& claim);

std::string_view verdict_name(VerdictKind k);

// The findings: contradicted claims under their control's invariant, claims that cannot be
// checked (SB0032), evidence that is missing (SB0030) or silent about the control (SB0031).
void check_doc_claims(const Model& model, Findings& out);

}  // namespace sbr::inv
