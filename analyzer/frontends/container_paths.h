// Which repository file sits at a path inside a workload's container, as its configuration says
// it gets there: a bind mount of a repository file or directory (a relative source resolved as
// the engine resolves it), or a file the image's COPY/ADD put there. A path that neither
// explains is unknown: it is never matched to a repository file by its name.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "analyzer/model/model.h"

namespace sbr {

// The run's files, for "is this a repository file, or a directory that holds one".
class RepositoryFiles {
 public:
  explicit RepositoryFiles(const FileTable& files);
  bool has_file(const std::string& path) const { return files_.count(path) > 0; }
  // "" is the repository's top directory.
  bool has_directory(const std::string& path) const;
  const std::string& path(FileId id) const { return table_->path(id); }

 private:
  const FileTable* table_;
  std::set<std::string> files_;
};

// The folder the devcontainer CLI opens for the devcontainer.json at `path` (the one holding
// `.devcontainer/`, or the directory of a `.devcontainer.json`): "" for the repository's top.
std::string devcontainer_workspace_folder(const std::string& path);

// The repository path (a file, or a directory; "" for the top) a bind mount's source names,
// or nullopt when it names none: a host path outside the repository, a home directory, a
// value the input leaves open. Compose and devcontainer sources are already relative to the
// repository (their frontends resolve them against their file); a launcher's relative source
// is relative to the directory it is run from, taken as the repository's top and then the
// script's own directory, whichever holds it.
std::optional<std::string> bind_source_in_repository(const Mount& m, const RepositoryFiles& repo);

struct ContainerFile {
  std::string repo_path;
  Provenance from;  // the mount, or the COPY/ADD line, that puts it there
};

// How a command names the path: a program (a bare name is looked up in PATH), a script given
// to a shell (a bare name is tried in the working directory, then in PATH, as bash does) or
// another file (`nft -f FILE`: relative to the working directory).
enum class PathUse : std::uint8_t { Program, ShellScript, File };

// The repository file at `path` in `w`'s container: relative paths start in the workload's
// working directory; the deepest mount over the path decides (a volume or a host path outside
// the repository there: unknown), else the image's COPY/ADD.
std::optional<ContainerFile> repository_file_at(const Workload& w, std::string_view path,
                                                PathUse use, const RepositoryFiles& repo);

}  // namespace sbr
