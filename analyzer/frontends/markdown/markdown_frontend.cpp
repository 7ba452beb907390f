#include <algorithm>
#include <iterator>

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

void read_markdown_file(const SourceFile& file, const FrontendContext& ctx, FilePart& out) {
  const DocumentScope* scope = scope_for(file.path, ctx.documents);
  bool claims = scope ? scope->claims : default_claims_document(file.path);
  bool examples = scope != nullptr && scope->examples;
  if (!claims && !examples) return;
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
