// The doc-claim findings (INVARIANTS.md, "Doc claims"): a contradicted claim at the document's
// line under its control's invariant, with where the fact lives as related locations; a claim
// that cannot be checked as a note; evidence that is missing (low) or never names the control
// (note).
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <tuple>

#include "generated/rule_ids.h"
#include "invariants/common.h"
#include "invariants/doc_claims.h"

namespace sbr::inv {
namespace {

std::string shown(const Claim& c) {
  return c.literal ? fmt::format("`{}`", c.control) : fmt::format("\"{}\"", c.control);
}

// The claim's identity in its document, never its line: its form and wording, and an ordinal
// when the same wording is claimed again further down.
class ClaimKeys {
 public:
  std::string key(const std::string& doc, const Claim& c) {
    std::string base = fmt::format("claim:{}:{}:{}", doc, claim_form_name(c.form), c.control);
    int n = ++seen_[base];
    return n == 1 ? base : fmt::format("{}#{}", base, n);
  }

 private:
  std::map<std::string, int> seen_;
};

Finding document_finding(RuleId id, const std::string& doc, Location at, std::string message,
                         std::string fact_path) {
  Finding f;
  f.rule_id = id;
  f.message = std::move(message);
  f.at = at;
  f.subject = doc;
  f.fact_path = std::move(fact_path);
  return f;
}

// Workloads reported one by one under one claim. A document in a folder of thousands of
// workloads ("the agent runs with no network" over 3,000 pods, in each of 300 documents) made a
// finding per claim and workload: 660 MB. The rest are counted in one more finding.
constexpr std::size_t kMaxContradictionsPerClaim = 64;

void contradiction_findings(const std::string& doc, const Claim& claim, const ClaimVerdict& v,
                            const std::string& key, Findings& out) {
  const FormCheck* fc = form_check(claim.form);
  const std::size_t shown_one_by_one =
      std::min(v.contradictions.size(), kMaxContradictionsPerClaim);
  for (std::size_t i = 0; i < shown_one_by_one; ++i) {
    const Contradiction& c = v.contradictions[i];
    const Judgement& j = c.judgement;
    RuleId id = j.critical && fc->critical ? *fc->critical : fc->high;
    std::string message = fmt::format("{} claims {}{}, but {} {}", doc, shown(claim),
                                      claim.unless.empty() ? "" : " (" + claim.unless + ")",
                                      describe(*c.workload), j.what);
    Finding f =
        make(*c.workload, id, std::move(message), Provenance{claim.at, Frontend::Markdown}, key);
    f.set_condition(j.at.condition());  // the path the contradicting fact is on
    if (j.at.at.valid()) f.related.push_back({j.at.at, j.at_note});
    for (const Step& s : j.at.via()) {
      f.related.push_back({s.at, s.note.empty()
                                     ? std::string(step_role_name(s.role))
                                     : fmt::format("{} ({})", step_role_name(s.role), s.note)});
    }
    out.add(std::move(f));
  }
  if (v.contradictions.size() > shown_one_by_one) {
    const bool critical = std::any_of(
        v.contradictions.begin() + static_cast<std::ptrdiff_t>(shown_one_by_one),
        v.contradictions.end(), [](const Contradiction& c) { return c.judgement.critical; });
    const std::size_t more = v.contradictions.size() - shown_one_by_one;
    out.add(document_finding(
        critical && fc->critical ? *fc->critical : fc->high, doc, claim.at,
        fmt::format("{} claims {}, but {} more workload{} in its scope contradict{} it too (the "
                    "first {} are reported one by one)",
                    doc, shown(claim), more, more == 1 ? "" : "s", more == 1 ? "s" : "",
                    shown_one_by_one),
        key + ":more"));
  }
}

void evidence_findings(const std::string& doc, const Document& d, Findings& out) {
  for (const ClaimEvidence& e : d.evidence) {
    std::string controls =
        e.controls.empty() ? "its row" : fmt::format("{}", fmt::join(e.controls, ", "));
    if (e.resolved.empty()) {
      out.add(document_finding(
          rule::doc_claim_evidence_missing, doc, e.at,
          fmt::format("{} cites `{}` as the evidence for {}; no such file is in the "
                      "repository",
                      doc, e.path, controls),
          "evidence:" + e.path));
    } else if (!e.unmentioned.empty()) {
      out.add(document_finding(
          rule::doc_claim_evidence_silent, doc, e.at,
          fmt::format("`{}`, cited by {} as evidence, never mentions {} as a literal token",
                      e.resolved, doc, fmt::join(e.unmentioned, ", ")),
          fmt::format("evidence:{}:{}", e.path, fmt::join(e.unmentioned, ","))));
    }
  }
}

}  // namespace

void check_doc_claims(const Model& model, Findings& out) {
  for (const Document& d : model.documents) {
    const std::string& doc = model.files.path(d.file);
    ClaimKeys keys;
    for (const Claim& claim : d.claims) {
      std::string key = keys.key(doc, claim);
      ClaimVerdict v = judge_claim(model, claim);
      if (v.kind == VerdictKind::Contradicted) {
        contradiction_findings(doc, claim, v, key, out);
      } else if (v.kind == VerdictKind::NotCheckable) {
        out.add(document_finding(
            rule::doc_claim_not_checkable, doc, claim.at,
            fmt::format("{} claims {}, which cannot be checked: {}", doc, shown(claim), v.why),
            key));
      }
    }
    evidence_findings(doc, d, out);
  }
}

}  // namespace sbr::inv
