#include "analyzer/frontends/markdown/prose.h"

#include <algorithm>
#include <array>

namespace sbr::md {

Flat flatten(const Inline& in) {
  Flat f;
  std::uint32_t line = in.line, column = 1;
  for (const Piece& p : in.pieces) {
    // A soft break has no position of its own: it stays on the line before it.
    if (p.line != 0) {
      line = p.line;
      column = p.column;
    }
    switch (p.kind) {
      case Piece::Kind::Text:
        f.segments.push_back({f.text.size(), line, column, false});
        f.text += p.text;
        column += static_cast<std::uint32_t>(p.text.size());
        break;
      case Piece::Kind::Code: {
        CodeSpan c{f.text.size(), 0, p.text, line, column};
        f.segments.push_back({f.text.size(), line, column, true});
        f.text += "`" + p.text + "`";
        c.end = f.text.size();
        f.codes.push_back(std::move(c));
        column += static_cast<std::uint32_t>(p.text.size()) + 1;
        break;
      }
      case Piece::Kind::Link:
        f.links.push_back({f.text.size(), p.text, line, column});
        break;
    }
  }
  return f;
}

std::pair<std::uint32_t, std::uint32_t> Flat::position(std::size_t offset) const {
  auto it = std::upper_bound(segments.begin(), segments.end(), offset,
                             [](std::size_t o, const Segment& s) { return o < s.begin; });
  if (it == segments.begin()) return {segments.empty() ? 0 : segments.front().line, 1};
  const Segment& s = *std::prev(it);
  // A code span's first byte is its opening backtick, one column before the literal.
  std::size_t into = offset - s.begin;
  if (s.code) return {s.line, into == 0 ? std::max(1u, s.column - 1) : s.column + into - 1};
  return {s.line, s.column + static_cast<std::uint32_t>(into)};
}

const CodeSpan* Flat::code_at(std::size_t offset) const {
  for (const CodeSpan& c : codes) {
    if (offset >= c.begin && offset < c.end) return &c;
  }
  return nullptr;
}

namespace {

bool after_abbreviation(std::string_view text, std::size_t dot) {
  static constexpr std::array<std::string_view, 5> kAbbrev = {"e.g", "i.e", "etc", "vs", "cf"};
  for (std::string_view a : kAbbrev) {
    if (dot >= a.size() && text.substr(dot - a.size(), a.size()) == a &&
        (dot == a.size() || text[dot - a.size() - 1] == ' ' || text[dot - a.size() - 1] == '(')) {
      return true;
    }
  }
  return false;
}

bool ends_clause(const Flat& f, std::size_t i) {
  const std::string& t = f.text;
  char c = t[i];
  if (c == ';') return true;
  if (c != '.' && c != '!' && c != '?') return false;
  bool at_end = i + 1 == t.size() || t[i + 1] == ' ' || t[i + 1] == '\n';
  return at_end && !after_abbreviation(t, i);
}

}  // namespace

std::vector<Clause> split_clauses(const Flat& f) {
  std::vector<Clause> out;
  std::size_t start = 0;
  for (std::size_t i = 0; i < f.text.size(); ++i) {
    if (const CodeSpan* c = f.code_at(i)) {
      i = c->end - 1;
      continue;
    }
    if (!ends_clause(f, i)) continue;
    if (i > start) out.push_back({start, i});
    start = i + 1;
  }
  if (start < f.text.size()) out.push_back({start, f.text.size()});
  return out;
}

}  // namespace sbr::md
