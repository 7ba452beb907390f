#include "analyzer/report/claims_dump.h"

#include <fmt/format.h>

#include "analyzer/report/report_util.h"

#include "invariants/doc_claims.h"

namespace sbr::report {
namespace {

void dump_claim(const Model& m, const Claim& c, std::ostream& out) {
  out << fmt::format(
      "  claim {} {} `{}`{}{} @ {} ({}{})\n", claim_form_name(c.form),
      c.origin == ClaimOrigin::Table ? "table" : "prose", c.control,
      c.value.empty() ? "" : " value=" + c.value,
      c.arguments.empty() ? "" : fmt::format(" paths={}", fmt::join(c.arguments, ",")),
      report::dump_location(m, c.at), claim_mood_name(c.mood),
      c.marker.empty() ? "" : " `" + c.marker + "`");
  if (c.paths == ClaimPaths::Every) out << "    on every path\n";
  if (!c.platform.empty()) out << fmt::format("    on platform {}\n", c.platform);
  if (!c.unless.empty()) out << fmt::format("    exception: {}\n", c.unless);
  if (!c.about_note.empty()) out << fmt::format("    about: {}\n", c.about_note);
  inv::ClaimVerdict v = inv::judge_claim(m, c);
  out << fmt::format("    verdict: {}{}\n", inv::verdict_name(v.kind),
                     v.why.empty() ? "" : ": " + v.why);
  for (const inv::Contradiction& x : v.contradictions) {
    out << fmt::format(
        "    contradicted by {}/{}/{}: {} @ {}\n", x.workload->id.kind, x.workload->id.name,
        x.workload->id.container, x.judgement.what,
        x.judgement.at.at.valid() ? report::dump_location(m, x.judgement.at.at) : "-");
  }
}

}  // namespace

void dump_documents(const Model& model, std::ostream& out) {
  for (const Document& d : model.documents) {
    if (d.claims.empty() && d.evidence.empty() && d.examples.empty()) continue;
    out << fmt::format("document {} ({} claims; about {})\n", model.files.path(d.file),
                       d.claims.size(), d.about_note);
    for (const Claim& c : d.claims) dump_claim(model, c, out);
    for (const ClaimEvidence& e : d.evidence) {
      out << fmt::format("  evidence {} @ {} -> {}{}\n", e.path, report::dump_location(model, e.at),
                         e.resolved.empty() ? "(missing)" : e.resolved,
                         e.unmentioned.empty()
                             ? ""
                             : fmt::format(" never mentions {}", fmt::join(e.unmentioned, ", ")));
    }
    for (const DocExample& x : d.examples) {
      out << fmt::format("  example {} @ {} {}\n", x.language, report::dump_location(model, x.at),
                         x.analysed ? "analysed" : "not analysed");
    }
  }
}

}  // namespace sbr::report
