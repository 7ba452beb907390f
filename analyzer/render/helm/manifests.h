// What `helm template` (Helm v4) prints for rendered template files: each file cut into
// documents as releaseutil.SplitManifests cuts them, hooks (`helm.sh/hook`) apart from the
// other documents, both sorted by kind in Helm's install order, CRD files first when asked,
// hooks last; and `--show-only` over that output.
#pragma once

#include <string>
#include <vector>

namespace sbr::render::helm {

struct TemplateFile {
  std::string name;     // "agent/templates/deployment.yaml"
  std::string content;  // the rendered text, without a `# Source:` line
};

struct ManifestHead {
  std::string kind, name;
  std::string hook;  // the helm.sh/hook annotation, "" when none
};

// releaseutil.SplitManifests: the documents of `text`, each left-trimmed, empty ones dropped.
std::vector<std::string> split_manifests(const std::string& text);

// The documents' rank in Helm's InstallOrder (unknown kinds after every known one).
int install_rank(const std::string& kind);

// `helm template`'s standard output for `templates` (in file-name order) and, first, `crds`;
// `skip_tests` drops test hooks. False with `error` as Helm words it when a document's head
// is not YAML ("YAML parse error on NAME: ...").
bool template_output(const std::vector<TemplateFile>& templates,
                     const std::vector<TemplateFile>& crds, bool skip_tests, std::string& out,
                     std::string& error);

// `--show-only PATTERN...` over `output`: each pattern (Go's filepath.Match against the path
// after the chart name) in order, every document it matches. False with Helm's error when a
// pattern matches nothing.
bool show_only(const std::string& output, const std::vector<std::string>& patterns,
               std::string& out, std::string& error);

// Go's path.Match: `*` and `?` within a segment, `[...]` classes, `\` escapes.
bool go_path_match(std::string_view pattern, std::string_view name);

}  // namespace sbr::render::helm
