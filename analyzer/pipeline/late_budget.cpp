#include "analyzer/pipeline/late_budget.h"

#include <fmt/format.h>

#include <map>

namespace sbr {

void threats_not_inferred(Model& model, const std::string& why) {
  std::map<FileId, std::size_t> per_file;  // ordered: the problems come out in file order
  for (Workload& w : model.workloads) {
    w.threat = ThreatClass::UntrustedCode;
    w.threat_source = ThreatSource::Inferred;
    w.threat_reason = "not inferred: the run met its budget (the default)";
    ++per_file[w.object_from.at.file];
  }
  for (const auto& [file, n] : per_file) {
    model.problems.push_back(
        {ProblemKind::BudgetExceeded,
         fmt::format("threat classes not inferred: {} before that step; the {} workload{} of this "
                     "file {} judged as running untrusted code",
                     why, n, n == 1 ? "" : "s", n == 1 ? "is" : "are"),
         Location{file, 0, 0}, Cause::Analyzer});
  }
}

void documents_not_linked(Model& model, const std::string& why) {
  for (Document& doc : model.documents) {
    if (doc.claims.empty()) continue;
    const std::size_t n = doc.claims.size();
    doc.claims.clear();
    doc.about_note = "not linked: the run met its budget";
    model.problems.push_back(
        {ProblemKind::BudgetExceeded,
         fmt::format("the document's {} claim{} {} not checked: {} before they were linked to "
                     "the workloads they describe",
                     n, n == 1 ? "" : "s", n == 1 ? "is" : "are", why),
         Location{doc.file, 0, 0}, Cause::Analyzer});
  }
}

}  // namespace sbr
