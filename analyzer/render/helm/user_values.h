// The values and release settings a chart is rendered with, from the command line and the
// configuration.
#pragma once

#include <string>

#include "analyzer/render/helm/chart.h"
#include "analyzer/render/helm/context.h"
#include "analyzer/render/render_roots.h"

namespace sbr::render::helm {

// The user's values for `chart` (the configuration's entries for it, then the command line's:
// values files, --set, --set-string, --set-file) coalesced over its defaults, not yet scoped
// to subcharts. False, with a problem in `rendered`, when an input cannot be read or parsed.
bool user_values(const SourceSet& sources, const RenderOptions& options, const Chart& chart,
                 Value& out, RenderOutput& rendered);

// Helm's mergeMaps for values files: maps merge key by key, anything else in `over` wins.
void merge_maps(Value& base, const Value& over, int depth = 0);

// --kube-version and --api-versions as Helm reads them; false with `error` on a bad version.
bool release_settings(const RenderOptions& options, ReleaseSettings& r, std::string& error);

}  // namespace sbr::render::helm
