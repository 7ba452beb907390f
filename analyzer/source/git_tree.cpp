#include "analyzer/source/git_tree.h"

#include <git2.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <optional>

#include "analyzer/support/limits.h"

namespace sbr {
namespace {

std::string last_error() {
  const git_error* e = git_error_last();
  return e != nullptr && e->message != nullptr ? e->message : "unknown libgit2 error";
}

EntryKind kind_of_mode(git_filemode_t mode) {
  switch (mode) {
    case GIT_FILEMODE_TREE:
      return EntryKind::Directory;
    case GIT_FILEMODE_BLOB:
    case GIT_FILEMODE_BLOB_EXECUTABLE:
      return EntryKind::File;
    case GIT_FILEMODE_LINK:
      return EntryKind::Symlink;
    case GIT_FILEMODE_COMMIT:
      return EntryKind::Submodule;
    default:
      return EntryKind::Special;  // a mode git itself never writes: not read
  }
}

std::string real_dir(const std::string& path) {
  char buf[PATH_MAX];
  if (realpath(path.c_str(), buf) == nullptr) return path;
  std::string s = buf;
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  return s;
}

}  // namespace

Result<std::unique_ptr<GitTree>> GitTree::open(const std::string& dir,
                                               const std::string& revision) {
  git_libgit2_init();
  std::unique_ptr<GitTree> t(new GitTree());
  if (git_repository_open_ext(&t->repo_, dir.c_str(), 0, nullptr) != 0) {
    return Error{dir + ": not in a git repository (" + last_error() + ")"};
  }
  git_object* obj = nullptr;
  if (git_revparse_single(&obj, t->repo_, revision.c_str()) != 0) {
    return Error{"revision `" + revision + "`: " + last_error()};
  }
  git_object* tree = nullptr;
  int rc = git_object_peel(&tree, obj, GIT_OBJECT_TREE);
  char id[GIT_OID_HEXSZ + 1] = {};
  git_oid_tostr(id, sizeof id, git_object_id(obj));
  git_object_free(obj);
  if (rc != 0) return Error{"revision `" + revision + "` names no commit or tree"};
  t->tree_ = reinterpret_cast<git_tree*>(tree);
  t->object_id_ = id;
  if (const char* wd = git_repository_workdir(t->repo_)) {
    t->workdir_ = real_dir(wd);
    std::string here = real_dir(dir);
    if (here.size() > t->workdir_.size() && here.compare(0, t->workdir_.size(), t->workdir_) == 0 &&
        here[t->workdir_.size()] == '/') {
      t->prefix_ = here.substr(t->workdir_.size() + 1);
    }
  }
  return t;
}

GitTree::~GitTree() {
  for (auto& [dir, t] : trees_) git_tree_free(t);
  git_tree_free(tree_);
  git_repository_free(repo_);
  git_libgit2_shutdown();
}

git_tree* GitTree::subtree(std::string_view dir) const {
  while (!dir.empty() && dir.back() == '/') dir.remove_suffix(1);
  if (dir.empty()) return tree_;
  {
    std::lock_guard<std::mutex> lock(trees_mutex_);
    if (auto it = trees_.find(dir); it != trees_.end()) return it->second;
  }
  const size_t slash = dir.rfind('/');
  git_tree* parent = subtree(slash == std::string_view::npos ? "" : dir.substr(0, slash));
  if (parent == nullptr) return nullptr;
  const git_tree_entry* e = git_tree_entry_byname(
      parent, std::string(slash == std::string_view::npos ? dir : dir.substr(slash + 1)).c_str());
  git_tree* sub = nullptr;
  if (e == nullptr || git_tree_entry_type(e) != GIT_OBJECT_TREE ||
      git_tree_lookup(&sub, repo_, git_tree_entry_id(e)) != 0) {
    return nullptr;
  }
  std::lock_guard<std::mutex> lock(trees_mutex_);
  auto [it, fresh] = trees_.emplace(std::string(dir), sub);
  if (!fresh) git_tree_free(sub);  // another thread loaded it first
  return it->second;
}

const git_tree_entry* GitTree::entry(std::string_view path) const {
  while (!path.empty() && path.back() == '/') path.remove_suffix(1);
  if (path.empty()) return nullptr;
  const size_t slash = path.rfind('/');
  git_tree* dir = subtree(slash == std::string_view::npos ? "" : path.substr(0, slash));
  if (dir == nullptr) return nullptr;
  return git_tree_entry_byname(
      dir, std::string(slash == std::string_view::npos ? path : path.substr(slash + 1)).c_str());
}

EntryKind GitTree::kind(std::string_view path) const {
  if (path.empty()) return EntryKind::Directory;
  const git_tree_entry* e = entry(path);
  return e == nullptr ? EntryKind::Missing : kind_of_mode(git_tree_entry_filemode(e));
}

bool GitTree::list(std::string_view dir, std::vector<TreeEntry>& out) const {
  git_tree* sub = subtree(dir);
  if (sub == nullptr) return false;
  for (size_t i = 0, n = git_tree_entrycount(sub); i < n; ++i) {
    const git_tree_entry* e = git_tree_entry_byindex(sub, i);
    out.push_back({git_tree_entry_name(e), kind_of_mode(git_tree_entry_filemode(e))});
  }
  return true;
}

// The size of an entry's blob, from the object header: nothing is inflated.
std::optional<size_t> GitTree::blob_size(const git_tree_entry* e) const {
  git_odb* odb = nullptr;
  size_t size = 0;
  git_object_t type = GIT_OBJECT_INVALID;
  bool header = git_repository_odb(&odb, repo_) == 0 &&
                git_odb_read_header(&size, &type, odb, git_tree_entry_id(e)) == 0;
  git_odb_free(odb);
  return header ? std::optional<size_t>(size) : std::nullopt;
}

// Whether an added or deleted file of `diff` is over the file limit (from the object header, or
// the working tree's size).
bool GitTree::large_blob_changed(git_diff* diff) const {
  git_odb* odb = nullptr;
  if (git_repository_odb(&odb, repo_) != 0) return true;
  bool large = false;
  for (size_t i = 0; i < git_diff_num_deltas(diff) && !large; ++i) {
    const git_diff_delta* d = git_diff_get_delta(diff, i);
    if (d->status != GIT_DELTA_ADDED && d->status != GIT_DELTA_DELETED) continue;
    for (const git_diff_file* f : {&d->old_file, &d->new_file}) {
      size_t size = static_cast<size_t>(f->size);
      git_object_t type = GIT_OBJECT_INVALID;
      if (!git_oid_is_zero(&f->id)) git_odb_read_header(&size, &type, odb, &f->id);
      large = large || size > kDefaultMaxFileBytes;
    }
  }
  git_odb_free(odb);
  return large;
}

// A link's target is the content of its blob. One longer than PATH_MAX resolves nowhere.
std::optional<std::string> GitTree::link_target(std::string_view path) const {
  const git_tree_entry* e = entry(path);
  if (e == nullptr || git_tree_entry_filemode(e) != GIT_FILEMODE_LINK) return std::nullopt;
  // The size from the object header first: a 1.5 GB "link" is never inflated.
  if (blob_size(e).value_or(PATH_MAX) >= PATH_MAX) return std::nullopt;
  git_blob* blob = nullptr;
  if (git_blob_lookup(&blob, repo_, git_tree_entry_id(e)) != 0) return std::nullopt;
  std::optional<std::string> out;
  auto size = static_cast<size_t>(git_blob_rawsize(blob));
  if (size < PATH_MAX) out = std::string(static_cast<const char*>(git_blob_rawcontent(blob)), size);
  git_blob_free(blob);
  return out;
}

std::optional<std::string> GitTree::resolve_link(std::string_view path) const {
  return resolve_textually(*this, path, [this](std::string_view p) { return link_target(p); });
}

// The size comes from the object header, so a blob over the limit is never inflated.
ReadResult GitTree::read(std::string_view path, std::uint64_t limit, std::string& bytes) const {
  ReadResult r;
  const git_tree_entry* e = entry(path);
  if (e == nullptr) {
    r.why = "No such file or directory";
    return r;
  }
  if (kind_of_mode(git_tree_entry_filemode(e)) != EntryKind::File) {
    r.why = "not a regular file";
    return r;
  }
  std::optional<size_t> header = blob_size(e);
  if (!header) {
    r.why = "blob cannot be read: " + last_error();
    return r;
  }
  const size_t size = *header;
  if (size > limit) {
    r.too_large = true;
    r.why = too_large_message(size, limit);
    return r;
  }
  git_blob* blob = nullptr;
  if (git_blob_lookup(&blob, repo_, git_tree_entry_id(e)) != 0) {
    r.why = "blob cannot be read: " + last_error();
    return r;
  }
  bytes.assign(static_cast<const char*>(git_blob_rawcontent(blob)),
               static_cast<size_t>(git_blob_rawsize(blob)));
  git_blob_free(blob);
  r.ok = true;
  return r;
}

Result<std::vector<std::pair<std::string, std::string>>> GitTree::renames_to(
    const GitTree* head) const {
  git_diff* diff = nullptr;
  // Blobs over the file limit count as binary: rename detection compares them by id only, and
  // never inflates two 1 GB blobs to measure how alike they are.
  git_diff_options opts = GIT_DIFF_OPTIONS_INIT;
  opts.max_size = static_cast<git_off_t>(kDefaultMaxFileBytes);
  int rc = head != nullptr ? git_diff_tree_to_tree(&diff, repo_, tree_, head->tree_, &opts)
                           : git_diff_tree_to_workdir_with_index(&diff, repo_, tree_, &opts);
  if (rc != 0) return Error{"cannot compare the revisions: " + last_error()};
  git_diff_find_options find = GIT_DIFF_FIND_OPTIONS_INIT;
  find.flags = GIT_DIFF_FIND_RENAMES;
  // libgit2 inflates every added and deleted blob to measure how alike they are, whatever their
  // size (two 200 MB blobs: 400 MB). With one over the file limit, renames are found by id
  // only: a renamed and edited file is then a deletion and an addition, which reports more,
  // never less.
  if (large_blob_changed(diff)) find.flags |= GIT_DIFF_FIND_EXACT_MATCH_ONLY;
  std::vector<std::pair<std::string, std::string>> out;
  if (git_diff_find_similar(diff, &find) == 0) {
    for (size_t i = 0; i < git_diff_num_deltas(diff); ++i) {
      const git_diff_delta* d = git_diff_get_delta(diff, i);
      if (d->status == GIT_DELTA_RENAMED) out.emplace_back(d->old_file.path, d->new_file.path);
    }
  }
  git_diff_free(diff);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace sbr
