// The pipeline from source trees to a model: walk the sources, read every file in parallel, merge
// in path order, link cross-file objects, and apply the declared context from the configuration.
#pragma once

#include <string>
#include <vector>

#include "analyzer/config/config.h"
#include "analyzer/model/model.h"
#include "analyzer/render/render_roots.h"
#include "analyzer/source/repository_files.h"
#include "analyzer/source/source.h"

namespace sbr {

struct Analysis {
  Model model;
  SourceSet sources;
};

struct AnalyzeOptions {
  unsigned jobs = 1;             // the input's bounds are Config::limits
  render::RenderOptions render;  // Helm charts and Kustomize overlays
  // The repository around the roots, where evidence files outside the run are looked up
  // (docs/doc-claims.md); null: only the run's files count.
  const RepositoryLookup* repository = nullptr;
  // Whether bash -n settles tree-sitter-bash's syntax errors (FrontendContext::ask_bash).
  bool ask_bash = true;
};

// The roots may lie in any trees (a working tree, a git revision, memory); the trees must
// outlive the call, not the result (the files' bytes are copied into `sources`).
Analysis analyze(const std::vector<SourceRoot>& roots, const Config& config,
                 const AnalyzeOptions& options);
// The whole of one tree, paths relative to its top.
Analysis analyze(const SourceTree& tree, const Config& config, const AnalyzeOptions& options);
// Directories or files in the working tree, as given on the command line.
Analysis analyze(const std::vector<std::string>& paths, const Config& config,
                 const AnalyzeOptions& options);

// Threat class of each workload: a matching .sbreview.yaml entry, else the object's
// `sbreview.dev/threat-class` annotation, else what engine::infer_threat_classes inferred
// (its evidence stays recorded either way). Exposed for tests.
void apply_threat_classes(Model& model, const Config& config);

inline constexpr const char* kThreatAnnotation = "sbreview.dev/threat-class";

}  // namespace sbr
