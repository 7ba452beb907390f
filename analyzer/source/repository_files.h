// The repository around a run: a document's evidence column may cite a file the run did not
// read (outside the paths given to `sbreview check`, or excluded by `.sbreview.yaml`). Those
// files are found here, inside the repository's top only and never through a symlink.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/source/source_tree.h"

namespace sbr {

struct RepositoryLookupFile {
  std::string path;  // from the repository's top
  std::string bytes;
};

class RepositoryLookup {
 public:
  static constexpr std::size_t kMaxFiles = 64;            // a cited folder's files read
  static constexpr std::uint64_t kMaxBytes = 4ull << 20;  // bytes read of each
  static constexpr int kMaxDepth = 8;                     // folders below a cited folder

  // `tree` is the repository (its top is the tree's top); `base` is where the run's paths sit
  // in it ("" = the top). The tree must outlive this object.
  RepositoryLookup(const SourceTree& tree, std::string base)
      : tree_(tree), base_(std::move(base)) {}

  const std::string& base() const { return base_; }
  // The regular files at `path` (from the repository's top): the file itself, or those below
  // the folder (depth- and count-bounded, in name order). Empty when nothing is there, or
  // when a symlink, a special file or a submodule stands on the way.
  std::vector<RepositoryLookupFile> files_at(std::string_view path) const;

 private:
  void collect(const std::string& dir, int depth, std::vector<RepositoryLookupFile>& out) const;
  void read_into(const std::string& path, std::vector<RepositoryLookupFile>& out) const;

  const SourceTree& tree_;
  std::string base_;
};

// The repository's top for the working-tree directory `dir` (absolute): the nearest directory
// at or above it that holds a `.git` entry, or "" when none does.
std::string repository_top(const std::string& dir);

}  // namespace sbr
