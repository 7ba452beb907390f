// The shapes of YAML whose reading depends on what surrounds them, which a spliced re-read
// refuses (yaml_splice.cpp: the stream is then read whole).
#include "analyzer/support/yaml_splice_guards.h"

#include <algorithm>

namespace sbr::yaml::splice {

namespace {

bool starts_node(const Node* n, std::uint32_t line) {
  if (n == nullptr) return false;
  if (n->line == line) return true;
  for (const auto& [k, v] : n->entries) {
    if (starts_node(k, line) || starts_node(v, line)) return true;
  }
  return std::any_of(n->items.begin(), n->items.end(),
                     [line](const Node* i) { return starts_node(i, line); });
}

}  // namespace

// A key that no `:` followed (yaml-cpp then gives it a null value at the key itself): a
// plain scalar the region's end cut short, which lines after the region would have continued
// or made an error.
bool bare_key(const Node* n) {
  if (n == nullptr) return false;
  for (const auto& [k, v] : n->entries) {
    if (!n->flow && v->kind == Kind::Null && v->line == k->line && v->column == k->column) {
      return true;
    }
    if (bare_key(k) || bare_key(v)) return true;
  }
  return std::any_of(n->items.begin(), n->items.end(), bare_key);
}

// A line whose first token is a `:` value indicator. After an entry whose value is empty,
// yaml-cpp reads such a line at the entry's own indentation as that value (`a:` then `: z` is
// a: {null: z}), and as the collection's next entry otherwise: at the region's first line, or at
// the line after it, the old tree cannot tell which, since the entry before it changed.
bool value_line(std::string_view line) {
  std::size_t i = line.find_first_not_of(' ');
  return i != std::string_view::npos && line[i] == ':' &&
         (i + 1 == line.size() || line[i + 1] == ' ');
}

// The first line after the region that holds more than a comment starts a node of the old tree
// (or is a document marker): otherwise the region's last entry ran on into it (a quoted scalar
// left open to the end of the text), and the old tree has nothing for the lines after it.
bool next_line_read(const Node* root, const Lines& o, const Region& r) {
  std::size_t j = r.old_end;
  while (j < o.size() && indent_of(o.text[j]) == kNone) ++j;
  if (j == o.size()) return true;
  std::string_view t = o.text[j];
  if (t.starts_with("---") || t.starts_with("...")) return true;
  return starts_node(root, static_cast<std::uint32_t>(j + 1));
}

}  // namespace sbr::yaml::splice
