#include "analyzer/frontends/yaml/documents.h"

#include <algorithm>
#include <string>

namespace sbr {

void for_each_document(std::string_view text, FileId file, std::string_view what,
                       std::vector<Problem>& problems,
                       const std::function<void(const yaml::Document&)>& fn, size_t max_documents) {
  yaml::DocumentReader reader(text);
  yaml::Document doc;
  yaml::ParseFailure fail;
  for (size_t seen = 0; seen < max_documents;) {
    auto st = reader.next(doc, fail);
    if (st == yaml::DocumentReader::Status::End) break;
    ++seen;
    if (st == yaml::DocumentReader::Status::Error) {
      problems.push_back({ProblemKind::ParseError,
                          std::string(what) + " does not parse: " + fail.message,
                          Location{file, std::max(fail.line, 1u), std::max(fail.column, 1u)}});
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
