// The values of dependencies that are not vendored (docs/rendering.md, "Dependencies not
// vendored"). Helm refuses such a chart; a reviewer wants the parent's workloads, so the parent
// renders with its own values for the dependency, and a template that reads past them is told
// apart from one that renders as helm would.
#pragma once

#include <string>
#include <vector>

#include "analyzer/render/helm/chart.h"
#include "analyzer/render/helm/exec.h"

namespace sbr::render::helm {

// Makes `.Values.KEY` a map for each unvendored dependency KEY (its alias, else its name) of
// `chart` (in `values`) and of every subchart (in its scoped values), as helm's coalescing
// would once the dependency's values.yaml is there.
void add_stand_ins(Chart& chart, Value& values, int depth = 0);
// Those maps, for Exec::stand_ins.
std::vector<const Map*> stand_ins_of(const Chart& chart, const Value& values, int depth = 0);
// The finding for template `name` of chart `chart` that read past them (`missing`: the
// unvendored dependencies near it).
std::string stand_in_message(const std::string& name, const std::string& chart,
                             const StandInRead& read, const std::vector<std::string>& missing);

// The finding for template `name` that read past them and then stopped with `error` at `line`
// (a nil value passed on to a helper that reads a field of it): the dependency's gap.
std::string stopped_after_stand_in_message(const std::string& name, const std::string& chart,
                                           const StandInRead& read, const std::string& error,
                                           std::uint32_t line,
                                           const std::vector<std::string>& missing);

// A template that includes a define no template of the chart has, while a dependency is not
// vendored: most likely that dependency's helper (bitnami's `common.*`).
struct BlockedTemplate {
  std::string name;    // the template
  std::string define;  // what it includes
  Location at;         // the include
};
// One finding for every template of a chart that such an include stopped: they share one cause
// and one fix (vendor the dependency), so a chart of 40 templates is one finding, not 40.
std::string blocked_message(const std::string& chart, const std::vector<BlockedTemplate>& blocked,
                            const std::vector<std::string>& missing);

}  // namespace sbr::render::helm
