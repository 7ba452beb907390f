// Renders one chart tree (a chart and its enabled subcharts) as `helm template` does.
#pragma once

#include <map>
#include <memory>
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
  // With record_guards: the values each rendered template used (by template name), and
  // whether one of them changed state the others share (then none is re-rendered alone).
  std::map<std::string, std::vector<ValueRead>> reads;
  bool shared_state = false;
  // Every template file's parse, kept for the next render of the same chart.
  std::map<const SourceFile*, std::shared_ptr<ParsedFile>> parsed;
};

struct ChartSettings {
  ReleaseSettings release;
  bool render_tests = false;   // templates/tests/**: helm template prints them as test hooks
  bool record_guards = false;  // fill ChartRender::guards and ChartRender::reads
  // A render of the same chart to take from: its parses, and with `rerun`, the output of
  // every template it rendered that `rerun` does not name (a switch's flipped render runs
  // again only the templates that used the switch). Templates it did not render run anyway.
  const ChartRender* reuse = nullptr;
  const std::vector<std::string>* rerun = nullptr;
};

// `values` are the chart's final values (defaults coalesced with the user's).
ChartRender render_chart(Chart& chart, const Value& values, const ChartSettings& settings = {});

}  // namespace sbr::render::helm
