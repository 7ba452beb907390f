#include "analyzer/render/helm/helm_template.h"

#include <fmt/format.h>

#include "analyzer/render/helm/chart_streams.h"
#include "analyzer/render/helm/manifests.h"
#include "analyzer/render/helm/semver.h"
#include "analyzer/render/helm/user_values.h"

namespace sbr::render::helm {

namespace {

void crd_files(const Chart& chart, const std::string& prefix, std::vector<TemplateFile>& out) {
  for (const SourceFile* f : chart.crds) {
    std::string rel = f->path.substr(chart.dir.empty() ? 0 : chart.dir.size() + 1);
    out.push_back({prefix + "/" + rel, f->bytes});
  }
  for (const Chart& sub : chart.subcharts) {
    if (sub.enabled) crd_files(sub, prefix + "/charts/" + sub.name, out);
  }
}

// --name-template: a template with the sprig functions and no data, as Helm's TemplateName.
bool release_name(const std::string& text, std::string& out, std::string& error) {
  ParsedFile parsed;
  ParseError pe;
  if (!parse_template(text, kNoFile, parsed, pe)) {
    error = "template: name-template: " + pe.message;
    return false;
  }
  TemplateSet set;
  Exec exec(set, Value{});
  Output o;
  try {
    exec.run(parsed.body, Value{}, o);
  } catch (const RenderError& e) {
    error = std::string("template: name-template: ") + e.what();
    return false;
  }
  out = o.text;
  return true;
}

bool fail(TemplateResult& r, std::string error) {
  r.error = std::move(error);
  return false;
}

bool check_chart(const Chart& chart, const ReleaseSettings& release, TemplateResult& r) {
  if (chart.type == "library") return fail(r, "library charts are not installable");
  if (!chart.notes.empty()) {
    r.problems = chart.notes;
    return fail(r,
                "the chart's dependencies are not all vendored in charts/ (run `helm "
                "dependency build`): " +
                    chart.notes.front().message);
  }
  const Value* kv =
      chart.metadata.map->count("KubeVersion") ? &chart.metadata.map->at("KubeVersion") : nullptr;
  std::string constraint = kv ? print_value(*kv) : "", why;
  if (!constraint.empty() && !semver_satisfies(constraint, release.kube_version, why))
    return fail(r, fmt::format("chart requires kubeVersion: {} which is incompatible with "
                               "Kubernetes {}",
                               constraint, release.kube_version));
  return true;
}

}  // namespace

TemplateResult helm_template(const SourceSet& sources, const TemplateRequest& req) {
  TemplateResult r;
  Chart chart;
  VirtualFiles archive_files{req.options.virtual_base, &r.virtual_files};
  if (!load_chart(sources, req.chart_dir, chart, 0, &archive_files)) {
    r.problems = chart.notes;
    r.error = chart.notes.empty() ? "Chart.yaml file is missing" : chart.notes.front().message;
    return r;
  }
  ChartSettings settings;
  settings.render_tests = true;
  settings.release.ns = req.ns;
  settings.release.name = req.release_name;
  settings.release.upgrade = req.is_upgrade;  // revision 1 still, as helm template has it
  if (!req.name_template.empty() &&
      !release_name(req.name_template, settings.release.name, r.error))
    return r;
  if (!release_settings(req.options, settings.release, r.error)) return r;
  if (!check_chart(chart, settings.release, r)) return r;
  import_values(chart);
  Value values;
  RenderOutput scratch;
  if (!user_values(sources, req.options, chart, values, scratch)) {
    r.problems = scratch.problems;
    r.error = scratch.problems.front().message;
    return r;
  }
  Rendering rendered = render_values(chart, values, settings);
  std::vector<Problem> invalid;
  validate_values(rendered, invalid);
  if (!invalid.empty()) {
    r.problems = invalid;
    r.error = "values don't meet the specifications of the schema(s): " + invalid.front().message;
    return r;
  }
  if (!rendered.render.problems.empty()) {
    r.problems = rendered.render.problems;
    r.error = r.problems.front().message;
    return r;
  }
  std::vector<TemplateFile> templates, crds;
  for (const RenderedTemplate& t : rendered.render.templates)
    templates.push_back({t.name, t.out.text});
  if (req.include_crds) crd_files(rendered.chart, rendered.chart.name, crds);
  std::string out;
  if (!template_output(templates, crds, req.skip_tests, out, r.error)) return r;
  if (req.show_only.empty()) {
    r.out = std::move(out);
  } else if (!show_only(out, req.show_only, r.out, r.error)) {
    r.out.clear();
  }
  return r;
}

}  // namespace sbr::render::helm
