#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <string_view>

#include "analyzer/frontends/markdown/claims_extract.h"
#include "analyzer/frontends/markdown/markdown.h"
#include "analyzer/frontends/markdown/markdown_internal.h"
#include "analyzer/frontends/markdown/markdown_tree.h"
#include "analyzer/support/strings.h"

namespace sbr {

const DocumentScope* scope_for(std::string_view path, const std::vector<DocumentScope>* scopes) {
  if (scopes == nullptr) return nullptr;
  for (const DocumentScope& s : *scopes) {
    if (glob_match(s.path, path)) return &s;
  }
  return nullptr;
}

bool default_claims_document(std::string_view path) {
  std::string name = lower(base_name(path));
  std::string stem = name.substr(0, name.find('.'));
  std::erase_if(stem, [](char c) { return c == '-' || c == '_' || c == ' '; });
  if (stem.rfind("readme", 0) == 0 || stem.rfind("security", 0) == 0 ||
      stem.find("threatmodel") != std::string::npos) {
    return true;
  }
  std::vector<std::string> parts = path_components(path);
  return std::any_of(parts.begin(), parts.end() - (parts.empty() ? 0 : 1),
                     [](const std::string& p) { return lower(p) == "docs" || lower(p) == "doc"; });
}

namespace {

// What cmark-gfm is handed (docs/robustness.md): its table extension pads every row to the
// header's columns, so a 40 KB table of 5,000 columns and 5,000 rows builds 25 million cells
// (5.8 GB). A document past either budget is not read, and says so.
constexpr std::size_t kMaxMarkdownBytes = 4u << 20;
constexpr std::uint64_t kMaxTableCells = 1'000'000;

// Whether `line` is a table's delimiter row (`| --- | :-: |`); its columns in `columns`.
bool delimiter_row(std::string_view line, std::uint64_t& columns) {
  columns = 0;
  bool in_dashes = false;
  for (char c : line) {
    if (c == '-') {
      if (!in_dashes) ++columns;
      in_dashes = true;
    } else if (c == '|' || c == ' ' || c == '\t' || c == ':' || c == '\r') {
      in_dashes = in_dashes && c == ':';
    } else {
      return false;
    }
  }
  return columns > 0 && line.find('|') != std::string_view::npos;
}

// The cells cmark-gfm would build for the document's tables: each delimiter row's columns
// times the rows up to the next blank line.
std::uint64_t table_cells(std::string_view text) {
  std::uint64_t cells = 0, columns = 0;
  bool in_table = false;
  std::size_t k = 0;
  while (k <= text.size()) {
    std::size_t nl = std::min(text.find('\n', k), text.size());
    std::string_view line = text.substr(k, nl - k);
    std::uint64_t c = 0;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) {
      in_table = false;
    } else if (delimiter_row(line, c)) {
      in_table = true;
      columns = c;
      cells += columns * 2;  // the header and this row
    } else if (in_table) {
      cells += columns;
    }
    k = nl + 1;
  }
  return cells;
}

// Why the document is not handed to cmark-gfm, or "".
std::string over_budget(std::string_view text) {
  if (text.size() > kMaxMarkdownBytes) {
    return fmt::format("a Markdown document of {} bytes, past sbreview's budget of {} MiB",
                       text.size(), kMaxMarkdownBytes >> 20);
  }
  if (std::uint64_t cells = table_cells(text); cells > kMaxTableCells) {
    return fmt::format("tables of {} cells, past sbreview's budget of {}", cells, kMaxTableCells);
  }
  return "";
}

}  // namespace

void read_markdown_file(const SourceFile& file, const FrontendContext& ctx, FilePart& out) {
  const DocumentScope* scope = scope_for(file.path, ctx.documents);
  bool claims = scope ? scope->claims : default_claims_document(file.path);
  bool examples = scope != nullptr && scope->examples;
  if (!claims && !examples) return;
  if (std::string why = over_budget(file.bytes); !why.empty()) {
    out.problems.push_back({ProblemKind::BudgetExceeded,
                            fmt::format("{}; its claims and examples are not read", why),
                            Location{file.id, 1, 1}, Cause::Analyzer});
    return;
  }
  md::Tree tree = md::parse_markdown(file.bytes);
  Document doc;
  doc.file = file.id;
  if (claims) {
    md::Extracted x = md::extract_claims(tree, file.id);
    md::resolve_evidence(x, file.path, ctx.sources, ctx.repository);
    doc.claims = std::move(x.claims);
    for (md::EvidenceRow& r : x.rows) {
      std::move(r.evidence.begin(), r.evidence.end(), std::back_inserter(doc.evidence));
    }
    doc.mentions = std::move(x.mentions);
  }
  md::read_examples(tree, file, examples, ctx, doc, out);
  if (claims || !doc.examples.empty()) out.documents.push_back(std::move(doc));
}

}  // namespace sbr
