// Internals of the Kustomize renderer: the kustomization files of a tree as data, the render
// roots among them, the isolated run of the external tool and the map from its output back to
// base and patch lines. Nothing outside analyzer/render/kustomize and its tests includes this.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/render/render_roots.h"
#include "analyzer/render/sealed_run.h"

namespace sbr::render::kz {

// A reference written in a kustomization (a `resources:` entry, a patch path), where it is.
struct Entry {
  std::string value;
  std::uint32_t line = 0, column = 0;
};

// Which objects a patch applies to; an empty field matches any.
struct Target {
  std::string kind, name;
};

enum class PatchForm : std::uint8_t { StrategicMerge, Json6902, Unknown };

struct Patch {
  PatchForm form = PatchForm::Unknown;  // Unknown: decided by the text (a list is JSON 6902)
  FileId file = kNoFile;                // the patch file, or the kustomization (inline patch)
  std::string text;                     // the patch's YAML
  std::uint32_t line_offset = 0;        // text line 1 is file line 1 + line_offset
  std::uint32_t column_offset = 0;      // columns of an inline patch are indented by this
  std::optional<Target> target;         // absent: the patch's own kind and name
  std::string note;                     // what a person calls it: the file, or "inline patch"
};

// A `helmCharts:` entry whose chart is vendored in the tree: rendered by sbreview's chart
// engine and given to kustomize as one more resource (never `--enable-helm`).
struct HelmChartUse {
  std::size_t index = 0;  // its position under helmCharts (valuesInline is read from there)
  std::string name;
  std::string chart_dir;  // tree path of the chart's directory
  std::string release_name, ns;
  std::vector<std::string> values_files;  // tree paths: valuesFile, then additionalValuesFiles
  bool values_file = false;               // the first of values_files is valuesFile
  std::string values_merge;               // override (default), merge or replace
  bool include_crds = false, skip_tests = false;
  std::string kube_version;
  std::vector<std::string> api_versions;
  Location at;  // the entry
};

// A transformer that writes a field in place (`replicas:`, `replacements:` targets): objects
// of `kind` (any when empty) whose name contains `name`, at a field path in kustomize's
// notation ("spec.template.spec.containers.[name=agent].image").
struct FieldSetter {
  std::string kind, name;
  std::vector<std::string> field_path;  // split at dots outside brackets
  Location at;                          // the entry that sets it
  std::string note;                     // "replicas: in overlays/x/kustomization.yaml"
};

// One kustomization file, read without running anything.
struct Kustomization {
  FileId file = kNoFile;
  std::string path;               // its file's path in the tree
  std::string dir;                // its directory in the tree ("" at the top)
  bool component = false;         // kind: Component (rendered only through its users)
  std::vector<FileId> uses;       // kustomizations it builds on (resources, bases, components)
  std::vector<FileId> reads;      // the other files it reads: resources, patches, generators
  std::vector<Patch> patches;     // in the order kustomize applies them
  std::vector<Problem> refusals;  // what keeps it from being rendered safely, at its line
  // Transformers that rewrite a field in place: where the overlay sets it.
  std::optional<Location> namespace_at;                       // `namespace:`'s value
  std::vector<std::pair<std::string, Location>> image_names;  // `images:` entry name, its line
  std::vector<HelmChartUse> helm_charts;
  std::vector<FieldSetter> field_setters;
};

// "a.b.[name=x].c" as kustomize splits a field path.
std::vector<std::string> split_field_path(const std::string& path);

// Chart directories that kustomizations inflate (`helmCharts:`): rendered through those
// kustomizations only, never as Helm render roots of their own.
std::vector<std::string> inflated_chart_dirs(const std::map<FileId, Kustomization>& all);

// Every kustomization of `sources`, by the FileId of its file.
std::map<FileId, Kustomization> read_kustomizations(const SourceSet& sources);

// The kustomizations rendered on their own: those no other kustomization of the tree uses, and
// components aside. A cycle with no entry point is broken at its first file (kustomize then
// reports the cycle as the render failure).
std::vector<FileId> render_root_files(const std::map<FileId, Kustomization>& all);

// The kustomizations a root builds on, itself last, bases before their users (depth-bounded).
std::vector<FileId> chain_of(const std::map<FileId, Kustomization>& all, FileId root);

// A normalised tree path of `rel` written in directory `dir`; nullopt when it leaves the tree.
std::optional<std::string> resolve_in_tree(const std::string& dir, const std::string& rel);

// Whether a resources/bases entry names something remote (a URL, a git or GitHub reference).
bool is_remote_reference(const std::string& value);

// ---- The run ----------------------------------------------------------------------------------

// The run: a sealed child (analyzer/render/sealed_run.h).
using render::network_namespace_available;
using render::run_isolated;
using render::RunLimits;
using render::RunResult;

// The installed renderer: kubectl (kustomize embedded) or kustomize, found on PATH.
struct Tool {
  std::string path;               // absolute; empty when none is installed
  std::vector<std::string> verb;  // {"kustomize"} for kubectl, {"build"} for kustomize
  std::string version;            // "v5.5.0"; empty when it could not be read
  bool recent_enough = false;     // at least kMinimumVersion
};
inline constexpr const char* kMinimumVersion = "v5.0.0";

// Finds and versions the tool once per process; an explicit path (tests) skips PATH.
Tool find_tool();
// "v5.5.0" >= "v5.0.0"; false when either does not parse.
bool version_at_least(const std::string& version, const std::string& minimum);

// kustomize's first error line, with the private directory's path taken out.
std::string first_error_line(const std::string& err, const std::string& export_dir);

// render_kustomizations with a given tool (tests: absent, too old, one that hangs); nullptr
// finds the installed one, only when a root is to be run.
void render_with_tool(const SourceSet& sources, const RenderOptions& options, const Tool* tool,
                      RenderOutput& out);

// A kustomization's text with `buildMetadata: [originAnnotations]` (replacing its own
// buildMetadata), for the private copy only.
std::string with_origin_annotations(const std::string& text);

// A kustomization's text without `helmCharts:` and `helmGlobals:` (block style) and with
// `files` (the charts sbreview rendered, paths relative to it) added to its resources.
std::string with_generated_resources(const std::string& text,
                                     const std::vector<std::string>& files);

// ---- The map ----------------------------------------------------------------------------------

// kustomize's output with the origin annotations (and an `annotations:` left empty) removed;
// `origins` gets each document's origin path, in order ("" when it had none).
std::string strip_origins(const std::string& text, std::vector<std::string>& origins);

// The source map of stripped output: every key and scalar at its base-file line, or at the
// line of the patch that set it (role Patched, the patch's name as note).
// A chart a kustomization inflates, rendered by sbreview into a resource of the private copy:
// its text and map, by its tree path, and the kustomization that declares it.
struct GeneratedResource {
  FileId kustomization = kNoFile;
  std::string text;
  const SourceMap* map = nullptr;  // of `text`: template and values lines
};
using GeneratedResources = std::map<std::string, GeneratedResource>;

SourceMap map_rendered(const std::string& stripped, const std::vector<std::string>& origins,
                       const SourceSet& sources, const std::map<FileId, Kustomization>& all,
                       FileId root, const GeneratedResources& generated = {});

}  // namespace sbr::render::kz
