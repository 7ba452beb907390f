// Render roots for Helm: every chart directory that is not a subchart, rendered by the
// project's own engine with the user's values; one stream per template file with an exact
// source map (template line, and the values line when values fed the text).
#include <fmt/format.h>

#include <exception>
#include <fstream>
#include <sstream>

#include "analyzer/render/helm/chart.h"
#include "analyzer/render/helm/funcs.h"
#include "analyzer/render/helm/helm.h"
#include "analyzer/render/helm/render_chart.h"

namespace sbr::render {

namespace {

using helm::Chart;
using helm::Value;

const SourceFile* find_file(const SourceSet& sources, const std::string& path) {
  std::string p = path;
  while (p.rfind("./", 0) == 0) p = p.substr(2);
  for (const SourceFile& f : sources.files) {
    if (f.path == p) return &f;
  }
  return nullptr;
}

// A values file named on the command line: from the analysed tree when it is there (findings
// can point into it), else read from disk without a location.
bool read_user_values(const SourceSet& sources, const std::string& path, Value& out,
                      std::string& error, std::vector<FileId>& consumed) {
  if (const SourceFile* f = find_file(sources, path)) {
    consumed.push_back(f->id);
    return helm::parse_yaml_value(f->bytes, f->id, "", out, error);
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot read " + path;
    return false;
  }
  std::stringstream buf;
  buf << in.rdbuf();
  return helm::parse_yaml_value(buf.str(), kNoFile, "", out, error);
}

// Chart defaults, then each --helm-values file, then each --helm-set and --helm-set-string
// pair.
bool final_values(const SourceSet& sources, const RenderOptions& options, Chart& chart,
                  RenderOutput& out) {
  Value values = Value::new_map();
  Location at{chart.chart_file->id, 1, 1};
  for (auto it = options.helm_values.rbegin(); it != options.helm_values.rend(); ++it) {
    Value file;
    std::string error;
    if (!read_user_values(sources, *it, file, error, out.consumed) ||
        !(file.is_map() || file.is_nil())) {
      out.problems.push_back(
          {ProblemKind::RenderFailed,
           fmt::format("chart {} is not rendered: values file {} ({}); fix or "
                       "drop --helm-values {}",
                       chart.name, *it, error.empty() ? "not a mapping" : error, *it),
           at});
      return false;
    }
    if (file.is_map()) helm::coalesce_values(values, file);
  }
  helm::coalesce_values(values, chart.values);
  // Helm's order: every --set, then every --set-string.
  for (const auto* sets : {&options.helm_set, &options.helm_set_string}) {
    for (const std::string& set : *sets) {
      std::string error;
      if (!helm::apply_set(values, set, sets == &options.helm_set_string, error)) {
        out.problems.push_back({ProblemKind::RenderFailed,
                                fmt::format("chart {} is not rendered: {}", chart.name, error),
                                at});
        return false;
      }
    }
  }
  chart.values = values;
  helm::scope_subcharts(chart, chart.values, chart.values);
  return true;
}

SourceMap map_of(const helm::Output& out, const Origin& fallback) {
  SourceMap map;
  map.fallback = fallback;
  std::uint32_t line = 2, col = 1;  // line 1 is the `# Source:` comment
  std::size_t k = 0;
  for (const helm::Span& s : out.spans) {
    for (; k < s.offset && k < out.text.size(); ++k) {
      if (out.text[k] == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
    }
    Origin o{s.at, s.values, s.note, StepRole::Template};
    if (!map.segments.empty() && map.segments.back().line == line &&
        map.segments.back().column == col)
      map.segments.back().origin = o;
    else
      map.segments.push_back({line, col, o});
  }
  return map;
}

void push_crds(const Chart& chart, const std::string& prefix, const Origin& fallback,
               RenderOutput& out) {
  for (const SourceFile* f : chart.crds) {
    RenderedStream s;
    s.root = chart.dir;
    s.engine = "helm";
    std::string rel = f->path.substr(chart.dir.empty() ? 0 : chart.dir.size() + 1);
    s.text = "# Source: " + prefix + "/" + rel + "\n" + f->bytes;
    s.map.fallback = fallback;
    std::uint32_t lines = 1;
    for (char c : f->bytes) lines += c == '\n';
    for (std::uint32_t l = 1; l <= lines; ++l)
      s.map.segments.push_back(
          {l + 1, 1, Origin{Location{f->id, l, 1}, {}, {}, StepRole::Template}});
    out.streams.push_back(std::move(s));
  }
  for (const Chart& sub : chart.subcharts) {
    if (sub.enabled) push_crds(sub, prefix + "/charts/" + sub.name, fallback, out);
  }
}

void render_one(const SourceSet& sources, const RenderOptions& options, const std::string& dir,
                RenderOutput& out) {
  Chart chart;
  bool loaded = helm::load_chart(sources, dir, chart);
  out.consumed.insert(out.consumed.end(), chart.consumed.begin(), chart.consumed.end());
  out.problems.insert(out.problems.end(), chart.notes.begin(), chart.notes.end());
  if (!loaded) return;
  if (chart.type == "library") return;  // only its defines exist, for charts that depend on it
  if (!final_values(sources, options, chart, out)) return;
  Origin fallback{Location{chart.chart_file->id, 1, 1}, {}, {}, StepRole::Template};
  helm::ChartRender r = helm::render_chart(chart, chart.values);
  out.problems.insert(out.problems.end(), r.problems.begin(), r.problems.end());
  if (r.templates.empty()) return;
  push_crds(chart, chart.name, fallback, out);
  for (helm::RenderedTemplate& t : r.templates) {
    RenderedStream s;
    s.root = dir;
    s.engine = "helm";
    s.text = "# Source: " + t.name + "\n" + t.out.text;
    s.map = map_of(t.out, Origin{Location{t.file->id, 1, 1}, {}, {}, StepRole::Template});
    out.streams.push_back(std::move(s));
  }
}

}  // namespace

void render_helm_charts(const SourceSet& sources, const RenderOptions& options, RenderOutput& out) {
  for (const std::string& dir : helm::find_chart_roots(sources)) {
    // An engine defect loses one chart, located at its Chart.yaml, never the others.
    try {
      render_one(sources, options, dir, out);
    } catch (const std::exception& e) {
      const SourceFile* chart =
          find_file(sources, dir.empty() ? "Chart.yaml" : dir + "/Chart.yaml");
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
