// Thin helpers over the tree-sitter-bash syntax tree. Only the bash renderer and frontend
// include this: nothing else in the analyzer sees a TSNode.
#pragma once

#include <tree_sitter/api.h>

#include <cstdint>

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

// The node kinds and fields the evaluator dispatches on, resolved to the grammar's symbol and
// field ids once per process: a walk compares small integers, never type strings.
// (named node kinds, then anonymous tokens with their text, then field names)
// clang-format off
#define SBR_BASH_NODE_KINDS(X)                                                                  \
  X(ansi_c_string) X(arithmetic_expansion) X(array) X(binary_expression) X(brace_expression)   \
  X(c_style_for_statement) X(case_item) X(case_statement) X(command) X(command_name)           \
  X(command_substitution) X(comment) X(compound_statement) X(concatenation)                    \
  X(declaration_command) X(do_group) X(elif_clause) X(else_clause) X(expansion)                \
  X(extglob_pattern) X(file_redirect) X(for_statement) X(function_definition) X(heredoc_body)  \
  X(heredoc_content) X(heredoc_redirect) X(heredoc_start) X(herestring_redirect)               \
  X(if_statement) X(list) X(negated_command) X(number) X(parenthesized_expression) X(pipeline) \
  X(postfix_expression) X(process_substitution) X(program) X(raw_string)                       \
  X(redirected_statement) X(regex) X(simple_expansion) X(special_variable_name) X(string)      \
  X(string_content) X(subscript) X(subshell) X(test_command) X(test_operator)                  \
  X(translated_string) X(unary_expression) X(unset_command) X(variable_assignment)             \
  X(variable_assignments) X(variable_name) X(while_statement) X(word)
#define SBR_BASH_TOKEN_KINDS(X)                                                                 \
  X(bang, "!") X(hash, "#") X(amp, "&") X(and_and, "&&") X(or_or, "||") X(dparen_open, "((") \
  X(paren_close, ")") X(plus_eq, "+=") X(heredoc_dash, "<<-") X(brace_close, "}")            \
  X(kw_then, "then") X(kw_in, "in") X(kw_until, "until")
#define SBR_BASH_FIELDS(X)                                                                      \
  X(body) X(condition) X(descriptor) X(destination) X(index) X(initializer) X(left) X(name) \
  X(right) X(update) X(value) X(variable)
// clang-format on

// clang-format off
enum class K : std::uint8_t {
  unknown,  // a kind the evaluator does not dispatch on (ERROR, other tokens)
#define SBR_K(n) n,
  SBR_BASH_NODE_KINDS(SBR_K)
#undef SBR_K
#define SBR_K(n, text) n,
  SBR_BASH_TOKEN_KINDS(SBR_K)
#undef SBR_K
  end_,  // one past the last kind, for walks over the table
};
// clang-format on
// The first anonymous-token kind: kinds before it are named nodes.
inline constexpr K first_token_kind = K::bang;

enum class F : std::uint8_t {
#define SBR_F(n) n,
  SBR_BASH_FIELDS(SBR_F)
#undef SBR_F
};

// The kind of `n` (K::unknown for a null node).
K sym(TSNode n);
// The grammar's name of `k` ("command", "&&"), for tests and messages.
std::string_view kind_name(K k);

// Where a script may skip its security steps and still succeed (observe_guards.cpp), in
// document order: every if statement (`if_stmt`), and every list of exactly `check || branch`
// (`command -v nft >/dev/null || { echo skip; return 0; }`). A walk with a cursor, linear in the
// tree: tree-sitter's query cursor keeps a state per enclosing list, and a chain of 30,000 `&&`
// took it minutes.
struct GuardSite {
  TSNode if_stmt{}, check{}, branch{};
};
std::vector<GuardSite> guard_sites(TSNode root);

inline std::string_view kind(TSNode n) {
  return ts_node_type(n);
}
inline bool is(TSNode n, K k) {
  return sym(n) == k;
}
TSNode field(TSNode n, F f);
std::vector<TSNode> named_children(TSNode n);
std::vector<TSNode> children(TSNode n);  // named and anonymous
// The first ERROR or MISSING node in document order, or a null node.
TSNode first_error(TSNode root);

}  // namespace sbr::bash
