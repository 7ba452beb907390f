// Small pieces shared by the three writers: the source line under a finding, severity mappings,
// the docs URL of a rule, URI encoding and the counts every summary shows.
#pragma once

#include <array>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/check/catalog.h"
#include "analyzer/report/report.h"

namespace sbr::report {

inline constexpr std::string_view kToolName = "sbreview";
inline constexpr std::string_view kInformationUri = "https://github.com/sbreview/sbreview";

// Source lines under findings. Each file's line starts are indexed on first use: a 60 MB stream
// with thousands of findings must not be rescanned from its start for each one.
class SourceLines {
 public:
  explicit SourceLines(const SourceSet& sources) : sources_(sources) {}
  // The text of line `loc.line` (1-based, without its line ending) of a walked file, or nullopt
  // when the file's bytes are not in the source set (the configuration, an unreadable file) or
  // the location is a whole file (line 0).
  std::optional<std::string_view> line(const Location& loc) const;

 private:
  const SourceSet& sources_;
  mutable std::vector<std::vector<size_t>> starts_;  // per file id; empty = not indexed yet
};

// SARIF result level: critical/high error, medium warning, low/note note.
std::string_view sarif_level(Severity s);
// GitHub's `security-severity` property, as the string GitHub expects.
std::string_view security_severity(Severity s);
// https://github.com/sbreview/sbreview/blob/main/docs/rules/<ID>-<slug>.md
std::string rule_help_uri(const Rule& rule);

// Percent-encodes a '/'-separated relative path for use as a URI reference.
std::string uri_encode_path(std::string_view path);

// "file:line:col" of a location, as the model dumps print it.
std::string dump_location(const Model& m, const Location& at);

// "invariant 3", or for invariant 0 "invariant 0; cause: analyzer": the words every one-line
// format puts in parentheses after a message (docs/output-formats.md).
std::string invariant_note(const Finding& f);

// The message with the reasons folded into it (check/group.h) after it, for writers that have
// one text per finding: "... (invariant 3) Also SB7004 (invariant 7): ...".
std::string message_with_reasons(const Finding& f);

// Counts shown by the JSON and text summaries. Severities are indexed by Severity's value.
struct Counts {
  std::array<size_t, 5> by_severity{};
  std::map<int, size_t> by_invariant;
  size_t accepted = 0;
};
Counts count_findings(const std::vector<Finding>& findings);

// Bytes of a character no report may pass on at `s[i]`: C0/DEL except tab and line endings, C1
// controls (U+0080-9F, which some terminals take as CSI) and bidirectional overrides
// (U+202A-E, U+2066-9) that make a line read differently from what it is, and a byte that is not
// well-formed UTF-8 (1). 0 when it is fine.
size_t unsafe_length(std::string_view s, size_t i);
// Bytes of the character at `s[i]` when unsafe_length says it is fine: a whole UTF-8 sequence
// (its continuation bytes are not characters of their own), else 1.
size_t safe_length(std::string_view s, size_t i);
// `s` with every unsafe character replaced by '?' (tab, CR and LF kept: each format decides).
std::string without_controls(std::string_view s);
// `s` on one line and safe for a terminal or a CI log: tabs and line endings become spaces, every
// other unsafe character '?'. For repository text on stderr (a file or pod name, a key, a
// `fail` message): a line ending would start a workflow command (`::error ...`) in the log, an
// escape sequence would drive the terminal.
std::string one_line_safe(std::string_view s);

// Whether finding `i` of `ctx` belongs in a summary: every finding of `check`, the new ones of
// `diff` (SARIF also carries the unchanged ones, for code scanning's baselineState).
bool is_reported_new(const ReportContext& ctx, size_t i);

}  // namespace sbr::report
