// Charts inflated by a kustomization (`helmCharts:`): rendered by the chart engine, once, with
// the values kustomize would hand to `helm template`, into one stream of documents that the
// Kustomize renderer writes into its private copy as a resource.
#include <fmt/format.h>

#include "analyzer/render/helm/chart_streams.h"
#include "analyzer/render/helm/funcs.h"
#include "analyzer/render/helm/helm.h"
#include "analyzer/render/helm/user_values.h"

namespace sbr::render {

namespace {

using helm::Value;

const SourceFile* file_of(const SourceSet& sources, const std::string& path) {
  for (const SourceFile& f : sources.files) {
    if (f.path == path) return &f;
  }
  return nullptr;
}

bool read_values(const SourceSet& sources, const std::string& path, Value& out,
                 std::vector<Problem>& problems, Location at) {
  const SourceFile* f = file_of(sources, path);
  std::string error;
  if (f && helm::parse_yaml_value(f->bytes, f->id, "", out, error) &&
      (out.is_map() || out.is_nil())) {
    if (out.is_nil()) out = Value::new_map();
    return true;
  }
  problems.push_back({ProblemKind::RenderFailed,
                      fmt::format("helmCharts values file {} cannot be read{}; the chart is not "
                                  "rendered: fix the file or the entry",
                                  path, error.empty() ? "" : " (" + error + ")"),
                      at, Cause::Repository});
  return false;
}

// helmCharts[index].valuesInline of the kustomization, with its lines there.
Value inline_values(const SourceSet& sources, FileId kustomization, std::size_t index) {
  Value doc;
  std::string error;
  if (kustomization >= sources.files.size()) return Value::new_map();
  const SourceFile& f = sources.files[kustomization];
  if (!helm::parse_yaml_value(f.bytes, f.id, "", doc, error)) return Value::new_map();
  const Value* v = helm::find_path(doc, "helmCharts[" + std::to_string(index) + "].valuesInline");
  return v && v->is_map() ? *v : Value::new_map();
}

// kustomize's values: valuesFile (else the chart's values.yaml) and valuesInline as valuesMerge
// says, then each additionalValuesFiles file.
bool kustomize_values(const SourceSet& sources, const HelmInflation& h, const helm::Chart& chart,
                      Value& user, std::vector<Problem>& problems) {
  Location at{h.kustomization, 1, 1};
  std::size_t next = 0;
  Value base = helm::deep_copy(chart.values);
  if (h.values_file && !read_values(sources, h.values_files[next++], base, problems, at))
    return false;
  Value inline_v = inline_values(sources, h.kustomization, h.index);
  if (h.values_merge == "replace") {
    user = inline_v;
  } else if (h.values_merge == "merge") {
    user = helm::deep_copy(inline_v);
    helm::merge_maps(user, base);
  } else {
    user = base;
    helm::merge_maps(user, inline_v);
  }
  for (; next < h.values_files.size(); ++next) {
    Value more;
    if (!read_values(sources, h.values_files[next], more, problems, at)) return false;
    helm::merge_maps(user, more);
  }
  helm::coalesce_values(user, chart.values);
  return true;
}

// One text of the chart's documents, each stream after a `---`, and its map shifted to match.
void concatenate(const RenderOutput& streams, bool crds, Inflated& out) {
  std::uint32_t lines = 0;
  for (const RenderedStream& s : streams.streams) {
    const std::string source = s.text.substr(0, s.text.find('\n'));
    const bool is_crd = source.find("/templates/") == std::string::npos;
    if (is_crd && !crds) continue;
    out.text += "---\n";
    ++lines;
    if (out.map.segments.empty()) out.map.fallback = s.map.fallback;
    out.map.segments.push_back({lines + 1, 1, s.map.fallback});
    for (const SourceMap::Segment& seg : s.map.segments)
      out.map.segments.push_back({seg.line + lines, seg.column, seg.origin});
    out.text += s.text;
    if (!s.text.ends_with('\n')) out.text += '\n';
    for (char c : s.text) lines += c == '\n';
    if (!s.text.ends_with('\n')) ++lines;
  }
}

}  // namespace

Inflated inflate_helm_chart(const SourceSet& sources, const HelmInflation& h,
                            const RenderOptions& options, RenderOutput& out) {
  Inflated result;
  helm::Chart chart;
  helm::VirtualFiles archive_files{options.virtual_base, &out.virtual_files};
  bool loaded = helm::load_chart(sources, h.chart_dir, chart, 0, &archive_files);
  out.consumed.insert(out.consumed.end(), chart.consumed.begin(), chart.consumed.end());
  out.problems.insert(out.problems.end(), chart.notes.begin(), chart.notes.end());
  if (!loaded || chart.type == "library") return result;
  helm::import_values(chart);
  helm::ChartSettings settings;
  settings.render_tests = !h.skip_tests;
  if (!h.release_name.empty()) settings.release.name = h.release_name;
  if (!h.ns.empty()) settings.release.ns = h.ns;
  RenderOptions versions;
  versions.kube_version = h.kube_version;
  versions.api_versions = h.api_versions;
  std::string error;
  if (!helm::release_settings(versions, settings.release, error)) {
    out.problems.push_back(
        {ProblemKind::RenderFailed,
         fmt::format("helmCharts chart {} is not rendered: {}", chart.name, error),
         Location{h.kustomization, 1, 1}, Cause::Environment});
    return result;
  }
  Value values;
  if (!kustomize_values(sources, h, chart, values, out.problems)) return result;
  helm::Rendering r = helm::render_values(chart, values, settings);
  out.problems.insert(out.problems.end(), r.render.problems.begin(), r.render.problems.end());
  helm::validate_values(r, out.problems);
  RenderOutput streams;
  helm::push_streams(r, {}, streams);
  concatenate(streams, h.include_crds, result);
  result.ok = true;
  return result;
}

}  // namespace sbr::render
