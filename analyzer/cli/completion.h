// `sbreview completion bash`: a bash completion script generated from the usage text and the
// rule catalog, so that new commands, options and rules complete without a hand-kept list.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "analyzer/cli/usage_spec.h"

namespace sbr {

// Writes a script that defines `_sbreview` and registers it for `sbreview`: commands, options
// (with their listed choices, file or directory names, git refs for revisions), and rule ids
// where an argument names a rule.
void write_bash_completion(const UsageSpec& usage, const std::vector<std::string>& rule_ids,
                           std::ostream& out);

}  // namespace sbr
