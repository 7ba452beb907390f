// Invariant 0: what sbreview could not analyse is reported, never skipped. Each problem the
// frontends met becomes a finding at its location (high by default: the gate fails closed).
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <string_view>
#include <tuple>

#include "analyzer/support/strings.h"
#include "generated/rule_ids.h"
#include "invariants/common.h"
#include "invariants/modules.h"
#include "invariants/script_judgments.h"

namespace sbr::inv {
namespace {

RuleId rule_for(ProblemKind k) {
  switch (k) {
    case ProblemKind::ParseError:
      return rule::parse_error;
    case ProblemKind::Unreadable:
      return rule::unreadable_file;
    case ProblemKind::SymlinkOutside:
      return rule::symlink_outside_root;
    case ProblemKind::TooLarge:
      return rule::file_too_large;
    case ProblemKind::InvalidObject:
      return rule::invalid_kubernetes_object;
    case ProblemKind::DuplicateKey:
      return rule::duplicate_key;
    case ProblemKind::BudgetExceeded:
      return rule::analysis_budget_exceeded;
    case ProblemKind::SpecialFile:
      return rule::special_file;
    case ProblemKind::BadAcceptance:
      return rule::acceptance_without_reason;
    case ProblemKind::ExpiredAcceptance:
      return rule::acceptance_expired;
    case ProblemKind::RenderFailed:
      return rule::render_failed;
    case ProblemKind::SourceUnresolved:
      return rule::source_unresolved;
    case ProblemKind::ArgvPartlyUnknown:
      return rule::argv_partly_unknown;
    case ProblemKind::SwitchNotRendered:
      return rule::switch_not_rendered;
    case ProblemKind::ParseRecovered:
      return rule::parse_recovered;
    case ProblemKind::PathCut:
      return rule::analysis_path_cut;
  }
  return rule::parse_error;
}

// Launch words that SB7056 already reports as engine options taken from the environment: the
// same open word is one fact, so SB0013 stays quiet there.
std::set<Location> escape_hatch_words(const Model& model) {
  std::set<Location> out;
  for (const ScriptFacts& s : model.scripts) {
    for (const ScriptJudgment& j : judge_escape_hatches(s.observed)) {
      if (j.key.rfind("engine-options.", 0) == 0) out.insert(j.from.at);
    }
  }
  return out;
}

// Path cuts of one gap in one file (the same message, or one `topic`: a logging function whose
// other argument lists were not rendered, at each of its 35 calls) are one finding at the first,
// the others its related locations: a reader acts on the gap once.
class PathCuts {
 public:
  // Whether `p` is another place of a gap already met (then it is taken in).
  bool joins(const Problem& p) {
    auto it = first_.find(key(p));
    if (it == first_.end()) return false;
    Finding& f = findings_[it->second];
    f.related.push_back({p.at, p.message});
    lines_[it->second].push_back(p.at.line);
    return true;
  }
  void first(const Problem& p, Finding f) {
    first_.emplace(key(p), findings_.size());
    findings_.push_back(std::move(f));
    lines_.emplace_back();
  }
  void emit(Findings& out) {
    for (std::size_t i = 0; i < findings_.size(); ++i) {
      Finding& f = findings_[i];
      const auto& lines = lines_[i];
      if (!lines.empty())
        f.message += fmt::format(" (the same at {} more {} of this file, {})", lines.size(),
                                 lines.size() == 1 ? "place" : "places", at_lines(lines));
      out.add(std::move(f));
    }
  }

 private:
  static std::pair<FileId, std::string> key(const Problem& p) {
    return {p.at.file, p.topic.empty() ? p.message : p.topic};
  }
  std::map<std::pair<FileId, std::string>, std::size_t> first_;
  std::vector<Finding> findings_;
  std::vector<std::vector<std::uint32_t>> lines_;
};

}  // namespace

void check_integrity(const Model& model, Findings& out) {
  check_unresolved_links(model, out);
  // Documents are configuration too: each claim's finding carries its control's invariant.
  check_doc_claims(model, out);
  // Problems are told apart by their order among problems of the same kind in the same file,
  // never by line: inserting lines above a parse error must not make it a "new" finding.
  std::map<std::pair<FileId, ProblemKind>, int> ordinal;
  std::vector<const Problem*> sorted;
  for (const Problem& p : model.problems) sorted.push_back(&p);
  std::stable_sort(sorted.begin(), sorted.end(), [](const Problem* a, const Problem* b) {
    return std::tie(a->at.file, a->at.line, a->at.column) <
           std::tie(b->at.file, b->at.line, b->at.column);
  });
  const std::set<Location> hatches = escape_hatch_words(model);
  // A file sourced by several scripts is evaluated once per script and records the same
  // problem each time: one place and one message is one gap.
  std::set<std::tuple<Location, ProblemKind, std::string_view>> seen;
  PathCuts cuts;
  for (const Problem* pp : sorted) {
    const Problem& p = *pp;
    if (p.kind == ProblemKind::ArgvPartlyUnknown && hatches.count(p.at) > 0) continue;
    if (!seen.emplace(p.at, p.kind, p.message).second) continue;
    if (p.kind == ProblemKind::PathCut && cuts.joins(p)) continue;
    Finding f;
    f.rule_id = rule_for(p.kind);
    f.message = p.message;
    f.at = p.at;
    f.cause = p.cause;
    f.subject = model.files.path(p.at.file);
    f.fact_path = fmt::format("{}#{}", f.rule_id, ordinal[{p.at.file, p.kind}]++);
    if (p.kind == ProblemKind::PathCut) {
      cuts.first(p, std::move(f));
      continue;
    }
    out.add(std::move(f));
  }
  cuts.emit(out);
}

}  // namespace sbr::inv
