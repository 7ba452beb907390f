// The simple commands of a short shell text that a container runs (`sh -c 'mkdir -p /d && chown
// 1000 /d'`), read with the same grammar as the launcher itself. The launch frontend asks it so
// that a helper step's class (engine/threat_helpers.cpp) is judged on what the text runs, not on
// how it is laid out over lines, loops and comments.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sbr::bash {

// In a command's words (`sh -ec TEXT name args`, `bash --norc -c TEXT`): the index of the text a
// shell (sh, bash, ash, dash, zsh, by base name) is given to run, after its options; nullopt
// when the command is no shell's `-c`. The launch frontend and the evaluator both ask it.
std::optional<std::size_t> shell_text_at(const std::vector<std::string_view>& words);

// Each simple command's words as written (program first, assignments and redirections left
// out), in document order, the commands inside substitutions, loops and functions included.
// nullopt when the text does not parse or a program is not written out (`$tool x`, `"$@"`),
// since then what runs is not known from the text.
std::optional<std::vector<std::vector<std::string>>> script_commands(std::string_view text);

}  // namespace sbr::bash
