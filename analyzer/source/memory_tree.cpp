#include "analyzer/source/memory_tree.h"

#include <stdexcept>

namespace sbr {
namespace {

bool valid_path(std::string_view path) {
  if (path.empty() || path.front() == '/' || path.back() == '/') return false;
  size_t start = 0;
  while (start <= path.size()) {
    size_t slash = path.find('/', start);
    if (slash == std::string_view::npos) slash = path.size();
    std::string_view part = path.substr(start, slash - start);
    if (part.empty() || part == "." || part == "..") return false;
    start = slash + 1;
  }
  return true;
}

std::string parent_of(std::string_view path) {
  size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? std::string() : std::string(path.substr(0, slash));
}

}  // namespace

void MemoryTree::add(const std::string& path, Node node) {
  if (!valid_path(path)) throw std::invalid_argument("memory tree: bad path `" + path + "`");
  for (std::string dir = parent_of(path); !dir.empty(); dir = parent_of(dir)) {
    auto [it, fresh] = nodes_.try_emplace(dir, Node{});
    if (!fresh && it->second.kind != EntryKind::Directory) {
      throw std::invalid_argument("memory tree: `" + dir + "` is not a directory");
    }
  }
  nodes_[path] = std::move(node);
}

void MemoryTree::add_file(const std::string& path, std::string bytes) {
  add(path, {EntryKind::File, std::move(bytes), false});
}
void MemoryTree::add_directory(const std::string& path) {
  add(path, {EntryKind::Directory, {}, false});
}
void MemoryTree::add_symlink(const std::string& path, std::string target) {
  add(path, {EntryKind::Symlink, std::move(target), false});
}
void MemoryTree::add_special(const std::string& path) {
  add(path, {EntryKind::Special, {}, false});
}
void MemoryTree::add_unreadable(const std::string& path, std::string why) {
  add(path, {EntryKind::File, std::move(why), true});
}
void MemoryTree::add_submodule(const std::string& path) {
  add(path, {EntryKind::Submodule, {}, false});
}

MemoryTree MemoryTree::subtree(const std::string& dir) const {
  MemoryTree out;
  for (const auto& [path, node] : nodes_) {
    if (path.empty() || path == dir || !path_within(path, dir)) continue;
    out.add(dir.empty() ? path : path.substr(dir.size() + 1), node);
  }
  return out;
}

std::vector<std::string> MemoryTree::file_paths() const {
  std::vector<std::string> out;
  for (const auto& [path, node] : nodes_) {
    if (node.kind == EntryKind::File) out.push_back(path);
  }
  return out;
}

EntryKind MemoryTree::kind(std::string_view path) const {
  auto it = nodes_.find(path);
  return it == nodes_.end() ? EntryKind::Missing : it->second.kind;
}

bool MemoryTree::list(std::string_view dir, std::vector<TreeEntry>& out) const {
  auto it = nodes_.find(dir);
  if (it == nodes_.end() || it->second.kind != EntryKind::Directory) return false;
  // Children of "a" sort after "a-b" ('-' < '/'): scan from "a/", not from "a".
  const std::string prefix = dir.empty() ? std::string() : std::string(dir) + "/";
  for (it = nodes_.lower_bound(prefix);
       it != nodes_.end() && it->first.compare(0, prefix.size(), prefix) == 0; ++it) {
    std::string_view rest = std::string_view(it->first).substr(prefix.size());
    if (!rest.empty() && rest.find('/') == std::string_view::npos) {
      out.push_back({std::string(rest), it->second.kind});
    }
  }
  return true;
}

std::optional<std::string> MemoryTree::resolve_link(std::string_view path) const {
  return resolve_textually(*this, path, [this](std::string_view p) -> std::optional<std::string> {
    auto it = nodes_.find(p);
    if (it == nodes_.end() || it->second.kind != EntryKind::Symlink) return std::nullopt;
    return it->second.data;
  });
}

ReadResult MemoryTree::read(std::string_view path, std::uint64_t limit, std::string& bytes) const {
  ReadResult r;
  auto it = nodes_.find(path);
  if (it == nodes_.end()) {
    r.why = "No such file or directory";
  } else if (it->second.kind != EntryKind::File) {
    r.why = "not a regular file";
  } else if (it->second.unreadable) {
    r.why = it->second.data;
  } else if (it->second.data.size() > limit) {
    r.too_large = true;
    r.why = too_large_message(it->second.data.size(), limit);
  } else {
    bytes = it->second.data;
    r.ok = true;
  }
  return r;
}

}  // namespace sbr
