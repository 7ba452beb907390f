// The whole model of one run: every workload, the cluster objects that shaped them, the
// scripts around launches, the problems met while reading (invariant 0), and the declared
// context from .sbreview.yaml. Checks receive only this.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "analyzer/model/claims.h"
#include "analyzer/model/gate_link.h"
#include "analyzer/model/image_build.h"
#include "analyzer/model/k8s_objects.h"
#include "analyzer/model/provenance.h"
#include "analyzer/model/script.h"
#include "analyzer/model/suppression.h"
#include "analyzer/model/workload.h"
#include "analyzer/support/cause.h"

namespace sbr {

// Why something could not be analysed. Each kind maps to one SB0 rule.
enum class ProblemKind : std::uint8_t {
  ParseError,         // YAML/JSON/bash that does not parse
  Unreadable,         // a file that cannot be read
  SymlinkOutside,     // a symlink leaving the root (never followed)
  TooLarge,           // over the size limit
  InvalidObject,      // a Kubernetes object missing required fields
  DuplicateKey,       // a mapping with the same key twice: parsers disagree on which wins
  BudgetExceeded,     // alias expansion, nesting or evaluation budget exceeded
  SpecialFile,        // FIFO, device, socket in the tree: never opened
  BadAcceptance,      // a risk acceptance or suppression without a reason
  ExpiredAcceptance,  // a risk acceptance past its expiry
  RenderFailed,       // a chart/overlay/launcher that could not be rendered
  SourceUnresolved,   // `source FILE` whose file is not in the analysed tree
  ArgvPartlyUnknown,  // a launch word that could be an option, with a value the script leaves open
  SwitchNotRendered,  // a chart switch that was not rendered flipped (bound, or a failed render)
  ParseRecovered,     // bash tree-sitter-bash could not parse, read with the construct neutralised
  PathCut,            // a budget cut one path (a loop's later iterations); the rest was rendered
};

struct Problem {
  Problem() = default;
  Problem(ProblemKind k, std::string text, Location where, std::optional<Cause> why = std::nullopt)
      : kind(k), message(std::move(text)), at(where), cause(why) {}

  ProblemKind kind = ProblemKind::ParseError;
  std::string message;
  Location at;
  // Whose gap it is, where the place that met it knows better than its rule's default (the
  // catalog's `cause:`): a chart's own `fail` is the repository's, an unvendored dependency the
  // environment's, a template function the engine lacks sbreview's.
  std::optional<Cause> cause;
  // What makes two path cuts of one file the same gap when their messages differ (the calls of
  // one function whose other argument lists were not rendered, each naming its own path): ""
  // when the message itself says it. Cuts of one gap are one finding (inv0_integrity.cpp).
  std::string topic;
};

// Facts about the cluster that are not in manifests; declared in .sbreview.yaml.
struct ClusterFacts {
  std::optional<std::string> default_runtime_class;
  bool seccomp_default = false;  // kubelet --seccomp-default
  std::optional<std::int64_t> pod_pids_limit;
  Provenance from;
};

// Files seen in this run; FileId indexes `paths` (relative to the first root, '/'-separated).
struct FileTable {
  std::vector<std::string> paths;
  FileId add(std::string path) {
    paths.push_back(std::move(path));
    return static_cast<FileId>(paths.size() - 1);
  }
  const std::string& path(FileId id) const {
    static const std::string none;
    return id < paths.size() ? paths[id] : none;
  }
};

// What became of one input path (docs/robustness.md): every file the walk met is analysed, not
// a format sbreview reads, or skipped for a reason that is also an invariant-0 finding.
// Excluded: kept out by the configuration (`exclude:`, outside `include:`); never read.
enum class FileStatus : std::uint8_t { Analysed, NotApplicable, Skipped, Excluded };

struct FileRecord {
  FileId file = kNoFile;
  FileStatus status = FileStatus::Analysed;
  std::string reason;  // why skipped or not applicable; how analysed when not read directly
  // An excluded path has no file id: its path, and the files it stands for (a directory
  // listed as one entry past the report's cap, docs/robustness.md).
  std::string path;
  std::uint32_t count = 1;
  const std::string& path_in(const FileTable& table) const {
    return file == kNoFile ? path : table.path(file);
  }
};

struct RunSummary {
  std::vector<FileRecord> files;  // every path the walk met, sorted by path
  std::uint32_t files_seen = 0;
  std::uint32_t kubernetes_documents = 0;
  std::uint32_t other_yaml_documents = 0;  // CI workflows, values files: recognised, not errors
  std::uint32_t scripts = 0;
  std::uint32_t skipped_excluded = 0;
};

struct Model {
  FileTable files;
  std::vector<Workload> workloads;
  ClusterObjects cluster;
  std::vector<ScriptFacts> scripts;
  std::vector<GateLink> gate_links;  // which workload meets which script gate (link_gates)
  std::vector<Problem> problems;
  std::vector<ImageBuild> images;                // Dockerfiles/Containerfiles in the input
  std::vector<SeccompProfile> seccomp_profiles;  // seccomp JSON profiles in the input
  std::vector<Suppression> suppressions;         // inline comments and annotations, in order
  std::vector<Document> documents;               // Markdown files read for claims (claims.h)

  ClusterFacts cluster_facts;
  std::vector<std::string> workspace_paths;   // host paths that may be mounted writable
  std::vector<std::string> repository_urls;   // where this repository is cloned from (config)
  std::vector<std::string> intended_secrets;  // env names declared in secrets.intended
  RunSummary summary;
  // A chart rendered with a switch flipped re-renders some of its templates: for each such
  // render (its root and condition text, joined by \x1f), the `# Source:` names it replaces.
  // The default render's objects from the other templates shape its workloads too.
  std::map<std::string, std::set<std::string>> switch_replaces;
};

}  // namespace sbr
