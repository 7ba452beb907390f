// Renames in `sbreview diff`: a file renamed by the change keeps its findings (they take the
// new path before the sides are matched), and a file the change renames out of what sbreview
// reads (an excluded directory, a name no frontend reads) cannot take its findings with it.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/check/finding.h"
#include "analyzer/cli/revision.h"
#include "analyzer/pipeline/analysis.h"

namespace sbr {

// old path -> new path, in the analysis' paths (relative to the one root). Empty when either
// side has several roots or a file root, or git cannot compare them.
using Renames = std::map<std::string, std::string>;
Renames renames_between(const RevisionInput& base, const std::optional<RevisionInput>& head);

// BASE's findings located in, or identified by, a renamed file, as they would read at the new
// path: identities, subjects and fingerprints rewritten.
void follow_renames(std::vector<Finding>& base_findings, const Renames& renames);

// The renamed files BASE read and HEAD does not: each of their BASE findings, to be reported
// as hidden by the change. `path` is the new path.
struct MovedOut {
  const Finding* was;
  std::string path;
};
std::vector<MovedOut> moved_out_of_reach(const std::vector<Finding>& base_findings,
                                         const Analysis& base, const Analysis& head,
                                         const Renames& renames);

}  // namespace sbr
