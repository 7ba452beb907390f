// The working tree: a directory (or one file) on disk, read without following a symlink out
// of it and without opening FIFOs or devices.
#pragma once

#include <string>

#include "analyzer/source/source_tree.h"

namespace sbr {

// Reads a file as every input is read: opened without following a final symlink (unless
// `follow_link`) and without blocking on a FIFO, then only when it is a regular file of at most
// `limit` bytes. What was checked by name is not trusted at open time.
ReadResult read_regular_file(const std::string& path, std::uint64_t limit, std::string& bytes,
                             bool follow_link = false);

class WorkingTree final : public SourceTree {
 public:
  // `root` is a directory or a regular file, as given on the command line.
  explicit WorkingTree(std::string root);

  EntryKind kind(std::string_view path) const override;
  bool list(std::string_view dir, std::vector<TreeEntry>& out) const override;
  std::optional<std::string> resolve_link(std::string_view path) const override;
  ReadResult read(std::string_view path, std::uint64_t limit, std::string& bytes) const override;

  const std::string& root() const { return root_; }

 private:
  std::string abs(std::string_view path) const;

  std::string root_;
  std::string root_real_;  // realpath of the root; empty when it does not resolve
};

}  // namespace sbr
