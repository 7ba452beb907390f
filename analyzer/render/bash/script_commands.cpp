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

std::optional<std::size_t> shell_text_at(const std::vector<std::string_view>& words) {
  if (words.empty()) return std::nullopt;
  std::string_view program = words[0].substr(words[0].rfind('/') + 1);
  if (program != "sh" && program != "bash" && program != "ash" && program != "dash" &&
      program != "zsh")
    return std::nullopt;
  // Options up to the one that takes the text: `-c`, or short ones that hold it (`-ec`, `-cx`).
  for (std::size_t i = 1; i + 1 < words.size(); ++i) {
    std::string_view o = words[i];
    if (o.size() < 2 || o[0] != '-') return std::nullopt;  // a script file: no `-c` text
    if (o[1] != '-' && o.find('c') != std::string_view::npos) return i + 1;
  }
  return std::nullopt;
}

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
