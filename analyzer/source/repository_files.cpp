#include "analyzer/source/repository_files.h"

#include <sys/stat.h>

#include <algorithm>

namespace sbr {

namespace {

// No component of `path` is a symlink (nor anything but a folder before the last).
bool plain_path(const SourceTree& tree, std::string_view path) {
  std::string at;
  std::size_t from = 0;
  while (from <= path.size()) {
    std::size_t slash = path.find('/', from);
    std::string_view part =
        path.substr(from, slash == std::string_view::npos ? std::string_view::npos : slash - from);
    if (part.empty() || part == "." || part == "..") return false;
    at = join_path(at, part);
    EntryKind k = tree.kind(at);
    bool last = slash == std::string_view::npos;
    if (k != EntryKind::Directory && !(last && k == EntryKind::File)) return false;
    if (last) return true;
    from = slash + 1;
  }
  return false;
}

}  // namespace

void RepositoryLookup::read_into(const std::string& path,
                                 std::vector<RepositoryLookupFile>& out) const {
  RepositoryLookupFile f{path, {}};
  ReadResult r = tree_.read(path, kMaxBytes, f.bytes);
  if (!r.ok && !r.too_large) return;  // unreadable: as if it were not there
  out.push_back(std::move(f));
}

void RepositoryLookup::collect(const std::string& dir, int depth,
                               std::vector<RepositoryLookupFile>& out) const {
  if (depth > kMaxDepth) return;
  std::vector<TreeEntry> entries;
  if (!tree_.list(dir, entries)) return;
  std::sort(entries.begin(), entries.end(),
            [](const TreeEntry& a, const TreeEntry& b) { return a.name < b.name; });
  for (const TreeEntry& e : entries) {
    if (out.size() >= kMaxFiles) return;
    if (e.name == ".git") continue;
    std::string p = join_path(dir, e.name);
    if (e.kind == EntryKind::File) read_into(p, out);
    if (e.kind == EntryKind::Directory) collect(p, depth + 1, out);
  }
}

std::vector<RepositoryLookupFile> RepositoryLookup::files_at(std::string_view path) const {
  std::vector<RepositoryLookupFile> out;
  if (path.empty() || !plain_path(tree_, path)) return out;
  std::string p(path);
  if (tree_.kind(p) == EntryKind::File)
    read_into(p, out);
  else
    collect(p, 0, out);
  return out;
}

std::string repository_top(const std::string& dir) {
  std::string at = dir;
  while (!at.empty()) {
    struct stat st {};
    if (lstat((at + "/.git").c_str(), &st) == 0) return at;
    if (at == "/") break;
    std::size_t slash = at.rfind('/');
    at = slash == 0 ? "/" : at.substr(0, slash);
  }
  return "";
}

}  // namespace sbr
