// Files held in memory (path → bytes), with optional symlinks, special files, unreadable files
// and submodules: the tree the tests build, and a copy of a fixture directory.
#pragma once

#include <map>
#include <string>

#include "analyzer/source/source_tree.h"

namespace sbr {

class MemoryTree final : public SourceTree {
 public:
  // Each adds the entry and the directories above it. A path is '/'-separated and relative;
  // adding one that has "." or ".." parts, or that lies below a non-directory, throws.
  void add_file(const std::string& path, std::string bytes);
  void add_directory(const std::string& path);
  void add_symlink(const std::string& path, std::string target);
  void add_special(const std::string& path);                      // a FIFO, socket or device
  void add_unreadable(const std::string& path, std::string why);  // a file open() refuses
  void add_submodule(const std::string& path);

  // The entries below `dir`, with paths relative to it (a fixture's subdirectory run).
  MemoryTree subtree(const std::string& dir) const;
  // Every regular file's path, sorted.
  std::vector<std::string> file_paths() const;

  EntryKind kind(std::string_view path) const override;
  bool list(std::string_view dir, std::vector<TreeEntry>& out) const override;
  std::optional<std::string> resolve_link(std::string_view path) const override;
  ReadResult read(std::string_view path, std::uint64_t limit, std::string& bytes) const override;

 private:
  struct Node {
    EntryKind kind = EntryKind::Directory;
    std::string data;  // bytes of a file, target of a link, or why a file is unreadable
    bool unreadable = false;
  };
  void add(const std::string& path, Node node);

  std::map<std::string, Node, std::less<>> nodes_{{"", Node{}}};
};

}  // namespace sbr
