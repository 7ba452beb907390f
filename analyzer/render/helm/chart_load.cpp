#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>

#include "analyzer/render/helm/archive.h"
#include "analyzer/render/helm/chart.h"
#include "analyzer/render/helm/funcs.h"
#include "analyzer/render/helm/helmignore.h"
#include "analyzer/render/helm/local_dependency.h"
#include "analyzer/support/strings.h"

namespace sbr::render::helm {

namespace {

constexpr int kMaxSubchartDepth = 10;

std::string parent_dir(const std::string& path) {
  auto slash = path.rfind('/');
  return slash == std::string::npos ? "" : path.substr(0, slash);
}

std::string join(const std::string& dir, const std::string& name) {
  return dir.empty() ? name : dir + "/" + name;
}

// The path of `file` below `dir`, or "" when it is not below.
std::string below(const std::string& file, const std::string& dir) {
  if (dir.empty()) return file;
  if (file.size() <= dir.size() + 1 || file.compare(0, dir.size(), dir) != 0 ||
      file[dir.size()] != '/')
    return "";
  return file.substr(dir.size() + 1);
}

// Chart.yaml keys as Helm's .Chart fields ("appVersion" → AppVersion, "apiVersion" → APIVersion).
std::string field_name(const std::string& key) {
  if (key == "apiVersion") return "APIVersion";
  std::string out = key;
  if (!out.empty()) out[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(out[0])));
  return out;
}

const Value* get(const Value& m, const std::string& key) {
  if (!m.is_map()) return nullptr;
  auto f = m.map->find(key);
  return f == m.map->end() ? nullptr : &f->second;
}

std::string get_text(const Value& m, const std::string& key) {
  const Value* v = get(m, key);
  return v ? print_value(*v) : "";
}

void read_dependencies(const Value& deps, Chart& chart) {
  if (!deps.is_list()) return;
  for (const Value& d : *deps.list) {
    Dependency dep{get_text(d, "name"),
                   get_text(d, "alias"),
                   get_text(d, "condition"),
                   get_text(d, "version"),
                   get_text(d, "repository"),
                   {},
                   d.from,
                   {}};
    if (const Value* tags = get(d, "tags"); tags && tags->is_list()) {
      for (const Value& t : *tags->list) dep.tags.push_back(print_value(t));
    }
    if (const Value* iv = get(d, "import-values"); iv && iv->is_list()) {
      for (const Value& i : *iv->list) {
        if (i.is_string()) dep.imports.emplace_back("exports." + i.s, ".");
        if (i.is_map()) dep.imports.emplace_back(get_text(i, "child"), get_text(i, "parent"));
      }
    }
    if (!dep.name.empty()) chart.dependencies.push_back(std::move(dep));
  }
}

bool read_chart_yaml(const SourceFile& f, Chart& chart) {
  Value meta;
  std::string error;
  if (!parse_yaml_value(f.bytes, f.id, "", meta, error) || !meta.is_map()) {
    chart.notes.push_back({ProblemKind::RenderFailed,
                           fmt::format("Chart.yaml of {} does not parse ({}); the chart is not "
                                       "rendered: fix its YAML",
                                       chart.dir.empty() ? "the chart" : chart.dir,
                                       error.empty() ? "not a mapping" : error),
                           Location{f.id, 1, 1}, Cause::Repository});
    return false;
  }
  chart.name = get_text(meta, "name");
  chart.type = get_text(meta, "type");
  if (chart.type.empty()) chart.type = "application";
  Map fields;
  for (const auto& e : *meta.map) fields[field_name(e.first)] = e.second;
  for (const char* k : {"Name", "Version", "AppVersion", "Description", "Type", "APIVersion",
                        "KubeVersion", "Home", "Icon"}) {
    if (!fields.count(k)) fields[k] = Value::string(k == std::string("Type") ? chart.type : "");
  }
  chart.metadata = Value::new_map(std::move(fields));
  if (const Value* deps = get(meta, "dependencies")) read_dependencies(*deps, chart);
  return true;
}

// requirements.yaml, apiVersion v1's place for dependencies: helm's loader reads it into the
// chart's metadata whatever the apiVersion (only warning on v2), so its `dependencies` replace
// Chart.yaml's. False when it does not parse: helm refuses the chart.
bool read_requirements(const SourceSet& sources, Chart& chart) {
  for (const SourceFile& f : sources.files) {
    if (f.path != join(chart.dir, "requirements.yaml")) continue;
    Value doc;
    std::string error;
    if (!parse_yaml_value(f.bytes, f.id, "", doc, error) || !(doc.is_map() || doc.is_nil())) {
      chart.notes.push_back({ProblemKind::RenderFailed,
                             fmt::format("requirements.yaml of chart {} does not parse ({}); "
                                         "helm refuses the chart too: fix its YAML",
                                         chart.name, error.empty() ? "not a mapping" : error),
                             Location{f.id, 1, 1}, Cause::Repository});
      return false;
    }
    if (const Value* deps = get(doc, "dependencies")) {
      chart.dependencies.clear();
      read_dependencies(*deps, chart);
    }
  }
  return true;
}

void collect_files(const SourceSet& sources, Chart& chart) {
  const std::string sub = join(chart.dir, "charts") + "/";
  HelmIgnore ignore;
  for (const SourceFile& f : sources.files) {
    if (f.path == join(chart.dir, ".helmignore")) ignore = HelmIgnore(f.bytes);
  }
  for (const SourceFile& f : sources.files) {
    std::string rel = below(f.path, chart.dir);
    if (rel.empty() || rel.rfind("charts/", 0) == 0) continue;
    if (rel == "Chart.yaml") continue;  // consumed by load_chart
    if (ignore.ignored(rel)) {
      // Not part of the chart for helm: never installed. A template's text is still not YAML
      // to read raw.
      if (rel.rfind("templates/", 0) == 0 || rel.rfind("crds/", 0) == 0)
        chart.consumed.push_back(f.id);
      continue;
    }
    bool chart_file = rel == "values.yaml" || rel == "values.schema.json" ||
                      rel == "requirements.yaml" || rel == "requirements.lock" ||
                      rel == "Chart.lock";
    if (rel.rfind("templates/", 0) == 0) {
      chart.consumed.push_back(f.id);
      if (base_name(rel) != "NOTES.txt") chart.templates.push_back(&f);
    } else if (rel.rfind("crds/", 0) == 0) {
      chart.consumed.push_back(f.id);
      chart.crds.push_back(&f);
    } else if (chart_file) {
      chart.consumed.push_back(f.id);
      if (rel == "values.schema.json") chart.schema_file = &f;
    } else if (rel != ".helmignore") {
      chart.files.emplace_back(rel, f.bytes);
    }
  }
}

// Subchart directories: charts/NAME/Chart.yaml.
std::vector<std::string> find_chart_roots_below(const SourceSet& sources,
                                                const std::string& charts) {
  std::vector<std::string> out;
  for (const SourceFile& f : sources.files) {
    std::string rel = below(f.path, charts);
    auto slash = rel.find('/');
    if (slash != std::string::npos && rel.substr(slash + 1) == "Chart.yaml")
      out.push_back(join(charts, rel.substr(0, slash)));
  }
  return out;
}

// A dependency of Chart.yaml that no subchart provides: the parent still renders, a template
// that needs the missing chart fails alone.
void note_missing(Chart& chart, const std::vector<std::string>& vendored) {
  for (const Dependency& d : chart.dependencies) {
    if (std::find(vendored.begin(), vendored.end(), d.name) != vendored.end()) continue;
    chart.missing_dependencies.push_back(d.name);
    Location at = d.at.valid() ? d.at : Location{chart.chart_file->id, 1, 1};
    chart.notes.push_back(
        {ProblemKind::RenderFailed,
         fmt::format("dependency \"{}\" of chart {} is not vendored in charts/ "
                     "(nothing is downloaded): its templates are not analysed; "
                     "run `helm dependency build` and commit charts/{}/ to have it checked",
                     d.name, chart.name, d.name),
         at, Cause::Environment});
  }
}

// charts/NAME.tgz: unpacked in memory into a source set of its own whose paths are the
// archive's path and the member's ("deploy/agent/charts/redis-17.tgz/templates/x.yaml").
std::shared_ptr<SourceSet> unpack_archive(const SourceFile& f, VirtualFiles* vf, Chart& chart) {
  std::vector<std::pair<std::string, std::string>> members;
  std::string error;
  if (!unpack_tgz(f.bytes, ArchiveLimits{}, members, error)) {
    chart.notes.push_back({ProblemKind::RenderFailed,
                           fmt::format("subchart archive {} cannot be read ({}): its templates "
                                       "are not analysed; vendor it as a directory (helm pull "
                                       "--untar) or replace the archive",
                                       base_name(f.path), error),
                           Location{f.id, 1, 1}, Cause::Repository});
    return nullptr;
  }
  auto set = std::make_shared<SourceSet>();
  std::sort(members.begin(), members.end());
  for (auto& [path, bytes] : members) {
    SourceFile m;
    m.path = f.path + "/" + path;
    m.id = vf ? vf->add(m.path, f.id) : f.id;
    m.bytes = std::move(bytes);
    m.readable = true;
    m.type = FileType::Yaml;
    set->files.push_back(std::move(m));
  }
  return set;
}

// Dependencies that are not vendored but that the repository holds (local_dependency.h): loaded
// as subcharts from there, each with a note that says which chart stood in.
template <typename Adopt>
void stand_in_dependencies(const SourceSet& sources, Chart& chart, int depth, VirtualFiles* vf,
                           const std::vector<std::string>& vendored, Adopt&& adopt) {
  for (const Dependency& d : chart.dependencies) {
    if (std::find(vendored.begin(), vendored.end(), d.name) != vendored.end()) continue;
    LocalDependency local = local_dependency(sources, chart, d);
    if (local.dir.empty()) continue;
    Chart child;
    if (!load_chart(sources, local.dir, child, depth + 1, vf)) continue;
    // A registry dependency stands in only as a library (defines, nothing rendered): an
    // application chart of the repository is analysed on its own, and rendering it again
    // inside every parent that depends on it doubles the work for what is already reported.
    if (!local.file_repository && child.type != "library") continue;
    Location at = d.at.valid() ? d.at : Location{chart.chart_file->id, 1, 1};
    chart.notes.push_back(
        {ProblemKind::SourceUnresolved,
         local.file_repository
             ? fmt::format("dependency \"{}\" of chart {} is not vendored in charts/: rendered "
                           "with {}, where its `repository: {}` points (`helm dependency build` "
                           "copies it from there)",
                           d.name, chart.name, local.dir, d.repository)
             : fmt::format("dependency \"{}\" of chart {} is not vendored in charts/: rendered "
                           "with the repository's own chart {} (version {}, which meets {}); the "
                           "chart helm downloads from {} may differ",
                           d.name, chart.name, local.dir, local.version,
                           d.version.empty() ? "any version" : d.version,
                           d.repository.empty() ? "its repository" : d.repository),
         at, Cause::Environment});
    adopt(true, child);
  }
}

void load_subcharts(const SourceSet& sources, Chart& chart, int depth, VirtualFiles* vf) {
  std::vector<std::string> vendored;
  auto adopt = [&](bool loaded, Chart& child) {
    chart.notes.insert(chart.notes.end(), child.notes.begin(), child.notes.end());
    child.notes.clear();
    chart.consumed.insert(chart.consumed.end(), child.consumed.begin(), child.consumed.end());
    if (!loaded) return;
    vendored.push_back(child.name);
    chart.subcharts.push_back(std::move(child));
  };
  const std::string charts = join(chart.dir, "charts");
  for (const std::string& sub : find_chart_roots_below(sources, charts)) {
    Chart child;
    bool loaded = load_chart(sources, sub, child, depth + 1, vf);
    adopt(loaded, child);
  }
  for (const SourceFile& f : sources.files) {
    std::string rel = below(f.path, charts);
    if (rel.empty() || rel.find('/') != std::string::npos) continue;
    if (!(rel.ends_with(".tgz") || rel.ends_with(".tar.gz"))) continue;
    chart.consumed.push_back(f.id);
    std::shared_ptr<SourceSet> set = unpack_archive(f, vf, chart);
    if (!set) {
      for (const Dependency& d : chart.dependencies) {
        if (rel.rfind(d.name + "-", 0) == 0) vendored.push_back(d.name);  // one note for it
      }
      continue;
    }
    Chart child;
    bool loaded = load_chart(*set, f.path, child, depth + 1, vf);
    child.archives.push_back(set);
    adopt(loaded, child);
  }
  stand_in_dependencies(sources, chart, depth, vf, vendored, adopt);
  note_missing(chart, vendored);
}

// A chart that cannot be read is still never read raw: its templates are not YAML.
bool consume_all(const SourceSet& sources, Chart& chart) {
  for (const SourceFile& f : sources.files) {
    if (!below(f.path, chart.dir).empty()) chart.consumed.push_back(f.id);
  }
  return false;
}

}  // namespace

namespace {

constexpr std::array<std::string_view, 5> kGeneratedChartFiles = {
    "Chart-template.yaml", "Chart.yaml.tmpl", "Chart.tmpl.yaml", "Chart.yaml.in",
    "Chart.yaml.template"};

const SourceFile* find_path(const SourceSet& sources, const std::string& path) {
  auto it = std::find_if(sources.files.begin(), sources.files.end(),
                         [&](const SourceFile& f) { return f.path == path; });
  return it != sources.files.end() && it->readable ? &*it : nullptr;
}

}  // namespace

const SourceFile* chart_file(const SourceSet& sources, const std::string& dir, bool* generated) {
  if (generated != nullptr) *generated = false;
  if (const SourceFile* f = find_path(sources, join(dir, "Chart.yaml"))) return f;
  for (std::string_view name : kGeneratedChartFiles) {
    if (const SourceFile* f = find_path(sources, join(dir, std::string(name)))) {
      if (generated != nullptr) *generated = true;
      return f;
    }
  }
  return nullptr;
}

std::vector<std::string> find_chart_roots(const SourceSet& sources) {
  std::vector<std::string> dirs;
  for (const SourceFile& f : sources.files) {
    const std::string name = base_name(f.path);
    const bool generated = std::find(kGeneratedChartFiles.begin(), kGeneratedChartFiles.end(),
                                     name) != kGeneratedChartFiles.end();
    if (name != "Chart.yaml" && !generated) continue;
    // A template beside a committed Chart.yaml is the chart's once.
    if (generated && find_path(sources, join(parent_dir(f.path), "Chart.yaml")) != nullptr)
      continue;
    dirs.push_back(parent_dir(f.path));
  }
  std::vector<std::string> roots;
  for (const std::string& d : dirs) {
    // A subchart lives in another chart's charts/ (at any depth below it).
    bool sub = std::any_of(dirs.begin(), dirs.end(), [&](const std::string& other) {
      std::string rel = below(d, other);
      return !rel.empty() &&
             (rel.rfind("charts/", 0) == 0 || rel.find("/charts/") != std::string::npos);
    });
    if (!sub) roots.push_back(d);
  }
  std::sort(roots.begin(), roots.end());
  return roots;
}

bool load_chart(const SourceSet& sources, const std::string& dir, Chart& chart, int depth,
                VirtualFiles* virtual_files) {
  chart.dir = dir;
  bool generated = false;
  chart.chart_file = chart_file(sources, dir, &generated);
  if (!chart.chart_file) return false;
  chart.consumed.push_back(chart.chart_file->id);
  if (!read_chart_yaml(*chart.chart_file, chart)) return consume_all(sources, chart);
  if (generated) {
    chart.notes.push_back(
        {ProblemKind::SourceUnresolved,
         fmt::format("chart {} has no Chart.yaml: the build generates it from {}, which is read "
                     "in its place (a `${{VAR}}` in it stays as written)",
                     chart.name, base_name(chart.chart_file->path)),
         Location{chart.chart_file->id, 1, 1}, Cause::Environment});
  }
  if (!read_requirements(sources, chart)) return consume_all(sources, chart);
  for (const SourceFile& f : sources.files) {
    if (f.path != join(dir, "values.yaml")) continue;
    chart.values_file = f.id;
    std::string error;
    bool budget_hit = false;
    if (!parse_yaml_value(f.bytes, f.id, "", chart.values, error, false, &budget_hit)) {
      chart.notes.push_back(
          {ProblemKind::RenderFailed,
           budget_hit ? fmt::format("values.yaml of chart {} is not read: {}; the chart is not "
                                    "rendered",
                                    chart.name, error)
                      : fmt::format("values.yaml of chart {} does not parse ({}); the chart is "
                                    "not rendered: fix its YAML",
                                    chart.name, error),
           Location{f.id, 1, 1}, budget_hit ? Cause::Analyzer : Cause::Repository});
      return consume_all(sources, chart);
    }
  }
  if (!chart.values.is_map()) {
    Location at = chart.values.from;
    chart.values = Value::new_map();
    chart.values.from = at;
  }
  collect_files(sources, chart);
  if (depth < kMaxSubchartDepth) load_subcharts(sources, chart, depth, virtual_files);
  return true;
}

}  // namespace sbr::render::helm
