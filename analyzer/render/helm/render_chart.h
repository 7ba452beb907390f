// Renders one chart tree (a chart and its enabled subcharts) as `helm template` does.
#pragma once

#include <string>
#include <vector>

#include "analyzer/render/helm/chart.h"
#include "analyzer/render/helm/context.h"
#include "analyzer/render/helm/exec.h"

namespace sbr::render::helm {

struct RenderedTemplate {
  std::string name;  // "agent/templates/deployment.yaml", "agent/charts/db/templates/x.yaml"
  const SourceFile* file = nullptr;
  Output out;  // the template's output, without the `# Source:` line
};

struct ChartRender {
  std::vector<RenderedTemplate> templates;  // by name; crds/ first as helm prints them
  std::vector<Problem> problems;
  std::vector<GuardSeen> guards;  // guards decided by values, when asked for
};

struct ChartSettings {
  ReleaseSettings release;
  bool render_tests = false;   // templates/tests/**: helm template prints them as test hooks
  bool record_guards = false;  // fill ChartRender::guards
};

// `values` are the chart's final values (defaults coalesced with the user's).
ChartRender render_chart(Chart& chart, const Value& values, const ChartSettings& settings = {});

}  // namespace sbr::render::helm
