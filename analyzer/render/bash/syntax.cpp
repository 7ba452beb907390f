#include "analyzer/render/bash/syntax.h"

#include <cstring>

namespace sbr::bash {

SyntaxTree::~SyntaxTree() {
  if (tree != nullptr) ts_tree_delete(tree);
}

std::unique_ptr<SyntaxTree> parse_bash(std::string text) {
  auto t = std::make_unique<SyntaxTree>();
  t->text = std::move(text);
  TSParser* p = ts_parser_new();
  ts_parser_set_language(p, tree_sitter_bash());
  t->tree =
      ts_parser_parse_string(p, nullptr, t->text.data(), static_cast<uint32_t>(t->text.size()));
  ts_parser_delete(p);
  return t;
}

TSNode field(TSNode n, const char* name) {
  return ts_node_child_by_field_name(n, name, static_cast<uint32_t>(std::strlen(name)));
}

std::vector<TSNode> named_children(TSNode n) {
  std::vector<TSNode> out;
  uint32_t c = ts_node_named_child_count(n);
  out.reserve(c);
  for (uint32_t i = 0; i < c; ++i) out.push_back(ts_node_named_child(n, i));
  return out;
}

std::vector<TSNode> children(TSNode n) {
  std::vector<TSNode> out;
  uint32_t c = ts_node_child_count(n);
  out.reserve(c);
  for (uint32_t i = 0; i < c; ++i) out.push_back(ts_node_child(n, i));
  return out;
}

TSNode first_error(TSNode root) {
  if (!ts_node_has_error(root)) return TSNode{};
  // Iterative pre-order walk: a deeply nested error must not overflow the stack.
  TSTreeCursor c = ts_tree_cursor_new(root);
  TSNode found{};
  for (;;) {
    TSNode n = ts_tree_cursor_current_node(&c);
    if (std::strcmp(ts_node_type(n), "ERROR") == 0 || ts_node_is_missing(n)) {
      found = n;
      break;
    }
    if (ts_node_has_error(n) && ts_tree_cursor_goto_first_child(&c)) continue;
    bool moved = false;
    while (!moved) {
      if (ts_tree_cursor_goto_next_sibling(&c)) {
        moved = true;
      } else if (!ts_tree_cursor_goto_parent(&c)) {
        break;
      }
    }
    if (!moved) break;
  }
  ts_tree_cursor_delete(&c);
  // An ERROR node can wrap a long valid prefix; the innermost error inside it (or its first
  // unexpected token) is where the text stops making sense.
  while (!ts_node_is_null(found) && !ts_node_is_missing(found)) {
    TSNode inner{};
    uint32_t n = ts_node_child_count(found);
    for (uint32_t i = 0; i < n; ++i) {
      TSNode ch = ts_node_child(found, i);
      if (std::strcmp(ts_node_type(ch), "ERROR") == 0 || ts_node_has_error(ch)) {
        inner = ch;
        break;
      }
    }
    if (ts_node_is_null(inner)) break;
    if (std::strcmp(ts_node_type(inner), "ERROR") != 0 && !ts_node_is_missing(inner)) {
      TSNode deeper = first_error(inner);
      if (ts_node_is_null(deeper)) break;
      inner = deeper;
    }
    if (ts_node_eq(inner, found)) break;
    found = inner;
  }
  return found;
}

}  // namespace sbr::bash
