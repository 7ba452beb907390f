// The steps of reading a Markdown document that need the run's other files: resolving the
// evidence a claims table cites, and reading fenced examples through the other frontends.
#pragma once

#include <string_view>

#include "analyzer/frontends/frontend.h"
#include "analyzer/frontends/markdown/claims_extract.h"
#include "analyzer/frontends/markdown/markdown_tree.h"

namespace sbr::md {

// Each evidence path of `x`, resolved against the files of the run (relative to the document's
// folder, then to each folder above it); for one that exists, the row's controls whose literal
// tokens it never contains.
void resolve_evidence(Extracted& x, std::string_view doc_path, const SourceSet* sources,
                      const RepositoryLookup* repository);

// Lists the fenced shell and YAML blocks of `tree` in `doc.examples`; with `analyse`, reads
// each through the bash or Kubernetes frontend into `out.workloads`, marked as examples.
void read_examples(const Tree& tree, const SourceFile& file, bool analyse,
                   const FrontendContext& ctx, Document& doc, FilePart& out);

}  // namespace sbr::md
