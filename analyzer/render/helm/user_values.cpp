// The values a chart is rendered with, as Helm's MergeValues then CoalesceValues build them:
// the user's map (values files merged in order, then --set, --set-string and --set-file pairs
// applied to it), coalesced over the chart's defaults. The configuration's entries for a
// chart are one layer of the user's map, the command line's the next one, so the command line
// wins.
#include "analyzer/render/helm/user_values.h"

#include <fmt/format.h>

#include <fstream>
#include <sstream>

#include "analyzer/render/helm/funcs.h"
#include "analyzer/render/helm/semver.h"
#include "analyzer/support/strings.h"

namespace sbr::render::helm {

namespace {

struct Layer {
  const std::vector<std::string>* values = nullptr;
  const std::vector<std::string>* set = nullptr;
  const std::vector<std::string>* set_string = nullptr;
  const std::vector<std::string>* set_file = nullptr;
  bool tree_only = false;  // configuration paths name files of the analysed tree
  std::string origin;      // for messages: "--helm-values" or ".sbreview.yaml"
};

const SourceFile* find_file(const SourceSet& sources, std::string path) {
  while (path.rfind("./", 0) == 0) path = path.substr(2);
  for (const SourceFile& f : sources.files) {
    if (f.path == path) return &f;
  }
  return nullptr;
}

// A file named by the user: from the analysed tree when it is there (findings can point into
// it, and it is consumed), else from disk for the command line.
bool read_input(const SourceSet& sources, const std::string& path, bool tree_only,
                std::string& bytes, FileId& file, std::vector<FileId>& consumed) {
  if (const SourceFile* f = find_file(sources, path)) {
    consumed.push_back(f->id);
    bytes = f->bytes;
    file = f->id;
    return true;
  }
  if (tree_only) return false;
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::stringstream buf;
  buf << in.rdbuf();
  bytes = buf.str();
  file = kNoFile;
  return true;
}

struct Builder {
  const SourceSet& sources;
  const Chart& chart;
  RenderOutput& out;
  Value user = Value::new_map();

  bool fail(const std::string& what, Location at) {
    if (!at.valid()) at = Location{chart.chart_file->id, 1, 1};
    out.problems.push_back({ProblemKind::RenderFailed,
                            fmt::format("chart {} is not rendered: {}", chart.name, what), at,
                            Cause::Repository});
    return false;
  }

  bool values_file(const Layer& l, const std::string& path, Location at) {
    std::string bytes, error;
    FileId file = kNoFile;
    if (!read_input(sources, path, l.tree_only, bytes, file, out.consumed))
      return fail(
          fmt::format("values file {} cannot be read; fix or drop it from {}", path, l.origin), at);
    Value v;
    if (!parse_yaml_value(bytes, file, "", v, error) || !(v.is_map() || v.is_nil()))
      return fail(fmt::format("values file {} ({}); fix or drop it from {}", path,
                              error.empty() ? "not a mapping" : error, l.origin),
                  at);
    if (v.is_map()) merge_maps(user, v);
    return true;
  }

  bool set_file(const Layer& l, const std::string& arg, Location at) {
    // KEY=FILE[,KEY=FILE]: each value is the file's text, a string.
    for (const std::string& pair : split(arg, ',')) {
      auto eq = pair.find('=');
      if (eq == std::string::npos || eq == 0)
        return fail(fmt::format("{} {}: expected KEY=FILE", l.origin, pair), at);
      std::string bytes;
      FileId file = kNoFile;
      std::string path = pair.substr(eq + 1);
      if (!read_input(sources, path, l.tree_only, bytes, file, out.consumed))
        return fail(fmt::format("--set-file {}: {} cannot be read", pair, path), at);
      Value v = Value::string(bytes);
      v.path = pair.substr(0, eq);
      if (file != kNoFile) v.from = Location{file, 1, 1};
      if (!set_path(user, pair.substr(0, eq), v))
        return fail(fmt::format("--set-file {}: bad key", pair), at);
    }
    return true;
  }

  bool layer(const Layer& l, Location at) {
    for (const std::string& f : *l.values) {
      if (!values_file(l, f, at)) return false;
    }
    for (const auto* sets : {l.set, l.set_string}) {
      for (const std::string& s : *sets) {
        std::string error;
        if (!apply_set(user, s, sets == l.set_string, error)) return fail(error, at);
      }
    }
    for (const std::string& s : *l.set_file) {
      if (!set_file(l, s, at)) return false;
    }
    return true;
  }
};

bool matches(const ChartValues& c, const std::string& dir) {
  std::string want = c.path;
  while (want.rfind("./", 0) == 0) want = want.substr(2);
  while (!want.empty() && want.back() == '/') want.pop_back();
  if (want == "." || want.empty()) return dir.empty();
  return want == dir || sbr::glob_match(want, dir);
}

}  // namespace

void merge_maps(Value& base, const Value& over, int depth) {
  if (depth > 100 || !base.is_map() || !over.is_map()) return;
  for (const auto& [key, v] : *over.map) {
    auto mine = base.map->find(key);
    if (mine != base.map->end() && mine->second.is_map() && v.is_map()) {
      merge_maps(mine->second, v, depth + 1);
    } else {
      (*base.map)[key] = deep_copy(v);
    }
  }
}

bool user_values(const SourceSet& sources, const RenderOptions& options, const Chart& chart,
                 Value& out, RenderOutput& rendered) {
  Builder b{sources, chart, rendered};
  for (const ChartValues& c : options.charts) {
    if (!matches(c, chart.dir)) continue;
    if (!b.layer({&c.values, &c.set, &c.set_string, &c.set_file, true, ".sbreview.yaml"}, c.at))
      return false;
  }
  if (!b.layer({&options.helm_values, &options.helm_set, &options.helm_set_string,
                &options.helm_set_file, false, "the command line"},
               {}))
    return false;
  out = b.user;
  coalesce_values(out, chart.values);
  return true;
}

bool release_settings(const RenderOptions& options, ReleaseSettings& r, std::string& error) {
  if (!options.kube_version.empty()) {
    std::string v;
    if (!semver_normalize(options.kube_version, v)) {
      error = fmt::format("invalid kube version '{}'", options.kube_version);
      return false;
    }
    r.kube_version = "v" + v;
  }
  for (const std::string& a : options.api_versions) {
    for (const std::string& one : split(a, ',')) {
      if (!one.empty()) r.api_versions.push_back(one);
    }
  }
  return true;
}

}  // namespace sbr::render::helm
