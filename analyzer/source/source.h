// What files exist and their bytes. Walks the working tree without following a symlink out of
// the root and without opening FIFOs or devices; classifies each file for the frontends.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analyzer/model/model.h"

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
  std::string path;      // relative to the root it was found under, '/'-separated
  std::string abs_path;  // for tools that need the file on disk
  FileType type = FileType::Other;
  std::string bytes;
  bool readable = false;
};

struct WalkOptions {
  std::vector<std::string> excludes;  // path prefixes / glob-free directory names
  std::uint64_t max_file_bytes = 64ull << 20;
};

struct SourceSet {
  std::vector<SourceFile> files;  // sorted by path; files[i].id == i
  std::vector<Problem> problems;
  std::uint32_t symlinks_inside = 0;  // links inside the root: their targets are read directly
  std::uint32_t excluded = 0;
};

// Walks each root (a directory or a file). Paths in the result are relative to the root's
// parent directory for files and to the root itself for directories.
SourceSet walk_sources(const std::vector<std::string>& roots, const WalkOptions& options,
                       FileTable& files);

FileType classify(const std::string& path, std::string_view head);

}  // namespace sbr
