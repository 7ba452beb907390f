// A launch whose command is a shell's `-c` text: what the text runs, read with the bash grammar
// (a helper's `sh -c` is often a loop over path parts with comments, not one line of `&&`).
#include <algorithm>
#include <string_view>

#include "analyzer/frontends/launch/launch_util.h"
#include "analyzer/render/bash/script_commands.h"

namespace sbr::launch {

void read_script_commands(Workload& w) {
  std::vector<std::string_view> words;
  words.reserve(w.command.size());
  for (const auto& c : w.command) words.emplace_back(c.value);
  auto text = bash::shell_text_at(words);
  if (!text) return;
  // The shell, its options and the text must be the launcher's own words.
  if (std::any_of(w.command_open.begin(), w.command_open.end(),
                  [&](std::size_t i) { return i <= *text; }))
    return;
  if (auto commands = bash::script_commands(words[*text])) w.script_commands = std::move(*commands);
}

}  // namespace sbr::launch
