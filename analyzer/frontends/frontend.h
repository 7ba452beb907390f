// The frontends' common output: what one file contributes to the model. Files are read in
// parallel into FileParts and merged in path order, so the model does not depend on --jobs.
#pragma once

#include <optional>
#include <vector>

#include "analyzer/model/model.h"
#include "analyzer/source/repository_files.h"
#include "analyzer/source/source.h"
#include "analyzer/support/limits.h"

namespace sbr {

struct FilePart {
  std::vector<Workload> workloads;
  ClusterObjects cluster;
  std::vector<ScriptFacts> scripts;
  std::vector<Problem> problems;
  std::vector<ImageBuild> images;
  std::vector<SeccompProfile> seccomp_profiles;
  std::vector<Suppression> suppressions;
  std::vector<Document> documents;
  RunSummary summary;
  std::string skipped;  // why the file was not analysed after all (binary content), or ""
};

struct FrontendContext {
  const SourceSet* sources = nullptr;     // other files of the run (bash `source`, compose build)
  std::optional<Engine> launcher_engine;  // from .sbreview.yaml, for unresolved launchers
  std::uint32_t max_documents = kDefaultMaxDocuments;     // YAML documents per file (limits:)
  const std::vector<DocumentScope>* documents = nullptr;  // .sbreview.yaml `documents:`
  // The repository around the run, for evidence files the run did not read; may be null.
  const RepositoryLookup* repository = nullptr;
  // Whether a syntax error of tree-sitter-bash is checked with `bash -n` (a process per file
  // with such an error); the fuzz targets turn it off.
  bool ask_bash = true;
};

// Dispatches on the file's type. Never throws: bad input becomes a Problem.
void analyze_file(const SourceFile& file, const FrontendContext& ctx, FilePart& out);

void merge_part(FilePart&& part, Model& model);

}  // namespace sbr
