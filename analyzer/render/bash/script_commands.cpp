#include "analyzer/render/bash/script_commands.h"

#include "analyzer/render/bash/syntax.h"

namespace sbr::bash {
namespace {

// A command's words: the program (a plain word, or nothing is known), then every argument as
// written. Assignments in front and redirections are not words of the command.
std::optional<std::vector<std::string>> command_words(const SyntaxTree& t, TSNode cmd) {
  std::vector<std::string> words;
  for (TSNode c : named_children(cmd)) {
    K k = sym(c);
    if (k == K::variable_assignment || k == K::file_redirect || k == K::herestring_redirect ||
        k == K::heredoc_redirect)
      continue;
    if (k == K::command_name) {
      TSNode program = ts_node_named_child(c, 0);
      if (ts_node_named_child_count(c) != 1 || sym(program) != K::word || t.touches_repair(c))
        return std::nullopt;
    }
    words.emplace_back(t.slice(c));
  }
  return words;
}

}  // namespace

std::optional<std::vector<std::vector<std::string>>> script_commands(std::string_view text) {
  // Recovered where tree-sitter-bash lacks a construct (`for part do`); a program a repair
  // left not known is not written out.
  auto tree = parse_bash_recovering(std::string(text));
  if (tree->tree == nullptr || ts_node_has_error(tree->root())) return std::nullopt;
  std::vector<std::vector<std::string>> out;
  bool known = true;
  walk_preorder(tree->root(), [&](TSNode n) {
    if (sym(n) != K::command) return Walk::Into;
    auto words = command_words(*tree, n);
    if (!words) {
      known = false;
      return Walk::Stop;
    }
    if (!words->empty()) out.push_back(std::move(*words));
    // Substitutions in the arguments run commands of their own.
    return Walk::Into;
  });
  if (!known) return std::nullopt;
  return out;
}

}  // namespace sbr::bash
