// The simple commands of a short shell text that a container runs (`sh -c 'mkdir -p /d && chown
// 1000 /d'`), read with the same grammar as the launcher itself. The launch frontend asks it so
// that a helper step's class (engine/threat_helpers.cpp) is judged on what the text runs, not on
// how it is laid out over lines, loops and comments.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sbr::bash {

// Each simple command's words as written (program first, assignments and redirections left
// out), in document order, the commands inside substitutions, loops and functions included.
// nullopt when the text does not parse or a program is not written out (`$tool x`, `"$@"`),
// since then what runs is not known from the text.
std::optional<std::vector<std::vector<std::string>>> script_commands(std::string_view text);

}  // namespace sbr::bash
