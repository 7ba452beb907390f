// .sbreview.yaml: the user's declared context (threat classes, risk acceptances, intended
// secrets, workspace, cluster facts) and gate settings. Unknown keys and bad values are errors
// with file:line:col (exit 2): a typo must not silently weaken the gate.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/model/enum_names.h"
#include "analyzer/model/model.h"
#include "analyzer/support/limits.h"
#include "analyzer/support/result.h"
#include "analyzer/support/severity.h"
#include "analyzer/support/strings.h"

namespace sbr {

// Matches workloads; every field present must match (shell-style globs).
struct WorkloadSelector {
  std::string kind, ns, name, container, path;
};

struct ThreatClassEntry {
  WorkloadSelector match;
  ThreatClass threat = ThreatClass::UntrustedCode;
  std::string reason;
  Location at;
};

struct Acceptance {
  std::string rule;  // rule id
  WorkloadSelector match;
  std::string reason;
  std::string expires;  // YYYY-MM-DD or ""
  Location at;
};

// `rules:` in the configuration: a rule turned off, or its severity replaced (before the threat
// class adjusts it). Invariant-0 rules are set under `integrity:` and cannot be turned off.
struct RuleSetting {
  bool enabled = true;
  std::optional<Severity> severity;
  Location at;
};

// `limits:` in the configuration: bounds on the input a pull request can make sbreview read.
// Crossing one is an invariant-0 finding naming the file (docs/robustness.md), never a silent cut.
struct AnalysisLimits {
  std::uint64_t max_file_bytes = kDefaultMaxFileBytes;  // a larger file is not read (SB0004)
  std::uint32_t max_documents = kDefaultMaxDocuments;   // YAML documents per file (SB0007)
  // The last resorts (RunBudget): past this time or this resident set, the render, chart or
  // file under way stops and those not yet analysed are reported (SB0007) instead. Work budgets
  // stop hostile input long before; 0 turns one off.
  std::uint32_t wall_clock_seconds = kDefaultWallClockSeconds;
  std::uint32_t memory_megabytes = kDefaultMemoryMegabytes;
};

// `helm:` in the configuration: values for the charts at `path` (a chart directory of the
// analysed tree, or a glob of them), applied before the command line's, and the cluster that
// `helm template` pretends to target.
struct HelmChartValues {
  std::string path;
  std::vector<std::string> values, set, set_string, set_file;
  Location at;
};

struct HelmSettings {
  std::vector<HelmChartValues> charts;
  std::string kube_version;               // "" = the engine's default
  std::vector<std::string> api_versions;  // added to the built-in ones
};

struct Config {
  std::string path;  // "" when no file was found
  FileId file = kNoFile;
  std::vector<ThreatClassEntry> threat_classes;
  // Risk acceptances, and the external suppressions of `suppressions:` (a path and a rule: an
  // acceptance whose selector is the path).
  std::vector<Acceptance> acceptances;
  std::map<std::string, RuleSetting> rules;  // rule id -> setting
  std::vector<std::string> intended_secrets;
  std::vector<std::string> workspace;
  // `repository.urls`: where this repository is cloned from, so that a workload that clones
  // one of them (envbuilder's ENVBUILDER_GIT_URL) is known to build this repository.
  std::vector<std::string> repository_urls;
  std::optional<Engine> launcher_engine;
  ClusterFacts cluster;
  std::optional<std::string> fail_on;  // validated: critical|high|medium|low|none
  std::vector<std::string> exclude;
  std::vector<std::string> include;  // when set, only these path prefixes are read
  std::map<std::string, Severity> integrity_severity;  // SB0xxx -> severity override
  AnalysisLimits limits;
  std::vector<DocumentScope> documents;  // which Markdown files claim what (doc-claims.md)
  HelmSettings helm;
  std::string rule_prefix;  // user rule ids may be <rule_prefix>-<name> besides X-<name>
};

// Parses the text of a configuration file; `file` is its id in the run's file table.
Result<Config> parse_config(std::string_view text, const std::string& path, FileId file);

bool selector_matches(const WorkloadSelector& s, const WorkloadId& id, std::string_view path);

}  // namespace sbr
