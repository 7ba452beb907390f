// A block's inline text as one string (text as written, code spans in backticks), with every
// byte offset mapped back to its line and column, cut into clauses: the unit a claim, its
// negation and its condition are read in.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/frontends/markdown/markdown_tree.h"

namespace sbr::md {

struct CodeSpan {
  std::size_t begin = 0, end = 0;  // in Flat::text, the backticks included
  std::string literal;
  std::uint32_t line = 0, column = 0;  // of the literal, as cmark reports it
};

struct LinkRef {
  std::size_t at = 0;  // where the link's text starts in Flat::text
  std::string url;
  std::uint32_t line = 0, column = 0;
};

struct Flat {
  std::string text;
  std::vector<CodeSpan> codes;
  std::vector<LinkRef> links;
  // Where each piece starts in `text` and in the document.
  struct Segment {
    std::size_t begin = 0;
    std::uint32_t line = 0, column = 0;
    bool code = false;
  };
  std::vector<Segment> segments;

  // The line and column of `offset` (a code span's offsets map into its literal).
  std::pair<std::uint32_t, std::uint32_t> position(std::size_t offset) const;
  // The code span that contains `offset`, or nullptr.
  const CodeSpan* code_at(std::size_t offset) const;
};

Flat flatten(const Inline& in);

struct Clause {
  std::size_t begin = 0, end = 0;  // in Flat::text
};

// Clauses end at `;` and at `.`, `!`, `?` before a space or the end, never inside a code span
// or after an abbreviation ("e.g.", "i.e.", "etc.").
std::vector<Clause> split_clauses(const Flat& f);

}  // namespace sbr::md
