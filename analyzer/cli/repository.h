// The repository around a run's roots (docs/doc-claims.md, "Evidence"): where a document's
// evidence files are found when the run itself did not read them.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "analyzer/cli/revision.h"
#include "analyzer/source/repository_files.h"
#include "analyzer/source/working_tree.h"

namespace sbr {

struct RunRepository {
  std::unique_ptr<WorkingTree> tree;  // the working tree's top, when the roots are on disk
  std::unique_ptr<RepositoryLookup> files;
  const RepositoryLookup* get() const { return files.get(); }
};

// For paths given on the command line: the git working tree they lie in (the nearest folder
// with a `.git`), with the run's paths placed in it as the walk names them (relative to the
// one directory given, else to the working directory). Empty outside a repository.
RunRepository working_repository(const std::vector<std::string>& paths);

// For a revision: its tree, when one directory of it was given. Empty otherwise.
RunRepository revision_repository(const RevisionInput& rev);

}  // namespace sbr
