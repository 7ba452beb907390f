#include "analyzer/frontends/markdown/markdown_tree.h"

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm-extension_api.h>
#include <cmark-gfm.h>

#include <cstdlib>
#include <memory>
#include <mutex>

namespace sbr::md {
namespace {

struct NodeFree {
  void operator()(cmark_node* n) const { cmark_node_free(n); }
};
struct ParserFree {
  void operator()(cmark_parser* p) const { cmark_parser_free(p); }
};

std::uint32_t u32(int v) {
  return v > 0 ? static_cast<std::uint32_t>(v) : 0;
}

std::string literal(cmark_node* n) {
  const char* s = cmark_node_get_literal(n);
  return s == nullptr ? std::string() : std::string(s);
}

bool is(cmark_node* n, std::string_view type) {
  return type == cmark_node_get_type_string(n);
}

struct IterFree {
  void operator()(cmark_iter* i) const { cmark_iter_free(i); }
};

// The inline pieces below `block`, in document order. Emphasis and links are walked into;
// images and raw HTML say nothing a claim is made of. cmark's iterator keeps the walk off the
// native stack: a document can nest thousands of levels in a few kilobytes.
void collect_inlines(cmark_node* block, Inline& out) {
  std::unique_ptr<cmark_iter, IterFree> it(cmark_iter_new(block));
  for (cmark_event_type ev; (ev = cmark_iter_next(it.get())) != CMARK_EVENT_DONE;) {
    cmark_node* n = cmark_iter_get_node(it.get());
    if (ev != CMARK_EVENT_ENTER || n == block) continue;
    const int line = cmark_node_get_start_line(n), col = cmark_node_get_start_column(n);
    switch (cmark_node_get_type(n)) {
      case CMARK_NODE_TEXT:
        out.pieces.push_back({Piece::Kind::Text, literal(n), u32(line), u32(col)});
        break;
      case CMARK_NODE_CODE:
        out.pieces.push_back({Piece::Kind::Code, literal(n), u32(line), u32(col)});
        break;
      case CMARK_NODE_SOFTBREAK:
      case CMARK_NODE_LINEBREAK:
        out.pieces.push_back({Piece::Kind::Text, " ", 0, 0});
        break;
      case CMARK_NODE_LINK: {
        const char* url = cmark_node_get_url(n);
        out.pieces.push_back({Piece::Kind::Link, url ? url : "", u32(line), u32(col)});
        break;  // its text follows
      }
      case CMARK_NODE_EMPH:
      case CMARK_NODE_STRONG:
        break;  // walked into
      default:
        cmark_iter_reset(it.get(), n, CMARK_EVENT_EXIT);  // nothing below it is read
        break;
    }
  }
}

Inline inline_of(cmark_node* block) {
  Inline in;
  in.line = u32(cmark_node_get_start_line(block));
  collect_inlines(block, in);
  return in;
}

void read_table(cmark_node* table, Tree& out) {
  Table t;
  for (cmark_node* row = cmark_node_first_child(table); row != nullptr;
       row = cmark_node_next(row)) {
    std::vector<Inline> cells;
    for (cmark_node* c = cmark_node_first_child(row); c != nullptr; c = cmark_node_next(c)) {
      cells.push_back(inline_of(c));
    }
    if (is(row, "table_header")) {
      t.header = std::move(cells);
    } else {
      t.rows.push_back(std::move(cells));
    }
  }
  out.tables.push_back(std::move(t));
}

// The blocks below `root`: block quotes, lists and items are walked into, iteratively (see
// collect_inlines); the blocks a claim is read from are taken whole.
void walk_blocks(cmark_node* root, Tree& out) {
  std::unique_ptr<cmark_iter, IterFree> it(cmark_iter_new(root));
  for (cmark_event_type ev; (ev = cmark_iter_next(it.get())) != CMARK_EVENT_DONE;) {
    cmark_node* n = cmark_iter_get_node(it.get());
    if (ev != CMARK_EVENT_ENTER || n == root) continue;
    switch (cmark_node_get_type(n)) {
      case CMARK_NODE_BLOCK_QUOTE:
      case CMARK_NODE_LIST:
      case CMARK_NODE_ITEM:
        continue;  // walked into
      case CMARK_NODE_PARAGRAPH:
        out.paragraphs.push_back(inline_of(n));
        break;
      case CMARK_NODE_HEADING:
        out.headings.push_back(inline_of(n));
        break;
      case CMARK_NODE_CODE_BLOCK: {
        int length = 0, offset = 0;
        char fence = 0;
        if (cmark_node_get_fenced(n, &length, &offset, &fence) != 0) {
          const char* info = cmark_node_get_fence_info(n);
          out.fences.push_back({info ? info : "", literal(n), u32(cmark_node_get_start_line(n))});
        }
        break;
      }
      default:
        if (is(n, "table")) read_table(n, out);
        break;
    }
    cmark_iter_reset(it.get(), n, CMARK_EVENT_EXIT);  // its content was taken, or is not read
  }
}

const std::vector<cmark_syntax_extension*>& extensions() {
  // Registration fills a process-wide list: once, before any worker thread parses.
  static std::once_flag once;
  static std::vector<cmark_syntax_extension*> exts;
  std::call_once(once, [] {
    cmark_gfm_core_extensions_ensure_registered();
    // Not strikethrough: cmark-gfm reads a single `~` as one, and `~/.ssh ... ~/.aws` in
    // prose is two paths, not struck-out text.
    for (const char* name : {"table", "autolink"}) {
      if (cmark_syntax_extension* e = cmark_find_syntax_extension(name)) exts.push_back(e);
    }
  });
  return exts;
}

}  // namespace

Tree parse_markdown(std::string_view text) {
  const auto& exts = extensions();
  std::unique_ptr<cmark_parser, ParserFree> parser(cmark_parser_new(CMARK_OPT_DEFAULT));
  for (cmark_syntax_extension* e : exts) cmark_parser_attach_syntax_extension(parser.get(), e);
  cmark_parser_feed(parser.get(), text.data(), text.size());
  std::unique_ptr<cmark_node, NodeFree> doc(cmark_parser_finish(parser.get()));
  Tree out;
  if (doc) walk_blocks(doc.get(), out);
  return out;
}

std::string plain_text(const Inline& in) {
  std::string out;
  for (const Piece& p : in.pieces) {
    if (p.kind == Piece::Kind::Code) {
      out += "`" + p.text + "`";
    } else if (p.kind == Piece::Kind::Text) {
      out += p.text;
    }
  }
  return out;
}

}  // namespace sbr::md
