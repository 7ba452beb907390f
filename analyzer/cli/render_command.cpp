#include "analyzer/cli/render_command.h"

#include <ostream>

#include "analyzer/source/source.h"

namespace sbr {

render::RenderOptions render_options(const Options& o) {
  render::RenderOptions r;
  r.enabled = o.render;
  r.helm_values = o.helm_values;
  r.helm_set = o.helm_set;
  return r;
}

int run_render(const Options& o, std::ostream& out, std::ostream& err) {
  FileTable files;
  SourceSet sources = walk_sources(o.paths, WalkOptions{}, files);
  render::RenderOptions options = render_options(o);
  options.enabled = true;
  render::RenderOutput rendered = render::render_roots(sources, options);
  std::string root;
  bool first = true;
  for (const render::RenderedStream& s : rendered.streams) {
    if (first || s.root != root) {
      out << (first ? "" : "\n") << "# Render root: " << (s.root.empty() ? "." : s.root) << " ("
          << s.engine << ")\n";
      root = s.root;
      first = false;
    }
    out << "---\n" << s.text;
    if (!s.text.empty() && s.text.back() != '\n') out << '\n';
  }
  for (const Problem& p : rendered.problems) {
    err << files.path(p.at.file) << ':' << p.at.line << ':' << p.at.column << ": " << p.message
        << '\n';
  }
  return rendered.problems.empty() ? 0 : 1;
}

}  // namespace sbr
