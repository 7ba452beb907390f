// A launch whose command is a shell's `-c` text: what the text runs, read with the bash grammar
// (a helper's `sh -c` is often a loop over path parts with comments, not one line of `&&`).
#include <algorithm>
#include <array>
#include <string_view>

#include "analyzer/frontends/launch/launch_util.h"
#include "analyzer/render/bash/script_commands.h"

namespace sbr::launch {
namespace {

constexpr std::array<std::string_view, 6> kShells = {"sh",   "bash",    "ash",
                                                     "dash", "/bin/sh", "/bin/bash"};

// `-c`, or short options that end in it (`-ec`).
bool takes_text(const std::string& v) {
  return v.size() > 1 && v[0] == '-' && v[1] != '-' && v.back() == 'c';
}

}  // namespace

void read_script_commands(Workload& w) {
  const auto& cmd = w.command;
  auto open = [&](std::size_t i) {
    return std::find(w.command_open.begin(), w.command_open.end(), i) != w.command_open.end();
  };
  if (cmd.empty() || open(0) ||
      std::find(kShells.begin(), kShells.end(), cmd[0].value) == kShells.end())
    return;
  // Shell options before the one that takes the text (`sh -e -c TEXT`).
  std::size_t i = 1;
  while (i < cmd.size() && !open(i) && !takes_text(cmd[i].value) && cmd[i].value.size() > 1 &&
         cmd[i].value[0] == '-')
    ++i;
  if (i + 1 >= cmd.size() || !takes_text(cmd[i].value) || open(i) || open(i + 1)) return;
  if (auto commands = bash::script_commands(cmd[i + 1].value)) w.script_commands = *commands;
}

}  // namespace sbr::launch
