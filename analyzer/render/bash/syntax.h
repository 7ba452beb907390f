// Thin helpers over the tree-sitter-bash syntax tree. Only the bash renderer and frontend
// include this: nothing else in the analyzer sees a TSNode.
#pragma once

#include <tree_sitter/api.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

extern "C" const TSLanguage* tree_sitter_bash(void);

namespace sbr::bash {

// One parsed text. The evaluator keeps every tree it parses (sourced files, trap handlers,
// `sh -c` strings) alive for the whole render, because function bodies point into them.
struct SyntaxTree {
  std::string text;
  TSTree* tree = nullptr;
  // Where the text starts in its file: re-parsed strings (a trap handler, `sh -c "..."`)
  // report locations at the string's own position.
  unsigned file_id = 0xffffffffu;
  unsigned line0 = 0;        // 0-based line of the text's first byte in the file
  unsigned column0 = 0;      // 0-based column of the text's first byte on that line
  bool config_file = false;  // values assigned here come from a configuration file

  SyntaxTree() = default;
  SyntaxTree(const SyntaxTree&) = delete;
  SyntaxTree& operator=(const SyntaxTree&) = delete;
  ~SyntaxTree();

  TSNode root() const { return ts_tree_root_node(tree); }
  std::string_view slice(TSNode n) const {
    uint32_t b = ts_node_start_byte(n), e = ts_node_end_byte(n);
    if (b > text.size()) return {};
    return std::string_view(text).substr(b, std::min<size_t>(e, text.size()) - b);
  }
};

std::unique_ptr<SyntaxTree> parse_bash(std::string text);

inline std::string_view kind(TSNode n) {
  return ts_node_type(n);
}
inline bool is(TSNode n, std::string_view k) {
  return !ts_node_is_null(n) && kind(n) == k;
}
TSNode field(TSNode n, const char* name);
std::vector<TSNode> named_children(TSNode n);
std::vector<TSNode> children(TSNode n);  // named and anonymous
// The first ERROR or MISSING node in document order, or a null node.
TSNode first_error(TSNode root);

}  // namespace sbr::bash
