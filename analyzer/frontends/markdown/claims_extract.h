// Claims out of a parsed Markdown document: the controls of claims tables (one per code span of
// the control column, with the row's evidence paths) and of prose (the vocabulary's phrases and
// flags), each with how its sentence reads. Pure: no file system, no other document.
#pragma once

#include <cstddef>
#include <vector>

#include "analyzer/frontends/markdown/markdown_tree.h"
#include "analyzer/model/claims.h"

namespace sbr::md {

// One row of a claims table: its claims (indices into Extracted::claims) and the files its
// evidence column cites (not yet resolved against the run's files).
struct EvidenceRow {
  std::vector<std::size_t> claims;
  std::vector<ClaimEvidence> evidence;
};

struct Extracted {
  std::vector<Claim> claims;
  std::vector<EvidenceRow> rows;
  std::vector<DocMention> mentions;
};

Extracted extract_claims(const Tree& tree, FileId file);

// Claims of one block of prose (`origin` Prose) or one control cell (`origin` Table: flags the
// vocabulary does not know become Unknown claims, and an imperative is not advice there).
void claims_in_block(const Inline& block, ClaimOrigin origin, FileId file, std::vector<Claim>& out);

}  // namespace sbr::md
