// A chart rendered once more per boolean switch that guards its templates, flipped.
#pragma once

#include "analyzer/render/helm/chart_streams.h"

namespace sbr::render::helm {

// For each boolean value that decided a guard in `base` (in the order they were first met),
// up to `max_switches`: renders `pristine` with it flipped and adds that render's streams
// under the condition "when `key=true`" when its output differs. A template that fails only
// flipped, and switches past the bound, are SwitchNotRendered problems.
// The templates of `base` (rendered with record_guards) whose output may change when the
// value at top-level key path `path` changes: those that used it, a map or list holding it
// (`toYaml .Values.debug`), or a whole .Values. The others render as they did.
std::vector<std::string> switch_readers(const Chart& pristine, const ChartRender& base,
                                        const std::string& path);

void flip_switches(const Chart& pristine, const Value& values, const Rendering& base,
                   const ChartSettings& settings, unsigned max_switches, RenderOutput& out);

}  // namespace sbr::render::helm
