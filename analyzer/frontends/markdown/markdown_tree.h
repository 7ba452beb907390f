// A Markdown document as the claim extractor needs it, read with cmark-gfm (md4c gives no source
// positions): the inline text of each paragraph, list item, heading and table cell as pieces
// with their line and column, the tables, and the fenced code blocks. Nothing outside this
// folder sees a cmark node.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sbr::md {

struct Piece {
  enum class Kind : std::uint8_t { Text, Code, Link };
  Kind kind = Kind::Text;
  std::string text;  // the text, the code span's literal, or the link's destination
  std::uint32_t line = 0, column = 0;  // 1-based; 0 for a soft break
};

// The inline content of one block; links add a Link piece before their text's pieces.
struct Inline {
  std::vector<Piece> pieces;
  std::uint32_t line = 0;
};

struct Table {
  std::vector<Inline> header;
  std::vector<std::vector<Inline>> rows;
};

struct Fence {
  std::string info;  // the info string ("bash", "yaml title=x")
  std::string body;
  std::uint32_t fence_line = 0;  // the opening fence
};

struct Tree {
  std::vector<Inline> paragraphs;  // paragraphs anywhere (lists, quotes), in order
  std::vector<Inline> headings;
  std::vector<Table> tables;
  std::vector<Fence> fences;
};

// Never fails: cmark reads any text as Markdown.
Tree parse_markdown(std::string_view text);

// The concatenated text of a block (code spans in backticks), for tests and messages.
std::string plain_text(const Inline& in);

}  // namespace sbr::md
