// A private, symlink-free copy of a tree's regular files on disk, for tools that need files
// (kustomize, helm): the same bytes the analysis read, from the working tree or a git revision,
// in a fresh directory only this user can enter, removed when its owner goes.
#pragma once

#include <string>
#include <vector>

#include "analyzer/source/source.h"
#include "analyzer/support/result.h"

namespace sbr {

class ExportedTree {
 public:
  ExportedTree(ExportedTree&& other) noexcept;
  ExportedTree& operator=(ExportedTree&& other) noexcept;
  ExportedTree(const ExportedTree&) = delete;
  ExportedTree& operator=(const ExportedTree&) = delete;
  ~ExportedTree();  // removes the directory and everything in it

  // The absolute path of the directory (mode 0700; files 0600, directories 0700).
  const std::string& path() const { return path_; }
  // The files written, relative to path(), sorted.
  const std::vector<std::string>& files() const { return files_; }

 private:
  friend Result<ExportedTree> export_files(const SourceSet& sources);
  ExportedTree() = default;

  std::string path_;
  std::vector<std::string> files_;
};

// Writes every readable file of `sources` under a fresh directory in $TMPDIR (else /tmp).
// Only regular files and the directories above them are created: no symlink, FIFO or device
// ever exists in the export, so a tool run inside it cannot be led out of it. An error when a
// path has empty, "." or ".." parts or a write fails (the partial export is removed).
Result<ExportedTree> export_files(const SourceSet& sources);

// Walks the whole of `tree` with the analysis' rules (excludes, size limit; links inside the
// tree are not copied, their targets are at their own paths) and exports what it read.
Result<ExportedTree> export_tree(const SourceTree& tree, const WalkOptions& options = {});

}  // namespace sbr
