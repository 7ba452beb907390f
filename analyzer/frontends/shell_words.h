// Shell text as the simple commands it runs, for the short command lines configuration files
// hold (a devcontainer lifecycle command, `sh -c` text in a container's command): split at
// `&&`, `||`, `;`, `|`, `&`, parentheses and newlines outside quotes, words with their quotes
// removed. `<` and `>` stay as words of their own, followed by their target. Expansions stay as
// text. Scripts are rendered by the bash frontend; this is for a line nobody renders as a script.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace sbr {

std::vector<std::vector<std::string>> simple_commands(std::string_view text);

// `NAME=value` (an assignment before a command, or an environment entry).
bool is_assignment(std::string_view word);

}  // namespace sbr
