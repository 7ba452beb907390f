// What files exist and their bytes. Walks source trees (source_tree.h: the working tree, a git
// revision, memory) without following a symlink out of the root and without opening FIFOs or
// devices; classifies each file for the frontends.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analyzer/model/model.h"
#include "analyzer/source/source_tree.h"
#include "analyzer/support/limits.h"

namespace sbr {

enum class FileType : std::uint8_t {
  Yaml,  // Kubernetes manifests and other YAML (the frontend tells them apart)
  Json,  // JSON manifests (and seccomp profiles, recognised by content)
  Compose,
  Devcontainer,
  Dockerfile,
  Shell,
  Nft,
  Squid,
  Markdown,
  Config,  // .sbreview.yaml: read by the configuration, not analysed
  Other,   // not a format sbreview reads
};

struct SourceFile {
  FileId id = kNoFile;
  std::string path;  // relative to the root it was found under, '/'-separated
  FileType type = FileType::Other;
  std::string bytes;
  bool readable = false;
};

struct WalkOptions {
  std::vector<std::string> excludes;  // path prefixes / glob-free directory names
  // When not empty, only files at or below one of these path prefixes are read (the rest is
  // counted as excluded); excludes still apply below them.
  std::vector<std::string> includes;
  std::uint64_t max_file_bytes = kDefaultMaxFileBytes;
};

// A path the configuration keeps out of the analysis (`exclude:`, or outside `include:`),
// listed so that every file is accounted for (docs/robustness.md). Files are listed one by
// one up to kMaxExcludedListed per run; past that, an excluded directory is one entry that
// stands for the files below it.
struct ExcludedPath {
  std::string path;  // a file, or a directory with a trailing '/' whose files are not listed
  std::string reason;
  std::uint32_t files = 1;  // the files it stands for
  bool all_counted = true;  // false: more than kMaxExcludedCounted files were below it
};
inline constexpr std::size_t kMaxExcludedListed = 1000;
inline constexpr std::uint32_t kMaxExcludedCounted = 100000;  // per excluded directory

struct SourceSet {
  std::vector<SourceFile> files;  // sorted by path; files[i].id == i
  std::vector<Problem> problems;
  std::uint32_t symlinks_inside = 0;  // links inside the root: their targets are read directly
  std::uint32_t excluded = 0;
  std::vector<ExcludedPath> excluded_paths;  // sorted by path
};

// One place to start a walk: a directory or a file in a tree.
struct SourceRoot {
  const SourceTree* tree = nullptr;
  std::string at;     // where in the tree ("" = its top); symlinks must resolve below it
  std::string label;  // the root as the user named it ("k8s/", "./pod.yaml")
};

// Walks each root. Paths in the result are relative to a directory root, or, with several
// roots, keep each root's label in front (`check a b` does not fold a/pod.yaml and b/pod.yaml
// into one file); a file root's path is its label. Symlinks that resolve inside their root are
// counted, not read (their target is read at its own path); every other thing that is not read
// (a link out of the root, a special file, a submodule, a file over the limit, a directory too
// deep or unreadable) becomes an invariant-0 problem.
SourceSet walk_trees(const std::vector<SourceRoot>& roots, const WalkOptions& options,
                     FileTable& files);

// walk_trees over working-tree roots (directories or files on disk, as given).
SourceSet walk_sources(const std::vector<std::string>& roots, const WalkOptions& options,
                       FileTable& files);

FileType classify(const std::string& path, std::string_view head);
// A YAML file that is a compose file whatever its name (`stack.dev.yml`, `agent-compose.yaml`):
// its first document's root has a `services:` mapping with an entry that has `image:`, `build:`
// or `extends:`, and no `apiVersion`/`kind` (a Kubernetes object or a Helm values file with
// `services:` is not compose).
bool looks_like_compose(std::string_view bytes);

}  // namespace sbr
