#include "analyzer/source/working_tree.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstring>

namespace sbr {
namespace {

EntryKind kind_of_mode(mode_t mode) {
  if (S_ISLNK(mode)) return EntryKind::Symlink;
  if (S_ISDIR(mode)) return EntryKind::Directory;
  if (S_ISREG(mode)) return EntryKind::File;
  return EntryKind::Special;
}

}  // namespace

WorkingTree::WorkingTree(std::string root) : root_(std::move(root)) {
  char buf[PATH_MAX];
  if (realpath(root_.c_str(), buf) != nullptr) root_real_ = buf;
}

std::string WorkingTree::abs(std::string_view path) const {
  return path.empty() ? root_ : root_ + "/" + std::string(path);
}

EntryKind WorkingTree::kind(std::string_view path) const {
  struct stat st {};
  if (lstat(abs(path).c_str(), &st) != 0) return EntryKind::Missing;
  // A root that does not resolve (a dangling link given on the command line) is missing.
  if (path.empty() && root_real_.empty()) return EntryKind::Missing;
  return kind_of_mode(st.st_mode);
}

bool WorkingTree::list(std::string_view dir, std::vector<TreeEntry>& out) const {
  const std::string at = abs(dir);
  DIR* d = opendir(at.c_str());
  if (d == nullptr) return false;
  while (dirent* e = readdir(d)) {
    std::string n = e->d_name;
    if (n == "." || n == "..") continue;
    struct stat st {};
    // An entry gone between readdir and lstat is no longer part of the tree.
    if (fstatat(dirfd(d), n.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
    out.push_back({std::move(n), kind_of_mode(st.st_mode)});
  }
  closedir(d);
  return true;
}

std::optional<std::string> WorkingTree::resolve_link(std::string_view path) const {
  char buf[PATH_MAX];
  if (root_real_.empty() || realpath(abs(path).c_str(), buf) == nullptr) return std::nullopt;
  std::string_view r(buf);
  if (r == root_real_) return std::string();
  if (root_real_ == "/") return std::string(r.substr(1));
  if (r.size() > root_real_.size() && r.compare(0, root_real_.size(), root_real_) == 0 &&
      r[root_real_.size()] == '/') {
    return std::string(r.substr(root_real_.size() + 1));
  }
  return std::nullopt;
}

ReadResult read_regular_file(const std::string& path, std::uint64_t limit, std::string& bytes,
                             bool follow_link) {
  ReadResult r;
  int flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC | (follow_link ? 0 : O_NOFOLLOW);
  int fd = open(path.c_str(), flags);
  if (fd < 0) {
    r.why = errno == ELOOP ? "a symbolic link (not followed)" : std::strerror(errno);
    return r;
  }
  struct stat st {};
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    r.why = "not a regular file";
    close(fd);
    return r;
  }
  if (static_cast<std::uint64_t>(st.st_size) > limit) {
    r.too_large = true;
    r.why = too_large_message(static_cast<std::uint64_t>(st.st_size), limit);
    close(fd);
    return r;
  }
  bytes.resize(static_cast<size_t>(st.st_size));
  size_t got = 0;
  while (got < bytes.size()) {
    ssize_t n = ::read(fd, bytes.data() + got, bytes.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += static_cast<size_t>(n);
  }
  bytes.resize(got);
  close(fd);
  r.ok = true;
  return r;
}

ReadResult WorkingTree::read(std::string_view path, std::uint64_t limit, std::string& bytes) const {
  return read_regular_file(abs(path), limit, bytes);
}

}  // namespace sbr
