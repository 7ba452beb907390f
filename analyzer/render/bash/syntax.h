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

// A construct tree-sitter-bash cannot parse and bash accepts, rewritten in the parsed text with
// bytes of the same length and the same newlines (recover.cpp): every offset, line and column
// stays the file's own.
struct Repair {
  std::uint32_t begin = 0, end = 0;  // the bytes rewritten
  // The bytes whose meaning is not known as a result: a word, test or arithmetic that touches
  // them is open (not decided) for the evaluator.
  std::uint32_t affected_begin = 0, affected_end = 0;
  std::uint32_t row = 0, column = 0;  // where the construct starts, 0-based
  std::string what;                   // the finding's words: what was rewritten, what is unknown
  // A blanked `&` after a here-document start: the statement starting at this byte still runs
  // in the background (SyntaxTree::background_at).
  bool background = false;
  std::uint32_t statement = 0;
};

// One parsed text. The evaluator keeps every tree it parses (sourced files, trap handlers,
// `sh -c` strings) alive for the whole render, because function bodies point into them.
struct SyntaxTree {
  std::string text;  // what was parsed: the file's bytes, with `repairs` applied
  TSTree* tree = nullptr;
  std::vector<Repair> repairs;  // in the order made; none when tree-sitter-bash parsed the text
  std::string original;         // the bytes as written, kept only when `repairs` rewrote `text`
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
  // Whether `n` covers bytes a repair left not known.
  bool touches_repair(TSNode n) const;
  // Whether all of `n` lies in bytes a repair left not known (a test rewritten as a whole).
  bool within_repair(TSNode n) const;
  // The bytes of `n` as written (for messages): the original text where a repair rewrote it.
  std::string_view shown(TSNode n) const;
  // Whether the statement starting at `byte` had its trailing `&` blanked by a repair.
  bool background_at(std::uint32_t byte) const;
  std::string_view slice(TSNode n) const {
    uint32_t b = ts_node_start_byte(n), e = ts_node_end_byte(n);
    if (b > text.size()) return {};
    return std::string_view(text).substr(b, std::min<size_t>(e, text.size()) - b);
  }
};

std::unique_ptr<SyntaxTree> parse_bash(std::string text);
// parse_bash, then, where tree-sitter-bash fails on a construct bash accepts, the construct
// neutralised and the text parsed again, a bounded number of times (recover.cpp). The tree may
// still have errors: those it could not recover.
std::unique_ptr<SyntaxTree> parse_bash_recovering(std::string text);

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
enum class Walk : std::uint8_t { Into, Over, Stop };

// Visits `root` and the nodes below it in pre-order with a tree cursor, iteratively (a deeply
// nested file costs no native stack, and no state per enclosing node as tree-sitter's query
// cursor keeps): `visit` says whether to descend into the node, step over it, or stop.
template <class Visit>
void walk_preorder(TSNode root, Visit visit) {
  TSTreeCursor c = ts_tree_cursor_new(root);
  for (;;) {
    Walk w = visit(ts_tree_cursor_current_node(&c));
    if (w == Walk::Stop) break;
    if (w == Walk::Into && ts_tree_cursor_goto_first_child(&c)) continue;
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
}

// The first ERROR or MISSING node in document order, or a null node.
TSNode first_error(TSNode root);
// The first (or the last) anonymous token of grammar type `type` (`[[`) below `root` that
// starts in [from, to]; a null node when there is none.
TSNode find_token(TSNode root, const char* type, uint32_t from, uint32_t to, bool last);
// The anonymous `$` token a word ends with (`cost=5$`, or `"$PWD":/home/$` when tree-sitter-bash
// cut the parameter after it off), or a null node.
TSNode trailing_dollar(TSNode n);

}  // namespace sbr::bash
