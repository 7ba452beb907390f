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
};

void write_text(const ReportContext& ctx, std::ostream& out, bool color);
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
