// `sbreview render helm [NAME] CHART [flags]`: helm template's own command line (the flags
// that change what is rendered), and its output, so the engine can be compared with Helm.
#include <algorithm>
#include <ostream>

#include "analyzer/cli/render_command.h"
#include "analyzer/render/helm/archive.h"
#include "analyzer/render/helm/chart.h"
#include "analyzer/render/helm/helm_template.h"
#include "analyzer/report/report_util.h"
#include "analyzer/source/source.h"
#include "analyzer/support/strings.h"

namespace sbr {

namespace {

// Flags that take a value, with what they fill; pflag's forms: `-f x`, `-fx`, `--values x`,
// `--values=x`.
struct HelmArgs {
  render::helm::TemplateRequest req;
  std::vector<std::string> positional;
};

std::optional<std::string> take(HelmArgs& h, const std::string& flag, const std::string& v) {
  render::RenderOptions& o = h.req.options;
  if (flag == "-f" || flag == "--values") {
    for (const std::string& f : split(v, ',')) o.helm_values.push_back(f);  // a string slice
  } else if (flag == "--set") {
    o.helm_set.push_back(v);
  } else if (flag == "--set-string") {
    o.helm_set_string.push_back(v);
  } else if (flag == "--set-file") {
    o.helm_set_file.push_back(v);
  } else if (flag == "-n" || flag == "--namespace") {
    h.req.ns = v;
  } else if (flag == "-s" || flag == "--show-only") {
    h.req.show_only.push_back(v);
  } else if (flag == "--kube-version") {
    o.kube_version = v;
  } else if (flag == "-a" || flag == "--api-versions") {
    o.api_versions.push_back(v);
  } else if (flag == "--name-template") {
    h.req.name_template = v;
  } else {
    return "unknown flag: " + flag;
  }
  return std::nullopt;
}

bool takes_value(const std::string& flag) {
  for (const char* f :
       {"-f", "--values", "--set", "--set-string", "--set-file", "-n", "--namespace", "-s",
        "--show-only", "--kube-version", "-a", "--api-versions", "--name-template"}) {
    if (flag == f) return true;
  }
  return false;
}

std::optional<std::string> parse(const std::vector<std::string>& args, HelmArgs& h) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--") {
      h.positional.insert(h.positional.end(), args.begin() + static_cast<std::ptrdiff_t>(i) + 1,
                          args.end());
      break;
    }
    if (a == "--include-crds") {
      h.req.include_crds = true;
    } else if (a == "--skip-tests") {
      h.req.skip_tests = true;
    } else if (a == "--is-upgrade") {
      h.req.is_upgrade = true;
    } else if (a.rfind("--", 0) == 0 && a.find('=') != std::string::npos) {
      std::size_t eq = a.find('=');
      if (auto e = take(h, a.substr(0, eq), a.substr(eq + 1))) return e;
    } else if (takes_value(a)) {
      if (i + 1 >= args.size()) return "flag needs an argument: " + a;
      if (auto e = take(h, a, args[++i])) return e;
    } else if (a.size() > 2 && a[0] == '-' && a[1] != '-' && takes_value(a.substr(0, 2))) {
      if (auto e = take(h, a.substr(0, 2), a.substr(2))) return e;
    } else if (!a.empty() && a[0] == '-') {
      return "unknown flag: " + a +
             " (sbreview render helm takes the flags of helm template "
             "that change what is rendered)";
    } else {
      h.positional.push_back(a);
    }
  }
  if (h.positional.empty()) return "\"helm template\" requires at least 1 argument";
  if (h.positional.size() > 2)
    return "expected at most two arguments, unexpected arguments: " + h.positional[2];
  if (h.positional.size() == 2 && !h.req.name_template.empty())
    return "cannot set --name-template and also specify a name";
  if (h.positional.size() == 2) h.req.release_name = h.positional[0];
  return std::nullopt;
}

// The chart directory among the walked files: the render root nearest the top.
std::string chart_dir(const SourceSet& sources) {
  std::vector<std::string> roots = render::helm::find_chart_roots(sources);
  std::string best;
  bool found = false;
  for (const std::string& r : roots) {
    if (!found || r.size() < best.size()) best = r;
    found = true;
  }
  return found ? best : std::string("\x01");
}

// A packaged chart given as CHART (`helm package`'s .tgz): its files, unpacked in memory.
bool unpack_chart(const SourceSet& walked, FileTable& files, SourceSet& out, std::string& dir,
                  std::string& error) {
  if (walked.files.size() != 1 || !walked.files[0].path.ends_with(".tgz")) return false;
  std::vector<std::pair<std::string, std::string>> members;
  if (!render::helm::unpack_tgz(walked.files[0].bytes, {}, members, error)) return true;
  dir = walked.files[0].path;
  std::sort(members.begin(), members.end());
  for (auto& [path, bytes] : members) {
    SourceFile f;
    f.path = dir + "/" + path;
    f.id = files.add(f.path);
    f.bytes = std::move(bytes);
    f.readable = true;
    f.type = FileType::Yaml;
    out.files.push_back(std::move(f));
  }
  return true;
}

}  // namespace

int run_render_helm(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  HelmArgs h;
  if (auto e = parse(args, h)) {
    err << "sbreview render helm: " << *e << "\n";
    return 2;
  }
  h.req.options.switches = false;
  FileTable files;
  SourceSet sources = walk_sources({h.positional.back()}, WalkOptions{}, files);
  h.req.chart_dir = chart_dir(sources);
  SourceSet packaged;
  std::string error;
  if (h.req.chart_dir == "\x01" && unpack_chart(sources, files, packaged, h.req.chart_dir, error)) {
    if (!error.empty()) {
      err << "Error: " << h.positional.back() << ": " << report::one_line_safe(error) << "\n";
      return 1;
    }
    // Values files of the command line are read from disk (they are not in the archive).
    sources = std::move(packaged);
  }
  if (h.req.chart_dir == "\x01") {
    err << "Error: " << h.positional.back() << ": no Chart.yaml found\n";
    return 1;
  }
  h.req.options.virtual_base = static_cast<FileId>(files.paths.size());
  render::helm::TemplateResult r = render::helm::helm_template(sources, h.req);
  for (const std::string& p : r.virtual_files) files.add(p);
  out << r.out;
  if (r.error.empty()) return 0;
  for (const Problem& p : r.problems) {
    err << report::one_line_safe(files.path(p.at.file)) << ':' << p.at.line << ':' << p.at.column
        << ": " << report::one_line_safe(p.message) << '\n';
  }
  err << "Error: " << report::one_line_safe(r.error) << '\n';
  return 1;
}

}  // namespace sbr
