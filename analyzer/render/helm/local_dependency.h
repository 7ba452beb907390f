// A dependency that is not vendored in charts/ but that the repository holds itself: a
// `file://` repository helm would copy from, or (for a registry dependency) a chart of the same
// name whose version meets the constraint, as bitnami's charts depend on `common` from their
// OCI registry while bitnami/common is its source (docs/rendering.md, "Dependencies").
#pragma once

#include <string>

#include "analyzer/render/helm/chart.h"
#include "analyzer/source/source.h"

namespace sbr::render::helm {

struct LocalDependency {
  std::string dir;               // the chart directory that stands in, "" when there is none
  std::string version;           // its Chart.yaml version
  bool file_repository = false;  // named by `repository: file://...`: what helm itself uses
};

// The chart of `sources` that stands in for dependency `d` of `parent`: the `file://` path, else
// the chart of that name nearest to `parent` whose version satisfies `d.version`.
LocalDependency local_dependency(const SourceSet& sources, const Chart& parent,
                                 const Dependency& d);

}  // namespace sbr::render::helm
