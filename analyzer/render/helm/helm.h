// Helm charts rendered by the project's own chart engine (no helm binary exists in Debian):
// what `helm template` prints, with a source map to template and values lines.
#pragma once

#include "analyzer/render/render_roots.h"

namespace sbr::render {

// Every chart directory of `sources` (a `Chart.yaml`) that is not a subchart of another:
// rendered into `out.streams`; its files go to `out.consumed`.
void render_helm_charts(const SourceSet& sources, const RenderOptions& options, RenderOutput& out);

// A chart that a kustomization inflates (`helmCharts:`), rendered as kustomize's inflation
// would have `helm template` render it: values as kustomize assembles them (valuesFile or the
// chart's values.yaml, valuesInline by valuesMerge, then additionalValuesFiles).
struct HelmInflation {
  std::string chart_dir;
  FileId kustomization = kNoFile;  // valuesInline is its helmCharts[index].valuesInline
  std::size_t index = 0;
  std::vector<std::string> values_files;  // tree paths: valuesFile, then additionalValuesFiles
  bool values_file = false;               // the first of values_files is valuesFile
  std::string values_merge;               // override (default), merge or replace
  std::string release_name, ns;
  bool include_crds = false, skip_tests = false;
  std::string kube_version;
  std::vector<std::string> api_versions;
};

struct Inflated {
  bool ok = false;
  std::string text;  // the documents, each after `---` and its `# Source:` line
  SourceMap map;     // of `text`: template and values lines
};

// The chart's files go to `out.consumed`, its problems to `out.problems`.
Inflated inflate_helm_chart(const SourceSet& sources, const HelmInflation& h,
                            const RenderOptions& options, RenderOutput& out);

}  // namespace sbr::render
