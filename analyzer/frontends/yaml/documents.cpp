#include "analyzer/frontends/yaml/documents.h"

#include <algorithm>
#include <string>

#include <fmt/format.h>

namespace sbr {

namespace {

void past_bound(FileId file, std::uint32_t line, size_t max_documents,
                std::vector<Problem>& problems) {
  problems.push_back(
      {ProblemKind::BudgetExceeded,
       fmt::format("more than {} documents in one file: this one and those after it are not "
                   "analysed (limits.max_documents)",
                   max_documents),
       Location{file, std::max(line, 1u), 1}});
}

void parse_failed(FileId file, std::string_view what, const yaml::ParseFailure& fail,
                  std::vector<Problem>& problems) {
  Location at{file, std::max(fail.line, 1u), std::max(fail.column, 1u)};
  if (fail.too_deep) {
    problems.push_back({ProblemKind::BudgetExceeded,
                        "document not analysed: " + fail.message + " (at this node)", at});
  } else {
    problems.push_back(
        {ProblemKind::ParseError, std::string(what) + " does not parse: " + fail.message, at});
  }
}

// A document that parsed: its budget and duplicate keys, then `fn`. False: over budget.
bool read_document(const yaml::Document& doc, FileId file, std::vector<Problem>& problems,
                   const std::function<void(const yaml::Document&)>& fn) {
  if (doc.over_budget) {
    problems.push_back(
        {ProblemKind::BudgetExceeded,
         "document expands past the node budget (aliases or recursive anchors); not analysed",
         Location{file, doc.start_line, 1}});
    return false;
  }
  for (const auto& d : doc.duplicates) {
    if (d.same_value) continue;  // every parser reads the same value: nothing is ambiguous
    problems.push_back({ProblemKind::DuplicateKey,
                        "duplicate key `" + d.key +
                            "`: parsers disagree on which value wins; the last one is analysed",
                        Location{file, d.line, d.column}});
  }
  fn(doc);
  return true;
}

// The documents yaml::splice_stream derived from the base stream: each one parsed, so only
// the bound, the budget and duplicate keys can be reported, as for a whole read.
bool read_spliced(std::string_view text, FileId file, std::vector<Problem>& problems,
                  const std::function<void(const yaml::Document&)>& fn, size_t max_documents,
                  const StreamReuse& reuse) {
  auto docs = yaml::splice_stream(reuse.base_text, *reuse.base, text);
  if (!docs) return false;
  bool whole = true;
  for (size_t seen = 0; seen < docs->size(); ++seen) {
    const yaml::Document& doc = (*docs)[seen];
    if (seen == max_documents) {
      past_bound(file, doc.start_line, max_documents, problems);
      whole = false;
      break;
    }
    whole = read_document(doc, file, problems, fn) && whole;
  }
  if (reuse.keep != nullptr && whole) *reuse.keep = std::move(*docs);
  return true;
}

}  // namespace

void for_each_document(std::string_view text, FileId file, std::string_view what,
                       std::vector<Problem>& problems,
                       const std::function<void(const yaml::Document&)>& fn, size_t max_documents,
                       const StreamReuse& reuse) {
  if (reuse.base != nullptr && read_spliced(text, file, problems, fn, max_documents, reuse)) {
    return;
  }
  yaml::DocumentReader reader(text);
  yaml::Document doc;
  yaml::ParseFailure fail;
  bool whole = true;  // every document read: worth keeping for a stream spliced from this one
  for (size_t seen = 0;; ++seen) {
    auto st = reader.next(doc, fail);
    if (st == yaml::DocumentReader::Status::End) break;
    if (seen == max_documents) {
      past_bound(file, st == yaml::DocumentReader::Status::Error ? fail.line : doc.start_line,
                 max_documents, problems);
      whole = false;
      break;
    }
    if (st == yaml::DocumentReader::Status::Error) {
      parse_failed(file, what, fail, problems);
      whole = false;
      continue;
    }
    whole = read_document(doc, file, problems, fn) && whole;
    if (reuse.keep != nullptr && whole) reuse.keep->push_back(std::move(doc));
  }
  if (reuse.keep != nullptr && !whole) reuse.keep->clear();
}

}  // namespace sbr
