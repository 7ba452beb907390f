// The command line as data: `sbreview check [options] [PATH...]` and `sbreview diff BASE[..HEAD]
// [options] [PATH...]`. Parsing only; the commands are in cli.cpp and diff.cpp.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace sbr {

struct OutputSpec {
  std::string format;
  std::string path;  // "" = stdout
};

struct Options {
  // "check", "diff", "baseline", "render", "rules", "explain" or "test-rules"
  std::string command;
  std::vector<std::string> paths;
  std::vector<OutputSpec> outputs;
  std::optional<std::string> fail_on;
  std::optional<std::string> config;
  std::optional<std::string> revision;
  std::optional<std::string> repo_dir;  // -C
  std::string range;                    // diff: BASE..HEAD or BASE (against the working tree)
  bool show_fixed = false;              // diff: also list what the change fixes
  std::optional<std::string> baseline;  // check: report only findings not in this file
  bool dump_model = false;
  bool parse_only = false;  // hidden: stop after building the model (benchmark baseline)
  unsigned jobs = 0;
  std::string today;
  bool render = true;                        // --render=off: charts and overlays read raw
  std::vector<std::string> helm_values;      // --helm-values FILE (repeatable)
  std::vector<std::string> helm_set;         // --helm-set k=v (repeatable)
  std::vector<std::string> helm_set_string;  // --helm-set-string k=v (repeatable)
  std::vector<std::string> rule_dirs;        // --rules DIR (repeatable): user rules
  std::optional<int> invariant;              // rules: --invariant N
  std::string rule;                          // explain: the rule id
};

extern const char* const kUsage;

// Parses arguments; returns an error message on bad usage.
std::optional<std::string> parse_args(const std::vector<std::string>& args, Options& o, bool& help,
                                      bool& version);

}  // namespace sbr
