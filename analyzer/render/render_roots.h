// Render roots: Helm charts and Kustomize overlays, rendered into the YAML a cluster would
// receive. Every span of the output keeps the place a person edits (a template or patch line,
// the values line that fed it), so findings on rendered objects point there, never at text
// that exists only in memory.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analyzer/model/model.h"
#include "analyzer/source/source.h"

namespace sbr::render {

// Where one span of rendered output came from.
struct Origin {
  Location at;       // what produced the text: a template line (Helm), a base or patch line
  Location values;   // the values-file line that fed it, or invalid
  std::string note;  // the values key ("securityContext.privileged") or the patch's name
  StepRole role = StepRole::Template;  // Template (Helm, Kustomize base) or Patched
};

// The spans of one rendered stream in output order: a segment starts at (line, column) of the
// output and runs to the next segment.
struct SourceMap {
  struct Segment {
    std::uint32_t line = 0, column = 0;
    Origin origin;
  };
  std::vector<Segment> segments;  // sorted by (line, column)
  Origin fallback;                // before the first segment: the chart's or overlay's root file

  // The origin of the output position (line, column), 1-based.
  const Origin& find(std::uint32_t line, std::uint32_t column) const;
};

// A branch that a template guard (`{{ if }}`, `{{ with }}`) left out: the YAML keys its text
// would have written into the mapping around output line `line`, so that a field absent for
// that reason is reported at the guard, with the values key that decided it as related.
struct Omission {
  std::uint32_t line = 0;    // output line (1-based) where the branch would have gone
  std::uint32_t indent = 0;  // indentation of its keys
  std::vector<std::string> keys;
  Location guard;    // the {{ if }} / {{ with }} action
  Location values;   // the values key that decided it (invalid: none)
  std::string note;  // that key's path
};

// One rendered YAML stream: a chart's templates (one stream per template file) or an
// overlay's output.
struct RenderedStream {
  std::string root;    // the render root as a path of the tree ("charts/agent", "deploy/dev")
  std::string engine;  // "helm" or "kustomize"
  std::string text;    // the YAML as `helm template` / `kustomize build` print it
  SourceMap map;
  // A render with one guarding switch flipped: the findings that appear only then are
  // conditional ("[only when debug.enabled=true]").
  Condition condition;
  // A flipped render re-renders only some templates: the `# Source:` names of those it
  // replaces (rendered or now empty); the default render's objects of the others stay.
  std::vector<std::string> replaces;
  std::vector<Omission> omissions;  // by line
};

// Values for the charts at `path` (a chart directory or a glob of them), from the
// configuration (.sbreview.yaml `helm.charts`). Files are paths in the analysed tree.
struct ChartValues {
  std::string path;
  std::vector<std::string> values, set, set_string, set_file;
  Location at;  // the configuration entry
};

struct RenderOptions {
  bool enabled = true;                       // --render=off analyses raw files only
  std::vector<std::string> helm_values;      // --helm-values FILE, in order
  std::vector<std::string> helm_set;         // --helm-set k=v, in order
  std::vector<std::string> helm_set_string;  // --helm-set-string k=v: values stay strings
  std::vector<std::string> helm_set_file;    // --helm-set-file k=FILE: the file's text
  std::string kube_version;                  // --kube-version ("" = the engine's default)
  std::vector<std::string> api_versions;     // --api-versions, added to the built-in ones
  std::vector<ChartValues> charts;           // per chart, applied before the command line's
  // Each boolean value that guards template content is also rendered flipped, one at a time,
  // up to `max_switches` per chart (more is an invariant-0 finding).
  bool switches = true;
  unsigned max_switches = 32;
  // Chart directories a kustomization inflates (`helmCharts:`), rendered through it only.
  std::vector<std::string> inflated_charts;
  // Files that exist only inside an archive (a packaged subchart) get ids from here on, and
  // their paths in RenderOutput::virtual_files; the caller appends those to its file table.
  // kNoFile: their locations are the archive's.
  FileId virtual_base = kNoFile;
  std::uint32_t timeout_ms = 30'000;  // per render root (external renderers)
  std::uint64_t max_output_bytes = 64ull << 20;
};

struct RenderOutput {
  std::vector<RenderedStream> streams;  // by render root, then as the renderer ordered them
  // Files read through a render root (templates, partials, values, patches, bases): analysed
  // through the render, never raw, whether or not the render succeeded.
  std::vector<FileId> consumed;
  std::vector<Problem> problems;  // renders that failed, dependencies that are not vendored
  // Paths of the files ids RenderOptions::virtual_base + k stand for (archive members).
  std::vector<std::string> virtual_files;
};

// Finds the render roots of `sources` and renders each. Never throws; a root that fails to
// render is one invariant-0 problem at its root file.
RenderOutput render_roots(const SourceSet& sources, const RenderOptions& options);

}  // namespace sbr::render
