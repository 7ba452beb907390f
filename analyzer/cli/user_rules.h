// User rules: `.sbreview/rules/*.yaml` at the top of the analysed repository (read from the
// revision's tree when a revision is analysed, from BASE in `diff`, like the configuration) and
// every `--rules DIR`. Same format as rules/*.yaml, data only, with ids `X-<name>` or
// `<rule_prefix>-<name>` so they never collide with the SB range.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analyzer/check/catalog.h"
#include "analyzer/cli/options.h"
#include "analyzer/config/config.h"
#include "analyzer/source/git_tree.h"
#include "analyzer/support/result.h"

namespace sbr {

using RuleFiles = std::vector<std::pair<std::string, std::string>>;  // path, text

// The `*.yaml` files of a directory on disk, sorted; an error when it cannot be listed.
Result<RuleFiles> rule_files_on_disk(const std::string& dir);

// The catalog a run judges with: `builtin`, the repository's `.sbreview/rules/` (in `revision`
// when given, else under `repo_top` on disk) and each --rules DIR of `o`. An error names the
// file, line and column of a broken rule (exit 2).
Result<Catalog> run_catalog(const Catalog& builtin, const Options& o, const GitTree* revision,
                            const std::string& repo_top, const Config& config);

}  // namespace sbr
