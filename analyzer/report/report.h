// One emitter per format, all views of the same typed findings. Every emitter redacts secret
// values (report/redact.h) and orders its output deterministically.
#pragma once

#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

#include "analyzer/check/catalog.h"
#include "analyzer/check/finding.h"
#include "analyzer/model/model.h"
#include "analyzer/source/source.h"

namespace sbr {

// `sbreview prove` (docs/prover.md): the runtime's verdict on one finding or control, as the
// reports show it (SARIF `properties.runtime`, JSON `runtime`). Plain text: the report layer
// does not know the prover.
struct RuntimeNote {
  std::string verdict;  // confirmed | refuted | unverifiable
  std::string observed;
  std::string runtime;  // "podman/runc", "podman/runsc"; "" when nothing was launched
  std::string reason;
};

struct RuntimeControlRow {
  std::string name;  // "capabilities: all dropped"
  int invariant = 0;
  Location at;  // where the configuration sets it
  std::string expected;
  RuntimeNote note;
};

// One workload's launch: how it was launched, what was left out and why, and its controls.
struct RuntimeLaunch {
  std::string subject;  // the findings' subject for this workload
  std::string label;    // "launcher run.sh (line 4)"
  std::string launch;   // "podman run", "podman kube play", "" when nothing was launched
  std::string runtime;
  std::string engine_note;              // "a docker launch, run on podman"
  std::string error;                    // why nothing was observed ("" when the probe reported)
  std::vector<std::string> not_passed;  // "--device /dev/kvm: reaches a host device"
  std::vector<RuntimeControlRow> controls;
};

struct ReportContext {
  const Model& model;
  const SourceSet& sources;
  const Catalog& catalog;
  const std::vector<Finding>& findings;
  // Absolute path of the directory SARIF URIs resolve against (%SRCROOT%: the git top level
  // when the first root is inside a repository, else the first root); empty when unknown.
  std::string source_root = {};
  // Prepended to file paths in SARIF URIs ("examples/" when `check examples` runs in a
  // repository), so GitHub finds the files: it resolves URIs against the repository root.
  std::string uri_prefix = {};
  // Prepended to file paths in the text report ("k8s/" for `check k8s`), so its
  // file:line:col are relative to the working directory and an editor can open them.
  std::string display_prefix = {};
  // `diff`: SARIF baselineState per finding ("new", "unchanged"), parallel to `findings`;
  // empty for `check`.
  std::vector<std::string> baseline_states = {};
  // `diff`: "BASE..HEAD" as the user named it, for summaries; empty for `check`.
  std::string diff_range = {};
  // `diff --show-fixed`: BASE's findings that HEAD no longer has, located in `model`'s file
  // table (SARIF baselineState "absent", JSON `fixed`, Markdown "Fixed"). Never counted, never
  // judged.
  std::vector<Finding> fixed = {};
  // `prove`: the runtime's verdict on each finding, parallel to `findings`, and every launch;
  // both empty for `check` and `diff`.
  std::vector<RuntimeNote> runtime = {};
  std::vector<RuntimeLaunch> launches = {};
};

void write_text(const ReportContext& ctx, std::ostream& out, bool color);
// `prove`'s text view: a table per launched workload (each finding's and control's verdict),
// then the runtime's own findings (report/prove_text.cpp).
void write_prove_text(const ReportContext& ctx, std::ostream& out, bool color);
void write_json(const ReportContext& ctx, std::ostream& out);
void write_sarif(const ReportContext& ctx, std::ostream& out);
// GitHub workflow commands (`::error file=...::message`), one per finding (report/github_report).
void write_github(const ReportContext& ctx, std::ostream& out);
// A Markdown summary for $GITHUB_STEP_SUMMARY and PR comments (report/markdown_report), at most
// about `max_bytes` long (GitHub takes 1 MiB per step summary); what does not fit is counted.
inline constexpr size_t kMarkdownMaxBytes = 1000000;
void write_markdown(const ReportContext& ctx, std::ostream& out,
                    size_t max_bytes = kMarkdownMaxBytes);
// Stable text dump of the model for debugging and golden tests (secret values redacted).
void write_model_dump(const Model& model, std::ostream& out);

}  // namespace sbr
