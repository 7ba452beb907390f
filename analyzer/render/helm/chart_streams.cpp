#include "analyzer/render/helm/chart_streams.h"

#include <algorithm>

#include "analyzer/render/helm/unvendored.h"

namespace sbr::render::helm {

namespace {

// Line (1-based, in the stream whose line 1 is the `# Source:` comment) of each offset.
struct LineCounter {
  const std::string& text;
  std::size_t k = 0;
  std::uint32_t line = 2, col = 1;
  void advance(std::size_t to) {
    for (; k < to && k < text.size(); ++k) {
      if (text[k] == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
    }
  }
};

SourceMap map_of(const Output& out, const Origin& fallback) {
  SourceMap map;
  map.fallback = fallback;
  LineCounter at{out.text};
  // Sized once: doubling as it grows left up to half of each map unused, and a chart's switch
  // renders hold millions of segments (bitnami's charts: 2.7 million).
  map.segments.reserve(out.spans.size());
  for (const Span& s : out.spans) {
    at.advance(s.offset);
    Origin o{s.at, s.values, s.note, StepRole::Template};
    if (!map.segments.empty() && map.segments.back().line == at.line &&
        map.segments.back().column == at.col)
      map.segments.back().origin = o;
    else
      map.segments.push_back({at.line, at.col, o});
  }
  map.segments.shrink_to_fit();
  return map;
}

std::vector<Omission> omissions_of(const Output& out) {
  std::vector<Omission> list;
  LineCounter at{out.text};
  for (const Skipped& s : out.skipped) {
    at.advance(s.offset);
    list.push_back({at.line, s.indent, s.keys, s.guard.at, s.guard.values, s.guard.path});
  }
  return list;
}

void push_crds(const Chart& chart, const std::string& root, const std::string& prefix,
               const Origin& fallback, const Condition& condition, RenderOutput& out) {
  for (const SourceFile* f : chart.crds) {
    RenderedStream s;
    s.root = root;
    s.engine = "helm";
    s.condition = condition;
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
    if (sub.enabled) push_crds(sub, root, prefix + "/charts/" + sub.name, fallback, condition, out);
  }
}

// Helm splits a template's output into documents with `(?:^|\s*\n)---\s*`, not with a YAML
// parser: `---` at the start of a line ends a document whatever follows it. A `{{- end -}}`
// that trims the blank lines around it leaves `---# Permission to ...` (cert-manager's
// rbac.yaml), a separator and a comment for helm, and for a YAML parser a scalar that runs two
// manifests into one. A blank after the marker makes it one for both; only that line's
// columns move, and only in its comment.
void separate_comment_markers(std::string& text) {
  std::size_t k = 0;
  while ((k = text.find("\n---#", k)) != std::string::npos) {
    text.insert(k + 4, 1, ' ');
    k += 5;
  }
}

}  // namespace

Rendering render_values(const Chart& pristine, const Value& values, const ChartSettings& settings) {
  Rendering r{pristine, deep_copy(values), {}};
  scope_subcharts(r.chart, r.values, r.values);
  add_stand_ins(r.chart, r.values);
  r.render = render_chart(r.chart, r.values, settings);
  return r;
}

void push_streams(const Rendering& r, const Condition& condition, RenderOutput& out,
                  const std::vector<std::string>* only) {
  if (r.render.templates.empty()) return;
  Origin fallback{Location{r.chart.chart_file->id, 1, 1}, {}, {}, StepRole::Template};
  if (only == nullptr) push_crds(r.chart, r.chart.dir, r.chart.name, fallback, condition, out);
  for (const RenderedTemplate& t : r.render.templates) {
    if (only && std::find(only->begin(), only->end(), t.name) == only->end()) continue;
    RenderedStream s;
    s.root = r.chart.dir;
    s.engine = "helm";
    s.condition = condition;
    s.text = "# Source: " + t.name + "\n" + t.out.text;
    separate_comment_markers(s.text);
    s.map = map_of(t.out, Origin{Location{t.file->id, 1, 1}, {}, {}, StepRole::Template});
    s.omissions = omissions_of(t.out);
    if (only) s.replaces = *only;
    out.streams.push_back(std::move(s));
  }
}

}  // namespace sbr::render::helm
