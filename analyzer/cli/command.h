// What `check` and `diff` share: the configuration, the report roots, writing the requested
// formats and the exit status.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/check/finding.h"
#include "analyzer/cli/options.h"
#include "analyzer/cli/revision.h"
#include "analyzer/config/config.h"
#include "analyzer/pipeline/analysis.h"
#include "analyzer/report/report.h"
#include "analyzer/support/result.h"

namespace sbr {

std::string today_utc();

// The configuration's text: --config from disk; else, for a revision, its top-level
// .sbreview.yaml; else .sbreview.yaml at the git top level of the first PATH or in the current
// directory. nullopt when there is none.
Result<std::optional<ConfigText>> config_text(const Options& o, const GitTree* revision);

// Where the configuration and `.sbreview/rules/` are looked for on disk: the git top level of the
// first PATH (or of the current directory), else the current directory.
std::string repository_top(const Options& o);

// Parses the configuration for errors before the walk (its file has no id yet); an empty
// Config when there is none.
Result<Config> read_config(const std::optional<ConfigText>& text);
// After the walk: parses it again with a file id in `analysis`'s table, so that locations in it
// (acceptances) can be reported.
void give_config_a_file(const std::optional<ConfigText>& text, Analysis& analysis, Config& config);

// Report roots for working-tree PATHs (set_revision_report_roots for a revision).
void set_report_roots(const std::vector<std::string>& paths, ReportContext& ctx);

// Writes every --format/--output of `o`; false (after saying why) when a file cannot be written.
bool write_reports(const Options& o, const ReportContext& ctx, std::ostream& out,
                   std::ostream& err);

// Exit 1 when a finding is at or above `level` (notes never fail).
bool should_fail(const std::vector<Finding>& findings, const std::string& level);

}  // namespace sbr
