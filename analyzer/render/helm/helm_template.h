// `helm template [NAME] CHART [flags]` of Helm v4, by the project's chart engine: what
// `sbreview render helm ...` prints, so the engine can be compared with Helm case by case.
#pragma once

#include <string>
#include <vector>

#include "analyzer/render/helm/context.h"
#include "analyzer/render/render_roots.h"

namespace sbr::render::helm {

struct TemplateRequest {
  std::string chart_dir;  // the chart's directory in the source set
  RenderOptions options;  // values files, --set*, --kube-version, --api-versions
  std::string release_name = kReleaseName;
  std::string name_template;  // --name-template: the release name, rendered
  std::string ns = kNamespace;
  bool include_crds = false;
  bool skip_tests = false;
  bool is_upgrade = false;  // --is-upgrade: `.Release.IsUpgrade` instead of `IsInstall`
  std::vector<std::string> show_only;
};

struct TemplateResult {
  std::string out;                         // helm template's standard output
  std::string error;                       // what Helm would print after "Error: "; "" on success
  std::vector<Problem> problems;           // located render problems behind `error`
  std::vector<std::string> virtual_files;  // as RenderOutput::virtual_files
};

TemplateResult helm_template(const SourceSet& sources, const TemplateRequest& req);

}  // namespace sbr::render::helm
