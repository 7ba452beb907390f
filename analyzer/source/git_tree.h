// A git revision read through libgit2, without a checkout: revision → tree → blobs. The
// repository is only read (libgit2 runs no hooks; blobs are taken raw, so no clean/smudge or
// LFS filter runs), and nothing is written to it or to its working tree.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "analyzer/source/source_tree.h"
#include "analyzer/support/result.h"

struct git_repository;
struct git_tree;
struct git_tree_entry;
struct git_diff;

namespace sbr {

class GitTree final : public SourceTree {
 public:
  // Opens the repository that contains `dir` (searching upwards, as `git -C dir` does) and
  // resolves `revision` (anything git rev-parse takes: a commit, tag, branch, `HEAD~2`, or a
  // tree) to its tree. An error when `dir` is in no repository or the revision does not
  // name a commit or tree.
  static Result<std::unique_ptr<GitTree>> open(const std::string& dir, const std::string& revision);
  ~GitTree() override;
  GitTree(const GitTree&) = delete;
  GitTree& operator=(const GitTree&) = delete;

  EntryKind kind(std::string_view path) const override;
  bool list(std::string_view dir, std::vector<TreeEntry>& out) const override;
  std::optional<std::string> resolve_link(std::string_view path) const override;
  ReadResult read(std::string_view path, std::uint64_t limit, std::string& bytes) const override;

  // The working tree's top directory (absolute, no trailing '/'); empty for a bare repository.
  const std::string& workdir() const { return workdir_; }
  // Where `dir` lies below the top ("" at the top, or for a bare repository): relative PATHs
  // on the command line are taken from there, as git takes `REV:./path`.
  const std::string& prefix() const { return prefix_; }
  // The full object id the revision resolved to.
  const std::string& object_id() const { return object_id_; }

  // Files renamed between this revision and `head` (another revision of the same repository,
  // or the working tree and index when nullptr), as git's rename detection finds them (50%
  // similarity): pairs of repository-relative paths (old, new), sorted.
  Result<std::vector<std::pair<std::string, std::string>>> renames_to(const GitTree* head) const;

 private:
  GitTree() = default;
  std::optional<std::string> link_target(std::string_view path) const;
  std::optional<size_t> blob_size(const git_tree_entry* e) const;
  bool large_blob_changed(git_diff* diff) const;
  // The tree object of directory `dir` ("" = the top), loaded once: looking every path up from
  // the top re-read each directory's tree object per file, which made a 10,000-file directory
  // quadratic. nullptr when `dir` is not a directory of the revision.
  git_tree* subtree(std::string_view dir) const;
  // The entry at `path` (owned by its cached tree), or nullptr.
  const git_tree_entry* entry(std::string_view path) const;

  git_repository* repo_ = nullptr;
  git_tree* tree_ = nullptr;
  mutable std::mutex trees_mutex_;
  mutable std::map<std::string, git_tree*, std::less<>> trees_;  // below the top; owned
  std::string workdir_;
  std::string prefix_;
  std::string object_id_;
};

}  // namespace sbr
