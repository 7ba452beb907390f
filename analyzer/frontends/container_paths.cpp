#include "analyzer/frontends/container_paths.h"

#include <array>
#include <vector>

#include "analyzer/support/strings.h"

namespace sbr {
namespace {

// Components with "." dropped and ".." applied; a ".." above the start is kept (it climbs out).
std::vector<std::string> components(std::string_view path) {
  std::vector<std::string> out;
  for (std::string& c : path_components(path)) {
    if (c == ".") continue;
    if (c == ".." && !out.empty() && out.back() != "..") {
      out.pop_back();
    } else {
      out.push_back(std::move(c));
    }
  }
  return out;
}

std::string joined(const std::vector<std::string>& parts, std::size_t from = 0) {
  std::string out;
  for (std::size_t i = from; i < parts.size(); ++i) out += (out.empty() ? "" : "/") + parts[i];
  return out;
}

// A repository-relative path below `base` ("" = the top), or nullopt when it climbs out.
std::optional<std::string> under(const std::string& base, std::string_view rel) {
  std::vector<std::string> parts = components(base + "/" + std::string(rel));
  if (!parts.empty() && parts.front() == "..") return std::nullopt;
  return joined(parts);
}

// Spellings of the directory a launcher runs in, and of a devcontainer's local folder.
constexpr std::array<std::string_view, 5> kWorkingDirectory = {"$(pwd)", "`pwd`", "${PWD}", "$PWD",
                                                               "."};
constexpr std::string_view kLocalFolder = "${localWorkspaceFolder}";

// The source relative to the directory it is resolved from, or nullopt when it is not a
// relative path (absolute, home, an unresolved value).
std::optional<std::string> relative_part(std::string_view source) {
  for (std::string_view cwd : kWorkingDirectory) {
    if (source == cwd) return std::string();
    if (source.starts_with(cwd) && source.size() > cwd.size() && source[cwd.size()] == '/') {
      return std::string(source.substr(cwd.size() + 1));
    }
  }
  if (source.empty() || source.front() == '/' || source.front() == '~' || source.front() == '$' ||
      source.front() == '<' || source.front() == '`' ||
      source.find("${") != std::string_view::npos ||
      source.find("<unknown") != std::string_view::npos) {
    return std::nullopt;
  }
  return std::string(source);
}

// A mount target's component `<...>` stands for one component the input does not name (the
// folder a devcontainer workspace is cloned into).
bool component_matches(const std::string& pattern, const std::string& c) {
  return pattern == c || (pattern.size() > 2 && pattern.front() == '<' && pattern.back() == '>');
}

// How many components of `path` the mount target covers, or -1 when it does not cover it.
int covers(const std::vector<std::string>& target, const std::vector<std::string>& path) {
  if (target.size() > path.size()) return -1;
  for (std::size_t i = 0; i < target.size(); ++i) {
    if (!component_matches(target[i], path[i])) return -1;
  }
  return static_cast<int>(target.size());
}

constexpr std::array<std::string_view, 6> kPathDirs = {
    "/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"};

std::optional<ContainerFile> file_at_absolute(const Workload& w,
                                              const std::vector<std::string>& path,
                                              const RepositoryFiles& repo) {
  const Mount* deepest = nullptr;
  int depth = -1;
  for (const Mount& m : w.mounts) {
    if (m.target.empty()) continue;
    int d = covers(components(m.target), path);
    if (d >= depth && d >= 0) {  // a later mount over the same target wins
      deepest = &m;
      depth = d;
    }
  }
  if (deepest != nullptr) {
    if (deepest->kind != MountKind::HostPath) return std::nullopt;
    auto source = bind_source_in_repository(*deepest, repo);
    if (!source) return std::nullopt;
    std::string rest = joined(path, static_cast<std::size_t>(depth));
    std::string file = rest.empty() ? *source : (source->empty() ? rest : *source + "/" + rest);
    if (!repo.has_file(file)) return std::nullopt;
    return ContainerFile{file, deepest->source_from};
  }
  const std::string wanted = "/" + joined(path);
  for (auto it = w.image_files.rbegin(); it != w.image_files.rend(); ++it) {
    if (it->container_path == wanted) return ContainerFile{it->repo_path, it->from};
  }
  return std::nullopt;
}

}  // namespace

RepositoryFiles::RepositoryFiles(const FileTable& files) : table_(&files) {
  files_.insert(files.paths.begin(), files.paths.end());
}

bool RepositoryFiles::has_directory(const std::string& path) const {
  if (path.empty()) return !files_.empty();
  auto it = files_.lower_bound(path + "/");
  return it != files_.end() && it->starts_with(path + "/");
}

std::string devcontainer_workspace_folder(const std::string& path) {
  std::vector<std::string> parts = path_components(path);
  if (parts.empty()) return "";
  parts.pop_back();  // the file
  for (std::size_t i = parts.size(); i-- > 0;) {
    if (parts[i] == ".devcontainer") {
      parts.resize(i);
      return joined(parts);
    }
  }
  return joined(parts);
}

std::optional<std::string> bind_source_in_repository(const Mount& m, const RepositoryFiles& repo) {
  if (m.kind != MountKind::HostPath) return std::nullopt;
  const std::string& file = repo.path(m.source_from.at.file);
  std::string_view source = m.source;
  std::vector<std::string> bases;
  switch (m.source_from.frontend) {
    case Frontend::Bash:
      bases = {"", dir_of(file)};
      break;
    case Frontend::Devcontainer:
      // runArgs keep the CLI's variable; mounts and workspaceMount are already resolved.
      if (source.starts_with(kLocalFolder)) {
        source.remove_prefix(kLocalFolder.size());
        if (source.starts_with("/")) source.remove_prefix(1);
        bases = {devcontainer_workspace_folder(file)};
        if (source.empty()) return bases.front();
      } else {
        bases = {""};
      }
      break;
    case Frontend::Compose:
      bases = {""};
      break;
    default:
      return std::nullopt;
  }
  auto rel = relative_part(source);
  if (!rel) return std::nullopt;
  for (const std::string& base : bases) {
    auto p = under(base, *rel);
    if (p && (repo.has_file(*p) || repo.has_directory(*p))) return p;
  }
  return std::nullopt;
}

std::optional<ContainerFile> repository_file_at(const Workload& w, std::string_view path,
                                                PathUse use, const RepositoryFiles& repo) {
  if (path.empty() || path.find('$') != std::string_view::npos ||
      path.find('<') != std::string_view::npos) {
    return std::nullopt;  // a value the input leaves open
  }
  if (path.front() == '/') return file_at_absolute(w, components(path), repo);
  bool bare = path.find('/') == std::string_view::npos;
  std::optional<ContainerFile> found;
  bool in_working_dir = !bare || use != PathUse::Program;
  if (in_working_dir && w.working_dir && w.working_dir->value.starts_with("/")) {
    found = file_at_absolute(w, components(w.working_dir->value + "/" + std::string(path)), repo);
  }
  if (bare && use != PathUse::File) {
    for (std::string_view dir : kPathDirs) {
      if (!found)
        found = file_at_absolute(w, components(std::string(dir) + "/" + std::string(path)), repo);
    }
  }
  return found;
}

}  // namespace sbr
