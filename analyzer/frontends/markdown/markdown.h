// Markdown documents (docs/doc-claims.md): README, SECURITY, threat models and docs/ pages are
// read with cmark-gfm for the controls they claim, the evidence files their claims tables cite,
// the paths and names they mention, and their fenced shell and YAML examples.
#pragma once

#include <string_view>
#include <vector>

#include "analyzer/frontends/frontend.h"
#include "analyzer/model/claims.h"

namespace sbr {

// Reads one Markdown file into `out.documents` when it is a document read for claims (its name,
// its folder, or a `documents:` entry), and its examples into workloads when configured.
void read_markdown_file(const SourceFile& file, const FrontendContext& ctx, FilePart& out);

// The first `documents:` entry whose glob matches `path`, or nullptr.
const DocumentScope* scope_for(std::string_view path, const std::vector<DocumentScope>* scopes);

// README*, SECURITY*, THREAT*MODEL*, or a page under docs/ or doc/.
bool default_claims_document(std::string_view path);

// After every file is read and the threat classes are set: which workloads each document and
// each claim speaks about (Claim::about). Examples are never part of the scope.
void link_documents(Model& model, const std::vector<DocumentScope>& scopes);

}  // namespace sbr
