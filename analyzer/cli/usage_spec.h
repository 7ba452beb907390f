// The usage text (kUsage) read back as data, so that the man page and the shell completion are
// generated from the command's own help and cannot drift from it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace sbr {

struct UsageOption {
  std::vector<std::string> names;    // "-o", "--output"
  std::string metavar;               // "FILE", "LEVEL", "" for a switch
  std::vector<std::string> choices;  // "text", "json"... when the help lists them as a|b|c
  bool written_inline = false;       // shown as `--render=on|off`
  std::string help;                  // the description, its lines joined
};

struct UsageSpec {
  std::vector<std::string> synopsis;     // "sbreview check [options] [PATH...]", one per form
  std::vector<std::string> commands;     // "check", "diff"... in the order of the synopsis
  std::vector<std::string> description;  // paragraphs between the synopsis and the options
  std::vector<UsageOption> options;
  std::vector<std::string> epilogue;  // paragraphs after the options
};

// Reads a usage text laid out as kUsage is: "usage:" lines, paragraphs, an "options:" block
// whose entries start with two spaces and a dash (description after two or more spaces,
// continued on deeper-indented lines), then paragraphs.
UsageSpec parse_usage(std::string_view text);

}  // namespace sbr
