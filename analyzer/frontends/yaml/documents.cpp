#include "analyzer/frontends/yaml/documents.h"

#include <algorithm>
#include <string>

#include <fmt/format.h>

namespace sbr {

void for_each_document(std::string_view text, FileId file, std::string_view what,
                       std::vector<Problem>& problems,
                       const std::function<void(const yaml::Document&)>& fn, size_t max_documents) {
  yaml::DocumentReader reader(text);
  yaml::Document doc;
  yaml::ParseFailure fail;
  for (size_t seen = 0;; ++seen) {
    auto st = reader.next(doc, fail);
    if (st == yaml::DocumentReader::Status::End) break;
    if (seen == max_documents) {
      std::uint32_t line = st == yaml::DocumentReader::Status::Error ? fail.line : doc.start_line;
      problems.push_back(
          {ProblemKind::BudgetExceeded,
           fmt::format("more than {} documents in one file: this one and those after it are not "
                       "analysed (limits.max_documents)",
                       max_documents),
           Location{file, std::max(line, 1u), 1}});
      break;
    }
    if (st == yaml::DocumentReader::Status::Error) {
      Location at{file, std::max(fail.line, 1u), std::max(fail.column, 1u)};
      if (fail.too_deep) {
        problems.push_back({ProblemKind::BudgetExceeded,
                            "document not analysed: " + fail.message + " (at this node)", at});
      } else {
        problems.push_back(
            {ProblemKind::ParseError, std::string(what) + " does not parse: " + fail.message, at});
      }
      continue;
    }
    if (doc.over_budget) {
      problems.push_back(
          {ProblemKind::BudgetExceeded,
           "document expands past the node budget (aliases or recursive anchors); not analysed",
           Location{file, doc.start_line, 1}});
      continue;
    }
    for (const auto& d : doc.duplicates) {
      problems.push_back({ProblemKind::DuplicateKey,
                          "duplicate key `" + d.key +
                              "`: parsers disagree on which value wins; the last one is analysed",
                          Location{file, d.line, d.column}});
    }
    fn(doc);
  }
}

}  // namespace sbr
