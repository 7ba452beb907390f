#include "analyzer/render/helm/local_dependency.h"

#include <algorithm>
#include <string_view>

#include "analyzer/render/helm/funcs.h"
#include "analyzer/render/helm/semver.h"
#include "analyzer/render/helm/value.h"
#include "analyzer/support/strings.h"

namespace sbr::render::helm {

namespace {

// The files are sorted by path: one search, not a scan per lookup (a repository of 120 charts
// looks up each chart's dependencies among all the others).
const SourceFile* chart_yaml(const SourceSet& sources, const std::string& dir) {
  return chart_file(sources, dir);
}

// A chart inside another chart's charts/ (at any depth below it) is that chart's subchart, not
// one of the repository's own (find_chart_roots).
bool is_subchart(const SourceSet& sources, const std::string& dir) {
  for (std::size_t at = dir.find("charts/"); at != std::string::npos;
       at = dir.find("charts/", at + 1)) {
    if (at != 0 && dir[at - 1] != '/') continue;
    if (chart_yaml(sources, at == 0 ? "" : dir.substr(0, at - 1)) != nullptr) return true;
  }
  return false;
}

// name and version of a Chart.yaml; false when it does not parse.
bool name_and_version(const SourceFile& f, std::string& name, std::string& version) {
  Value meta;
  std::string error;
  if (!parse_yaml_value(f.bytes, f.id, "", meta, error) || !meta.is_map()) return false;
  auto text = [&](const char* key) {
    auto it = meta.map->find(key);
    return it == meta.map->end() ? std::string() : print_value(it->second);
  };
  name = text("name");
  version = text("version");
  return true;
}

// How many directory levels apart two chart directories are: a sibling (`bitnami/redis` and
// `bitnami/common`) is nearer than a chart elsewhere in the repository.
std::size_t distance(const std::string& a, const std::string& b) {
  std::size_t common = 0, i = 0;
  while (i < a.size() && i < b.size() && a[i] == b[i]) {
    if (a[i] == '/') common = i + 1;
    ++i;
  }
  if ((i == a.size() && (i == b.size() || b[i] == '/')) || (i == b.size() && a[i] == '/')) {
    common = i;
  }
  auto levels = [&](std::string_view rest) {
    return static_cast<std::size_t>(std::count(rest.begin(), rest.end(), '/'));
  };
  return levels(std::string_view(a).substr(common)) + levels(std::string_view(b).substr(common));
}

}  // namespace

LocalDependency local_dependency(const SourceSet& sources, const Chart& parent,
                                 const Dependency& d) {
  LocalDependency out;
  std::string name, version;
  if (d.repository.rfind("file://", 0) == 0) {
    std::string dir = path_clean(parent.dir + "/" + d.repository.substr(7));
    const SourceFile* f = chart_yaml(sources, dir);
    if (f != nullptr && name_and_version(*f, name, version)) out = {dir, version, true};
    return out;
  }
  std::size_t best = std::string::npos;
  for (const SourceFile& f : sources.files) {
    // Only a Chart.yaml whose text holds the name is parsed.
    if (!f.readable || base_name(f.path) != "Chart.yaml" ||
        f.bytes.find(d.name) == std::string::npos) {
      continue;
    }
    const std::string dir = dir_of(f.path);
    if (dir == parent.dir || is_subchart(sources, dir)) continue;
    if (!name_and_version(f, name, version) || name != d.name) continue;
    std::string error;
    if (!d.version.empty() && !semver_satisfies(d.version, version, error)) continue;
    std::size_t far = distance(parent.dir, dir);
    if (far < best) {
      best = far;
      out = {dir, version, false};
    }
  }
  return out;
}

}  // namespace sbr::render::helm
