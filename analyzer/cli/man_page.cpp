#include "analyzer/cli/man_page.h"

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm.h>

#include <algorithm>
#include <cctype>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "analyzer/support/build_info.h"

namespace sbr {

namespace {

// Text for a roff line: backslashes escaped, hyphens as \- (so options copy and paste), a
// leading '.' or '\'' kept from being read as a request, `code` in bold.
std::string roff(std::string_view text) {
  std::string out;
  bool code = false;
  for (char c : text) {
    if (c == '\\') {
      out += "\\e";
    } else if (c == '-') {
      out += "\\-";
    } else if (c == '`') {
      out += code ? "\\fR" : "\\fB";
      code = !code;
    } else {
      out += c;
    }
  }
  if (code) out += "\\fR";
  if (!out.empty() && (out[0] == '.' || out[0] == '\'')) out.insert(0, "\\&");
  return out;
}

// "Reviews the configuration of sandboxes ... (Kubernetes ...)." → the NAME line's summary.
std::string summary_of(const UsageSpec& usage) {
  if (usage.description.empty()) return "security review of sandbox configuration";
  std::string s = usage.description.front();
  s = s.substr(0, s.find_first_of("(.:"));
  while (!s.empty() && s.back() == ' ') s.pop_back();
  if (!s.empty()) s[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(s[0])));
  return s;
}

void write_from_help(const UsageSpec& usage, std::ostream& out) {
  out << ".\\\" Generated from `sbreview --help` and docs/usage.md; edit those, not this.\n"
      << ".TH SBREVIEW 1 \"\" \"sbreview " << build_version() << "\" \"User Commands\"\n"
      << ".SH NAME\nsbreview \\- " << roff(summary_of(usage)) << "\n"
      << ".SH SYNOPSIS\n.nf\n";
  for (const std::string& line : usage.synopsis) out << roff(line) << "\n";
  out << ".fi\n.SH DESCRIPTION\n";
  for (const std::string& para : usage.description) out << ".PP\n" << roff(para) << "\n";
  for (const std::string& para : usage.epilogue) out << ".PP\n" << roff(para) << "\n";
  out << ".SH OPTIONS\n";
  for (const UsageOption& o : usage.options) {
    std::string head;
    for (const std::string& n : o.names)
      head += (head.empty() ? "" : ", ") + ("\\fB" + roff(n) + "\\fR");
    if (!o.metavar.empty()) {
      head += (o.written_inline ? "=" : " ") + ("\\fI" + roff(o.metavar) + "\\fR");
    }
    out << ".TP\n" << head << "\n" << roff(o.help) << "\n";
  }
}

struct NodeFree {
  void operator()(cmark_node* n) const { cmark_node_free(n); }
};
struct ParserFree {
  void operator()(cmark_parser* p) const { cmark_parser_free(p); }
};

void uppercase_text(cmark_node* heading) {
  for (cmark_node* c = cmark_node_first_child(heading); c; c = cmark_node_next(c)) {
    if (cmark_node_get_type(c) != CMARK_NODE_TEXT) continue;
    std::string t = cmark_node_get_literal(c);
    for (char& ch : t) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    cmark_node_set_literal(c, t.c_str());
  }
}

bool heading_named(cmark_node* n, int level, std::string_view name) {
  if (cmark_node_get_type(n) != CMARK_NODE_HEADING || cmark_node_get_heading_level(n) != level) {
    return false;
  }
  cmark_node* text = cmark_node_first_child(n);
  return text && cmark_node_get_type(text) == CMARK_NODE_TEXT &&
         cmark_node_get_literal(text) == name;
}

// The document's sections one level up (## → .SH, ### → .SS). The title and the intro before
// the first ## go (the help gave NAME and DESCRIPTION), and so does the body of `## Options`
// before its first ###, whose subsections become sections of their own.
void reshape_sections(cmark_node* doc) {
  bool before_first = true, in_options = false, in_options_body = false;
  cmark_node* n = cmark_node_first_child(doc);
  while (n) {
    cmark_node* next = cmark_node_next(n);
    bool heading = cmark_node_get_type(n) == CMARK_NODE_HEADING;
    int level = heading ? cmark_node_get_heading_level(n) : 0;
    if (heading && level <= 2) {
      before_first = level == 1 && before_first;
      in_options = in_options_body = heading_named(n, 2, "Options");
    } else if (heading) {
      in_options_body = false;
    }
    if (before_first || in_options_body) {
      cmark_node_unlink(n);
      cmark_node_free(n);
    } else if (heading) {
      // ## → .SH, ### → .SS; the ### of `## Options` stand as sections of their own.
      int shift = in_options && level == 3 ? 2 : 1;
      cmark_node_set_heading_level(n, std::max(1, level - shift));
      if (cmark_node_get_heading_level(n) == 1) uppercase_text(n);
    }
    n = next;
  }
}

std::string render_man(cmark_node* n) {
  char* text = cmark_render_man(n, CMARK_OPT_DEFAULT, 0);
  std::string s(text);
  free(text);  // NOLINT(cppcoreguidelines-no-malloc): cmark allocates with malloc
  return s;
}

// A cell's inline content as roff text: its children moved into a paragraph of their own,
// rendered, the paragraph request dropped.
std::string cell_text(cmark_node* cell) {
  std::unique_ptr<cmark_node, NodeFree> para(cmark_node_new(CMARK_NODE_PARAGRAPH));
  while (cmark_node* c = cmark_node_first_child(cell)) cmark_node_append_child(para.get(), c);
  std::string s = render_man(para.get());
  if (s.rfind(".PP\n", 0) == 0) s.erase(0, 4);
  while (!s.empty() && s.back() == '\n') s.pop_back();
  return s;
}

// A table as a tagged list: tbl cannot wrap cmark's cells, and the docs' tables are wider than
// a terminal. The first cell is the tag; the others follow, after their column's name when
// there are more than two columns.
std::string render_table(cmark_node* table) {
  std::vector<std::string> header;
  std::string out;
  for (cmark_node* row = cmark_node_first_child(table); row; row = cmark_node_next(row)) {
    std::vector<std::string> cells;
    for (cmark_node* c = cmark_node_first_child(row); c; c = cmark_node_next(c)) {
      cells.push_back(cell_text(c));
    }
    if (header.empty()) {
      header = cells;
      continue;
    }
    if (cells.empty()) continue;
    out += ".TP\n" + cells[0] + "\n";
    for (size_t i = 1; i < cells.size(); ++i) {
      if (header.size() > 2 && i < header.size()) out += header[i] + ": ";
      out += cells[i] + (i + 1 < cells.size() ? ".\n" : "\n");
    }
  }
  return out;
}

void write_from_docs(std::string_view markdown, std::ostream& out) {
  cmark_gfm_core_extensions_ensure_registered();
  std::unique_ptr<cmark_parser, ParserFree> parser(cmark_parser_new(CMARK_OPT_DEFAULT));
  cmark_parser_attach_syntax_extension(parser.get(), cmark_find_syntax_extension("table"));
  cmark_parser_feed(parser.get(), markdown.data(), markdown.size());
  std::unique_ptr<cmark_node, NodeFree> doc(cmark_parser_finish(parser.get()));
  reshape_sections(doc.get());
  for (cmark_node* n = cmark_node_first_child(doc.get()); n; n = cmark_node_next(n)) {
    bool table = std::string_view(cmark_node_get_type_string(n)) == "table";
    out << (table ? render_table(n) : render_man(n));
  }
}

}  // namespace

void write_man_page(const UsageSpec& usage, std::string_view usage_markdown,
                    std::string_view doc_dir, std::ostream& out) {
  write_from_help(usage, out);
  write_from_docs(usage_markdown, out);
  out << ".SH SEE ALSO\n"
      << "The documentation in \\fI" << roff(doc_dir)
      << "\\fR: one page per rule in \\fIrules/\\fR and per invariant in "
         "\\fIinvariants/\\fR. \\fBsbreview completion bash\\fR prints the shell "
         "completion.\n";
}

}  // namespace sbr
