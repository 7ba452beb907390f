// Render roots for Helm: every chart directory that is not a subchart, rendered by the
// project's own engine with the user's values; one stream per template file with an exact
// source map (template line, and the values line when values fed the text).
#include <fmt/format.h>

#include <algorithm>
#include <exception>

#include "analyzer/render/helm/chart.h"
#include "analyzer/render/helm/helm.h"
#include "analyzer/render/helm/switches.h"
#include "analyzer/render/helm/user_values.h"
#include "analyzer/support/run_budget.h"

namespace sbr::render {

namespace {

using helm::Chart;
using helm::Value;

void render_one(const SourceSet& sources, const RenderOptions& options, const std::string& dir,
                RenderOutput& out) {
  Chart chart;
  helm::VirtualFiles archive_files{options.virtual_base, &out.virtual_files};
  bool loaded = helm::load_chart(sources, dir, chart, 0, &archive_files);
  out.consumed.insert(out.consumed.end(), chart.consumed.begin(), chart.consumed.end());
  out.problems.insert(out.problems.end(), chart.notes.begin(), chart.notes.end());
  if (!loaded) return;
  if (chart.type == "library") return;  // only its defines exist, for charts that depend on it
  helm::import_values(chart);
  helm::ChartSettings settings;
  std::string error;
  if (!helm::release_settings(options, settings.release, error)) {
    out.problems.push_back({ProblemKind::RenderFailed,
                            fmt::format("chart {} is not rendered: {}", chart.name, error),
                            Location{chart.chart_file->id, 1, 1}, Cause::Environment});
    return;
  }
  Value values;
  if (!helm::user_values(sources, options, chart, values, out)) return;
  settings.record_guards = options.switches;
  // helm installs what templates/tests/ holds (a manifest there without the `helm.sh/hook: test`
  // annotation is an ordinary object), and `helm test` runs the test hooks in the cluster.
  settings.render_tests = true;
  helm::Rendering base = helm::render_values(chart, values, settings);
  out.problems.insert(out.problems.end(), base.render.problems.begin(), base.render.problems.end());
  helm::validate_values(base, out.problems);
  helm::push_streams(base, {}, out);
  // A chart whose every template is off by default (a mode it deploys nothing in) still has
  // switches: its guards ran. One whose every template failed has nothing a switch could add.
  bool all_off = base.render.templates.empty() && base.render.problems.empty();
  if (options.switches && !base.render.guards.empty() &&
      (!base.render.templates.empty() || all_off))
    helm::flip_switches(chart, values, base, settings, options.max_switches, out);
}

}  // namespace

void render_helm_charts(const SourceSet& sources, const RenderOptions& options, RenderOutput& out) {
  for (const std::string& dir : helm::find_chart_roots(sources)) {
    if (std::find(options.inflated_charts.begin(), options.inflated_charts.end(), dir) !=
        options.inflated_charts.end())
      continue;  // a kustomization renders it (helmCharts:), with its own values
    if (auto why = run_budget_exceeded()) {
      const SourceFile* chart = helm::chart_file(sources, dir);
      out.problems.push_back(
          {ProblemKind::BudgetExceeded,
           fmt::format("chart {} is not rendered: {} before it", dir.empty() ? "." : dir, *why),
           chart ? Location{chart->id, 1, 1} : Location{}, Cause::Analyzer});
      continue;
    }
    // An engine defect loses one chart, located at its Chart.yaml, never the others.
    try {
      render_one(sources, options, dir, out);
    } catch (const std::exception& e) {
      const SourceFile* chart = helm::chart_file(sources, dir);
      out.problems.push_back(
          {ProblemKind::RenderFailed,
           fmt::format("chart {} is not rendered: internal error of the chart engine "
                       "({}); please report it with the chart",
                       dir.empty() ? "." : dir, e.what()),
           chart ? Location{chart->id, 1, 1} : Location{}});
    }
  }
}

}  // namespace sbr::render
