#include "analyzer/source/source.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <string_view>
#include "analyzer/support/strings.h"

namespace sbr {
namespace {

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

struct Entry {
  std::string rel;
  std::string abs;
};

struct Walker {
  const WalkOptions& options;
  std::string root_real;
  std::vector<Entry> found;
  SourceSet& out;
  std::vector<std::pair<std::string, std::string>> pending_problems;  // rel path, kind text

  bool excluded(const std::string& rel, const std::string& name) const {
    if (name == ".git" || name == "node_modules") return true;
    for (const auto& e : options.excludes) {
      if (rel == e ||
          (rel.size() > e.size() && rel.compare(0, e.size(), e) == 0 && rel[e.size()] == '/')) {
        return true;
      }
    }
    return false;
  }

  bool inside_root(const std::string& abs) const {
    char buf[PATH_MAX];
    if (realpath(abs.c_str(), buf) == nullptr) return false;
    std::string_view r(buf);
    return r == root_real ||
           (r.size() > root_real.size() && r.compare(0, root_real.size(), root_real) == 0 &&
            (root_real == "/" || r[root_real.size()] == '/'));
  }

  void visit_dir(const std::string& abs, const std::string& rel, int depth) {
    if (depth > 64) {
      pending_problems.emplace_back(rel, "deep");  // reported, never silently cut
      return;
    }
    DIR* d = opendir(abs.c_str());
    if (d == nullptr) {
      pending_problems.emplace_back(rel.empty() ? "." : rel, "dir");
      return;
    }
    std::vector<std::string> names;
    while (dirent* e = readdir(d)) {
      std::string n = e->d_name;
      if (n != "." && n != "..") names.push_back(std::move(n));
    }
    closedir(d);
    std::sort(names.begin(), names.end());
    for (const auto& n : names) {
      std::string child_abs = abs + "/" + n;
      std::string child_rel = rel.empty() ? n : rel + "/" + n;
      if (excluded(child_rel, n)) {
        ++out.excluded;
        continue;
      }
      struct stat st {};
      if (lstat(child_abs.c_str(), &st) != 0) continue;
      if (S_ISLNK(st.st_mode)) {
        if (inside_root(child_abs)) {
          ++out.symlinks_inside;
        } else {
          pending_problems.emplace_back(child_rel, "symlink");
        }
      } else if (S_ISDIR(st.st_mode)) {
        visit_dir(child_abs, child_rel, depth + 1);
      } else if (S_ISREG(st.st_mode)) {
        found.push_back({child_rel, child_abs});
      } else {
        pending_problems.emplace_back(child_rel, "special");
      }
    }
  }
};

// Reads a regular file without following a final symlink and without blocking on a FIFO.
bool read_file(const std::string& abs, std::uint64_t limit, std::string& bytes, std::string& why,
               bool& too_large) {
  int fd = open(abs.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    why = std::strerror(errno);
    return false;
  }
  struct stat st {};
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    why = "not a regular file";
    close(fd);
    return false;
  }
  if (static_cast<std::uint64_t>(st.st_size) > limit) {
    too_large = true;
    why = "file is " + std::to_string(st.st_size) + " bytes, over the limit of " +
          std::to_string(limit);
    close(fd);
    return false;
  }
  bytes.resize(static_cast<size_t>(st.st_size));
  size_t got = 0;
  while (got < bytes.size()) {
    ssize_t n = read(fd, bytes.data() + got, bytes.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += static_cast<size_t>(n);
  }
  bytes.resize(got);
  close(fd);
  return true;
}

}  // namespace

FileType classify(const std::string& path, std::string_view head) {
  const std::string name = base_name(path);
  const std::string lname = lower(name);
  if (lname == ".sbreview.yaml" || lname == ".sbreview.yml") return FileType::Config;
  if (lname == "devcontainer.json" || lname == ".devcontainer.json") return FileType::Devcontainer;
  if (lname == "dockerfile" || lname == "containerfile" || ends_with(lname, ".dockerfile") ||
      ends_with(lname, ".containerfile") || lname.rfind("dockerfile.", 0) == 0 ||
      lname.rfind("containerfile.", 0) == 0) {
    return FileType::Dockerfile;
  }
  const bool yaml = ends_with(lname, ".yaml") || ends_with(lname, ".yml");
  if (yaml && (lname.rfind("docker-compose", 0) == 0 || lname.rfind("compose", 0) == 0 ||
               lname.rfind("podman-compose", 0) == 0)) {
    return FileType::Compose;
  }
  if (yaml) return FileType::Yaml;
  if (ends_with(lname, ".json")) return FileType::Json;
  if (ends_with(lname, ".md") || ends_with(lname, ".markdown")) return FileType::Markdown;
  if (ends_with(lname, ".nft") || lname == "nftables.conf") return FileType::Nft;
  if (lname == "squid.conf" || ends_with(lname, ".squid.conf") || ends_with(lname, ".squid")) {
    return FileType::Squid;
  }
  if (ends_with(lname, ".sh") || ends_with(lname, ".bash")) return FileType::Shell;
  if (head.substr(0, 2) == "#!") {
    std::string_view first = head.substr(0, head.find('\n'));
    if (first.find("bash") != std::string_view::npos ||
        first.find("/sh") != std::string_view::npos ||
        first.find("env sh") != std::string_view::npos) {
      return FileType::Shell;
    }
  }
  return FileType::Other;
}

SourceSet walk_sources(const std::vector<std::string>& roots, const WalkOptions& options,
                       FileTable& files) {
  SourceSet out;
  std::vector<Entry> entries;
  std::vector<std::pair<std::string, std::string>> problems;
  for (const auto& root : roots) {
    struct stat st {};
    if (lstat(root.c_str(), &st) != 0) {
      problems.emplace_back(root, "missing");
      continue;
    }
    char buf[PATH_MAX];
    if (realpath(root.c_str(), buf) == nullptr) {
      problems.emplace_back(root, "missing");
      continue;
    }
    if (S_ISDIR(st.st_mode)) {
      Walker w{options, buf, {}, out, {}};
      w.visit_dir(root, "", 0);
      // With several roots, paths keep the root as given (relative to the working directory),
      // so `check a b` does not fold a/pod.yaml and b/pod.yaml into one file.
      std::string prefix;
      if (roots.size() > 1) {
        prefix = root;
        while (prefix.rfind("./", 0) == 0) prefix.erase(0, 2);
        while (prefix.size() > 1 && prefix.back() == '/') prefix.pop_back();
        prefix = prefix == "." || prefix.empty() ? "" : prefix + "/";
      }
      for (auto& e : w.found) entries.push_back({prefix + e.rel, std::move(e.abs)});
      for (auto& p : w.pending_problems) problems.emplace_back(prefix + p.first, p.second);
    } else if (S_ISREG(st.st_mode)) {
      std::string rel = root;
      while (rel.rfind("./", 0) == 0) rel.erase(0, 2);
      entries.push_back({rel, root});
    } else {
      problems.emplace_back(root, S_ISLNK(st.st_mode) ? "symlink" : "special");
    }
  }
  std::sort(entries.begin(), entries.end(),
            [](const Entry& a, const Entry& b) { return a.rel < b.rel; });
  // The same file reached through two roots (`check . k8s`) is read once.
  entries.erase(std::unique(entries.begin(), entries.end(),
                            [](const Entry& a, const Entry& b) { return a.rel == b.rel; }),
                entries.end());
  std::sort(problems.begin(), problems.end());
  for (auto& e : entries) {
    SourceFile f;
    f.path = e.rel;
    f.abs_path = e.abs;
    f.id = files.add(e.rel);
    std::string why;
    bool too_large = false;
    f.readable = read_file(e.abs, options.max_file_bytes, f.bytes, why, too_large);
    f.type = classify(f.path, std::string_view(f.bytes).substr(0, 256));
    if (!f.readable) {
      out.problems.push_back({too_large ? ProblemKind::TooLarge : ProblemKind::Unreadable,
                              (too_large ? "file not analysed: " : "file cannot be read: ") + why,
                              Location{f.id, 0, 0}});
      f.bytes.clear();
    }
    out.files.push_back(std::move(f));
  }
  for (auto& [rel, kind] : problems) {
    FileId id = files.add(rel);
    if (kind == "symlink") {
      out.problems.push_back({ProblemKind::SymlinkOutside,
                              "symlink points outside the analysed root; not followed",
                              Location{id, 0, 0}});
    } else if (kind == "special") {
      out.problems.push_back({ProblemKind::SpecialFile,
                              "not a regular file (FIFO, socket or device); never opened",
                              Location{id, 0, 0}});
    } else if (kind == "deep") {
      out.problems.push_back({ProblemKind::BudgetExceeded,
                              "directory nested more than 64 levels deep; not descended into",
                              Location{id, 0, 0}});
    } else if (kind == "missing") {
      out.problems.push_back({ProblemKind::Unreadable, "path does not exist or cannot be resolved",
                              Location{id, 0, 0}});
    } else {
      out.problems.push_back(
          {ProblemKind::Unreadable, "directory cannot be read", Location{id, 0, 0}});
    }
  }
  return out;
}

}  // namespace sbr
