#include "analyzer/source/export.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

namespace sbr {
namespace {

std::vector<std::string> safe_parts(const std::string& path) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (start <= path.size()) {
    size_t slash = path.find('/', start);
    if (slash == std::string::npos) slash = path.size();
    std::string part = path.substr(start, slash - start);
    if (part.empty() || part == "." || part == "..") return {};
    parts.push_back(std::move(part));
    start = slash + 1;
  }
  return parts;
}

// Owns a directory descriptor.
struct Fd {
  int fd = -1;
  explicit Fd(int f) : fd(f) {}
  ~Fd() {
    if (fd >= 0) close(fd);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
};

// Creates the file below `root` one component at a time, relative to descriptors that were
// opened with O_NOFOLLOW, and with O_EXCL at the end: nothing on the way can be a link.
std::optional<std::string> write_file(int root, const std::vector<std::string>& parts,
                                      const std::string& bytes) {
  Fd dir(dup(root));
  for (size_t i = 0; i + 1 < parts.size(); ++i) {
    if (mkdirat(dir.fd, parts[i].c_str(), 0700) != 0 && errno != EEXIST) {
      return std::string(std::strerror(errno));
    }
    int next = openat(dir.fd, parts[i].c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (next < 0) return std::string(std::strerror(errno));
    close(dir.fd);
    dir.fd = next;
  }
  Fd out(openat(dir.fd, parts.back().c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                0600));
  if (out.fd < 0) return std::string(std::strerror(errno));
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = write(out.fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return std::string(std::strerror(errno));
    done += static_cast<size_t>(n);
  }
  return std::nullopt;
}

}  // namespace

ExportedTree::ExportedTree(ExportedTree&& other) noexcept
    : path_(std::move(other.path_)), files_(std::move(other.files_)) {
  other.path_.clear();
}

ExportedTree& ExportedTree::operator=(ExportedTree&& other) noexcept {
  if (this != &other) {
    ExportedTree gone(std::move(*this));
    path_ = std::move(other.path_);
    files_ = std::move(other.files_);
    other.path_.clear();
  }
  return *this;
}

ExportedTree::~ExportedTree() {
  if (path_.empty()) return;
  std::error_code ec;  // remove_all removes links themselves, never what they point to
  std::filesystem::remove_all(path_, ec);
}

Result<ExportedTree> export_files(const SourceSet& sources) {
  const char* tmp = std::getenv("TMPDIR");
  std::string tmpl =
      std::string(tmp != nullptr && *tmp == '/' ? tmp : "/tmp") + "/sbr-export-XXXXXX";
  if (mkdtemp(tmpl.data()) == nullptr) {
    return Error{"cannot create a temporary directory: " + std::string(std::strerror(errno))};
  }
  ExportedTree t;
  t.path_ = tmpl;  // owned from here: removed on every return below
  if (chmod(t.path_.c_str(), 0700) != 0) return Error{t.path_ + ": " + std::strerror(errno)};
  Fd root(open(t.path_.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (root.fd < 0) return Error{t.path_ + ": " + std::strerror(errno)};
  for (const SourceFile& f : sources.files) {
    if (!f.readable) continue;
    std::vector<std::string> parts = safe_parts(f.path);
    if (parts.empty()) return Error{"cannot export `" + f.path + "`: not a relative path"};
    if (auto why = write_file(root.fd, parts, f.bytes)) {
      return Error{"cannot export `" + f.path + "`: " + *why};
    }
    t.files_.push_back(f.path);
  }
  return t;
}

Result<ExportedTree> export_tree(const SourceTree& tree, const WalkOptions& options) {
  FileTable scratch;
  return export_files(walk_trees({{&tree, "", ""}}, options, scratch));
}

}  // namespace sbr
