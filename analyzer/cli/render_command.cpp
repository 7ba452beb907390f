#include "analyzer/cli/render_command.h"

#include <ostream>

#include "analyzer/render/helm/manifests.h"
#include "analyzer/report/report_util.h"
#include "analyzer/source/source.h"

namespace sbr {

namespace {

void print_root(const std::vector<const render::RenderedStream*>& streams, std::ostream& out,
                std::ostream& err) {
  if (streams.front()->engine != "helm") {
    for (const auto* s : streams) out << s->text << (s->text.ends_with('\n') ? "" : "\n");
    return;
  }
  // Each stream is `# Source: NAME` and a template's output (or a crds/ file).
  std::vector<render::helm::TemplateFile> templates, crds;
  for (const auto* s : streams) {
    std::size_t nl = s->text.find('\n');
    std::string name = s->text.substr(10, nl == std::string::npos ? nl : nl - 10);
    std::string body = nl == std::string::npos ? "" : s->text.substr(nl + 1);
    (name.find("/templates/") == std::string::npos ? crds : templates)
        .push_back({std::move(name), std::move(body)});
  }
  std::string text, error;
  if (render::helm::template_output(templates, crds, false, text, error)) {
    out << text;
    return;
  }
  err << "render: " << report::one_line_safe(error) << "; printed as rendered\n";
  for (const auto* s : streams) out << "---\n" << s->text << (s->text.ends_with('\n') ? "" : "\n");
}

}  // namespace

render::RenderOptions render_options(const Options& o) {
  render::RenderOptions r;
  r.enabled = o.render;
  r.helm_values = o.helm_values;
  r.helm_set = o.helm_set;
  r.helm_set_string = o.helm_set_string;
  r.helm_set_file = o.helm_set_file;
  r.kube_version = o.kube_version;
  r.api_versions = o.api_versions;
  return r;
}

int run_render(const Options& o, std::ostream& out, std::ostream& err) {
  if (o.helm_template) return run_render_helm(o.helm_args, out, err);
  FileTable files;
  SourceSet sources = walk_sources(o.paths, WalkOptions{}, files);
  render::RenderOptions options = render_options(o);
  options.enabled = true;
  options.switches = false;  // what a chart renders to with its values, once
  options.virtual_base = static_cast<FileId>(files.paths.size());
  render::RenderOutput rendered = render::render_roots(sources, options);
  for (const std::string& p : rendered.virtual_files) files.add(p);
  std::vector<const render::RenderedStream*> group;
  bool first = true;
  auto flush = [&] {
    if (group.empty()) return;
    const std::string& root = group.front()->root;
    out << (first ? "" : "\n") << "# Render root: " << (root.empty() ? "." : root) << " ("
        << group.front()->engine << ")\n";
    first = false;
    print_root(group, out, err);
    group.clear();
  };
  for (const render::RenderedStream& s : rendered.streams) {
    if (!group.empty() && (s.root != group.front()->root || s.engine != group.front()->engine))
      flush();
    group.push_back(&s);
  }
  flush();
  for (const Problem& p : rendered.problems) {
    err << report::one_line_safe(files.path(p.at.file)) << ':' << p.at.line << ':' << p.at.column
        << ": " << report::one_line_safe(p.message) << '\n';
  }
  return rendered.problems.empty() ? 0 : 1;
}

}  // namespace sbr
