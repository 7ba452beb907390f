// A whole document: its claims tables (control column, evidence column), its prose, and the
// paths and names it mentions.
#include <re2/re2.h>

#include <algorithm>
#include <optional>

#include "analyzer/frontends/markdown/claims_extract.h"
#include "analyzer/frontends/markdown/vocabulary.h"
#include "analyzer/support/strings.h"

namespace sbr::md {
namespace {

std::optional<std::size_t> column_of(const Table& t, bool (*is)(std::string_view),
                                     std::optional<std::size_t> not_this = std::nullopt) {
  for (std::size_t i = 0; i < t.header.size(); ++i) {
    if (not_this && *not_this == i) continue;
    if (is(plain_text(t.header[i]))) return i;
  }
  return std::nullopt;
}

// "tests/e2e/11_net.sh", "tests/e2e/11_net.sh:42", "docs/x.md#section": the file part, or "" when
// the text is not a file path (a URL, a word, a flag).
std::string evidence_path(std::string_view text) {
  text = trim(text);
  if (text.empty() || text.find("://") != std::string_view::npos || text[0] == '#' ||
      text.rfind("mailto:", 0) == 0) {
    return "";
  }
  std::string p(text.substr(0, text.find('#')));
  static const RE2 kLine(R"((.*?)(?::\d+(?:-\d+)?)?)");
  RE2::FullMatch(std::string(p), kLine, &p);
  static const RE2 kFile(R"([\w.~/-]*\w\.[A-Za-z0-9]{1,6})");
  if (looks_like_path(p) || RE2::FullMatch(p, kFile)) return p;
  return "";
}

void row_evidence(const Inline& cell, FileId file, EvidenceRow& row) {
  for (const Piece& p : cell.pieces) {
    if (p.kind == Piece::Kind::Text) continue;
    std::string path = evidence_path(p.text);
    if (path.empty()) continue;
    bool seen = std::any_of(row.evidence.begin(), row.evidence.end(),
                            [&](const ClaimEvidence& e) { return e.path == path; });
    if (seen) continue;
    ClaimEvidence e;
    e.path = path;
    e.at = Location{file, p.line, p.column};
    row.evidence.push_back(std::move(e));
  }
}

void read_table(const Table& t, FileId file, Extracted& out) {
  std::optional<std::size_t> control = column_of(t, is_control_header);
  if (!control) return;  // a reference table, not a table of claims
  std::optional<std::size_t> evidence = column_of(t, is_evidence_header, control);
  // A column headed by a jail's name ("bwrap primitive") makes every row about that jail.
  std::string table_inner;
  for (const Inline& h : t.header)
    if (table_inner.empty()) table_inner = inner_sandbox_named(plain_text(h));
  for (const auto& row : t.rows) {
    EvidenceRow r;
    if (*control < row.size()) {
      std::size_t first = out.claims.size();
      claims_in_block(row[*control], ClaimOrigin::Table, file, out.claims);
      std::string inner = table_inner;
      for (const Inline& cell : row)
        if (inner.empty()) inner = inner_sandbox_named(plain_text(cell));
      for (std::size_t i = first; i < out.claims.size(); ++i) {
        r.claims.push_back(i);
        if (out.claims[i].inner_sandbox.empty()) out.claims[i].inner_sandbox = inner;
      }
    }
    if (evidence && *evidence < row.size()) row_evidence(row[*evidence], file, r);
    if (!r.evidence.empty()) out.rows.push_back(std::move(r));
  }
}

// Paths and names in code spans and links: what the document may be about.
void mentions_of(const Inline& in, FileId file, std::vector<DocMention>& out) {
  for (const Piece& p : in.pieces) {
    if (p.kind == Piece::Kind::Text) continue;
    std::string_view t = trim(p.text);
    if (t.empty() || t.size() > 200 || t.find_first_of(" \t") != std::string_view::npos ||
        t.find("://") != std::string_view::npos || t[0] == '-' || t[0] == '#') {
      continue;
    }
    out.push_back({std::string(t), Location{file, p.line, p.column}});
  }
}

}  // namespace

Extracted extract_claims(const Tree& tree, FileId file) {
  Extracted out;
  for (const Table& t : tree.tables) {
    read_table(t, file, out);
    for (const auto& row : t.rows) {
      for (const Inline& cell : row) mentions_of(cell, file, out.mentions);
    }
  }
  for (const Inline& p : tree.paragraphs) {
    claims_in_block(p, ClaimOrigin::Prose, file, out.claims);
    mentions_of(p, file, out.mentions);
  }
  for (const Inline& h : tree.headings) mentions_of(h, file, out.mentions);
  // Tables are read before prose; a reader wants the document's order.
  std::vector<std::size_t> order(out.claims.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const Location &x = out.claims[a].at, &y = out.claims[b].at;
    return x.line != y.line ? x.line < y.line : x.column < y.column;
  });
  std::vector<std::size_t> new_index(order.size());
  std::vector<Claim> sorted;
  for (std::size_t i = 0; i < order.size(); ++i) {
    new_index[order[i]] = i;
    sorted.push_back(std::move(out.claims[order[i]]));
  }
  out.claims = std::move(sorted);
  for (EvidenceRow& r : out.rows) {
    for (std::size_t& i : r.claims) i = new_index[i];
  }
  std::sort(out.mentions.begin(), out.mentions.end(),
            [](const DocMention& a, const DocMention& b) { return a.at < b.at; });
  return out;
}

}  // namespace sbr::md
