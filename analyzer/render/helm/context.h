// The objects a template's dot holds besides .Values: .Release, .Capabilities, .Files, as
// `helm template` sets them when it has no cluster.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "analyzer/render/helm/value.h"

namespace sbr::render::helm {

constexpr const char* kReleaseName = "release-name";
constexpr const char* kNamespace = "default";
constexpr const char* kKubeVersion = "v1.33.0";  // docs/rendering.md: Capabilities defaults

// What `helm template` is told about the release and the cluster it pretends to target.
struct ReleaseSettings {
  std::string name = kReleaseName;
  std::string ns = kNamespace;
  std::string kube_version = kKubeVersion;  // "v1.33.0": --kube-version, normalised
  std::vector<std::string> api_versions;    // --api-versions, added to the built-in ones
  // A first install (`IsInstall`, revision 1) as helm template renders it, or an upgrade
  // (`IsUpgrade`): revision 2 in the switch of a chart whose guards read them
  // (placeholders.h), 1 under `render helm --is-upgrade` as `helm template --is-upgrade`.
  bool upgrade = false;
  std::int64_t revision = 1;
};

Value release_object(const ReleaseSettings& r);
Value capabilities_object(const ReleaseSettings& r);
// .Files over the chart's non-template files (path in chart, bytes).
Value files_object(std::vector<std::pair<std::string, std::string>> files);
// The regular expression (RE2 syntax) of a `.Files.Glob` pattern as gobwas/glob compiles it
// with separator '/': `**` any text, `*` and `?` within a segment, `[a-z]`, `[!a]`, `{a,b}`
// (nested), `\` escapes. Empty when the pattern does not compile (helm then matches every
// file). Matched by RE2, in time linear in the name whatever the pattern.
std::string files_glob_regex(std::string_view pattern);

}  // namespace sbr::render::helm
