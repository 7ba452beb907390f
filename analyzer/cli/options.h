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
  // "check", "diff", "baseline", "render", "prove", "rules", "explain" or "test-rules"
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
  // prove (docs/prover.md)
  std::optional<std::string> runtime_dir;  // --runtime-dir: where the run's files go
  std::optional<unsigned> timeout;         // --timeout S: seconds one launch may take (30)
  std::optional<std::string> from_sarif;   // --from FILE.sarif: the findings to prove
  bool self_test = false;                  // --self-test: what this podman honours
  std::vector<std::string> helm_set_file;  // --helm-set-file k=FILE (repeatable)
  std::string kube_version;                // --kube-version
  std::vector<std::string> api_versions;   // --api-versions (repeatable, comma lists)
  // `render helm ARGS...`: helm template's own arguments, parsed by render_helm.cpp.
  bool helm_template = false;
  std::vector<std::string> helm_args;
  std::vector<std::string> rule_dirs;        // --rules DIR (repeatable): user rules
  std::optional<int> invariant;              // rules: --invariant N
  std::string rule;                          // explain: the rule id
};

extern const char* const kUsage;

// Parses arguments; returns an error message on bad usage.
std::optional<std::string> parse_args(const std::vector<std::string>& args, Options& o, bool& help,
                                      bool& version);

}  // namespace sbr
