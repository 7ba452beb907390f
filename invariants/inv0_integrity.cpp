// Invariant 0: what sbreview could not analyse is reported, never skipped. Each problem the
// frontends met becomes a finding at its location (high by default: the gate fails closed).
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <tuple>

#include "invariants/common.h"
#include "invariants/modules.h"

namespace sbr::inv {
namespace {

std::string_view rule_for(ProblemKind k) {
  switch (k) {
    case ProblemKind::ParseError:
      return "SB0001";
    case ProblemKind::Unreadable:
      return "SB0002";
    case ProblemKind::SymlinkOutside:
      return "SB0003";
    case ProblemKind::TooLarge:
      return "SB0004";
    case ProblemKind::InvalidObject:
      return "SB0005";
    case ProblemKind::DuplicateKey:
      return "SB0006";
    case ProblemKind::BudgetExceeded:
      return "SB0007";
    case ProblemKind::SpecialFile:
      return "SB0008";
    case ProblemKind::BadAcceptance:
      return "SB0009";
    case ProblemKind::ExpiredAcceptance:
      return "SB0010";
    case ProblemKind::RenderFailed:
      return "SB0011";
  }
  return "SB0001";
}

}  // namespace

void check_integrity(const Model& model, Findings& out) {
  // Problems are told apart by their order among problems of the same kind in the same file,
  // never by line: inserting lines above a parse error must not make it a "new" finding.
  std::map<std::pair<FileId, ProblemKind>, int> ordinal;
  std::vector<const Problem*> sorted;
  for (const Problem& p : model.problems) sorted.push_back(&p);
  std::stable_sort(sorted.begin(), sorted.end(), [](const Problem* a, const Problem* b) {
    return std::tie(a->at.file, a->at.line, a->at.column) <
           std::tie(b->at.file, b->at.line, b->at.column);
  });
  for (const Problem* pp : sorted) {
    const Problem& p = *pp;
    Finding f;
    f.rule_id = std::string(rule_for(p.kind));
    f.message = p.message;
    f.at = p.at;
    f.subject = model.files.path(p.at.file);
    f.fact_path = fmt::format("{}#{}", f.rule_id, ordinal[{p.at.file, p.kind}]++);
    out.add(std::move(f));
  }
}

}  // namespace sbr::inv
