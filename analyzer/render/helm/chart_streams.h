// One render of a chart tree with one set of values, and the streams the analysis reads from
// it (`crds/` files, then one stream per template with its source map).
#pragma once

#include "analyzer/render/helm/render_chart.h"
#include "analyzer/render/render_roots.h"

namespace sbr::render::helm {

struct Rendering {
  Chart chart;   // a scoped copy: subchart names (aliases), values and enabled flags
  Value values;  // the top chart's values, scoped (subcharts' under their names)
  ChartRender render;
};

// Renders `pristine` with the user's `values` (coalesced, not yet scoped to subcharts); the
// chart and the values are left as they were, so that the same chart renders again with a
// switch flipped.
Rendering render_values(const Chart& pristine, const Value& values, const ChartSettings& settings);

// Each chart's values.schema.json (the top chart's and every enabled subchart's) against the
// values it is rendered with, as Helm checks them: one RenderFailed problem per violation, at
// the values line of the offending value.
void validate_values(const Rendering& r, std::vector<Problem>& problems);

// The streams of `r`, each under `condition` (always, or a flipped switch). With `only`, the
// templates of those names alone and no crds/ files (a flipped render that replaces some
// templates; each stream lists `only` as what it replaces).
void push_streams(const Rendering& r, const Condition& condition, RenderOutput& out,
                  const std::vector<std::string>* only = nullptr);

}  // namespace sbr::render::helm
