// A chart as `helm template` sees it: Chart.yaml, values.yaml, templates, subcharts in
// charts/, read from the analysed tree (nothing is downloaded or unpacked).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "analyzer/render/helm/value.h"
#include "analyzer/source/source.h"

namespace sbr::render::helm {

struct Dependency {
  std::string name, alias, condition;
  std::string version, repository;  // the constraint and where helm would fetch it from
  std::vector<std::string> tags;
  Location at;  // its entry in Chart.yaml
  // import-values as (child path, parent path): `- data` is ("exports.data", "."), a
  // `{child, parent}` map is itself.
  std::vector<std::pair<std::string, std::string>> imports;
};

// Ids for the members of packaged subcharts: after the run's file table when the caller
// keeps one (`paths` then receives their paths), else the archive's own id.
struct VirtualFiles {
  FileId base = kNoFile;
  std::vector<std::string>* paths = nullptr;
  FileId add(const std::string& path, FileId archive) {
    if (base == kNoFile || paths == nullptr) return archive;
    paths->push_back(path);
    return base + static_cast<FileId>(paths->size() - 1);
  }
};

struct Chart {
  std::string dir;   // path of the chart directory in the tree ("deploy/agent")
  std::string name;  // Chart.yaml name (a subchart: its alias when it has one)
  std::string type;  // "application" or "library"
  const SourceFile* chart_file = nullptr;
  FileId values_file = kNoFile;             // its values.yaml
  const SourceFile* schema_file = nullptr;  // its values.schema.json
  Value metadata;                           // .Chart
  Value values;                             // values.yaml, each value with its values-file location
  std::vector<const SourceFile*> templates;  // templates/**, partials included, NOTES.txt not
  std::vector<const SourceFile*> crds;       // crds/**
  std::vector<std::pair<std::string, std::string>> files;  // .Files: path in chart, bytes
  std::vector<Dependency> dependencies;
  std::vector<Chart> subcharts;
  std::vector<FileId> consumed;  // every chart file read through the render
  // Packaged subcharts unpacked in memory: their files, which `templates` and `crds` point into.
  std::vector<std::shared_ptr<const SourceSet>> archives;
  std::vector<Problem> notes;  // a packaged or missing subchart, a bad Chart.yaml
  // Dependencies of Chart.yaml that no subchart provides (not vendored): a template that
  // includes a define nobody has probably needs one of them.
  std::vector<std::string> missing_dependencies;
  bool enabled = true;  // a dependency's condition or tags
};

// Chart directories of `sources` that are no other chart's subchart, sorted.
std::vector<std::string> find_chart_roots(const SourceSet& sources);

// The chart file of `dir`: its Chart.yaml, or when the build generates that (kagent's
// `envsubst < Chart-template.yaml > Chart.yaml`), the template it is made from
// (`Chart-template.yaml`, `Chart.yaml.tmpl`, `Chart.tmpl.yaml`, `Chart.yaml.in`,
// `Chart.yaml.template`); `generated` says which. nullptr when there is neither.
const SourceFile* chart_file(const SourceSet& sources, const std::string& dir,
                             bool* generated = nullptr);

// Reads the chart at `dir` (and its subcharts, depth-bounded). False with a problem in
// `chart.notes` when its Chart.yaml or values.yaml cannot be read.
bool load_chart(const SourceSet& sources, const std::string& dir, Chart& chart, int depth = 0,
                VirtualFiles* virtual_files = nullptr);

// Helm's value coalescing: `over` wins, maps merge, a null in `over` removes the key.
void coalesce_values(Value& over, const Value& defaults, int depth = 0);
// The value at a dotted key path ("debug.enabled", "a.list[0].b"), or nullptr.
const Value* find_path(const Value& root, const std::string& path);
// Sets the value at a dotted key path, making maps and lists on the way.
bool set_path(Value& root, const std::string& path, const Value& v);
// Applies one `--set` argument ("a.b[0].c=x,d=y", escaped commas) to `values`.
bool apply_set(Value& values, const std::string& arg, bool as_string, std::string& error);
// Helm's processImportValues, subcharts first: each dependency's import-values copied from the
// child's values into the parent's defaults, below what the parent's values.yaml says.
void import_values(Chart& chart, int depth = 0);
// Each subchart's values: its defaults under the parent's `values[alias]`, `global` copied
// down; disables dependencies whose condition or tags say so.
void scope_subcharts(Chart& chart, const Value& values, const Value& top, int depth = 0);

}  // namespace sbr::render::helm
