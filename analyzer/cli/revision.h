// `sbreview check --revision REV [-C DIR] [PATH...]`: a git revision as the source tree, read
// through libgit2 without a checkout. Kept apart from the option parsing in cli.cpp.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/report/report.h"
#include "analyzer/source/git_tree.h"
#include "analyzer/source/source.h"
#include "analyzer/support/result.h"

namespace sbr {

struct RevisionInput {
  std::unique_ptr<GitTree> tree;
  std::vector<SourceRoot> roots;  // point into *tree
};

// Opens the repository containing `dir` at `revision`, and maps each PATH (relative to `dir`'s
// place in the repository, or absolute inside its working tree) to a root in the revision. An
// error for no repository, an unknown revision, or a PATH outside the repository.
Result<RevisionInput> open_revision(const std::string& dir, const std::string& revision,
                                    const std::vector<std::string>& paths);

// The largest configuration read, from a revision or from disk.
inline constexpr std::uint64_t kMaxConfigBytes = 1u << 20;

struct ConfigText {
  std::string path;  // as findings name it
  std::string text;
};

// `.sbreview.yaml` at the top of the revision, named as the working tree would name it (the
// top level's path joined with the file name). nullopt when the revision has none; an error
// when it has one that cannot be read.
Result<std::optional<ConfigText>> revision_config(const GitTree& tree);

// What set_report_roots does for the working tree: %SRCROOT% is the repository's top level,
// SARIF URIs are relative to it, text paths relative to the directory the PATHs were given in.
void set_revision_report_roots(const RevisionInput& in, ReportContext& ctx);

// The text report's prefix for a single directory root ("k8s/" for `check k8s`).
std::string display_prefix_of(const std::string& root);

}  // namespace sbr
