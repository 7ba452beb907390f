// Invariant 0: what sbreview could not analyse is reported, never skipped. Each problem the
// frontends met becomes a finding at its location (high by default: the gate fails closed).
#include <fmt/format.h>

#include "invariants/common.h"
#include "invariants/modules.h"

namespace sbr::inv {
namespace {

std::string_view rule_for(ProblemKind k) {
  switch (k) {
    case ProblemKind::ParseError: return "SB0001";
    case ProblemKind::Unreadable: return "SB0002";
    case ProblemKind::SymlinkOutside: return "SB0003";
    case ProblemKind::TooLarge: return "SB0004";
    case ProblemKind::InvalidObject: return "SB0005";
    case ProblemKind::DuplicateKey: return "SB0006";
    case ProblemKind::BudgetExceeded: return "SB0007";
    case ProblemKind::SpecialFile: return "SB0008";
    case ProblemKind::BadAcceptance: return "SB0009";
    case ProblemKind::ExpiredAcceptance: return "SB0010";
    case ProblemKind::RenderFailed: return "SB0011";
  }
  return "SB0001";
}

}  // namespace

void check_integrity(const Model& model, Findings& out) {
  for (const Problem& p : model.problems) {
    Finding f;
    f.rule_id = std::string(rule_for(p.kind));
    f.message = p.message;
    f.at = p.at;
    f.subject = model.files.path(p.at.file);
    // Problems of one kind in one file are told apart by position; they are not moved by
    // edits elsewhere in the way workload facts are, and there is no better identity.
    f.fact_path = fmt::format("{}:{}", p.at.line, p.at.column);
    out.add(std::move(f));
  }
}

}  // namespace sbr::inv
