// Self-testing fixtures: `# ruleid: ID` / `# ok: ID` (also `// ...` and `<!-- ... -->`) on the
// line before the target. Reported (file, line, rule) must equal the annotated set. Files
// without comments (JSON) carry a sidecar `<file>.expect` with "LINE RULE" lines.
#pragma once

#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "analyzer/check/finding.h"

namespace sbr::test {

using Key = std::tuple<std::string, unsigned, std::string>;  // file, line, rule

// What a fixture's files say about themselves.
struct Annotations {
  std::set<Key> expected;       // `ruleid:` lines and `.expect` sidecars
  std::set<Key> ok;             // `ok:` lines
  std::set<std::string> rules;  // every rule named by either
};

// Adds the annotations of one fixture file (`rel` relative to the fixture directory). A
// `<file>.expect` sidecar holds "LINE RULE" lines for `<file>`.
void collect_annotations(const std::string& rel, const std::string& text, Annotations& into);

// Adds the lines of `<dir>.expect`, a file beside a fixture directory whose files must keep their
// line numbers (golden dumps point into them): "PATH LINE RULE" a line, `#` starts a comment.
void collect_tree_expectations(const std::string& text, Annotations& into);

struct FixtureResult {
  std::set<Key> reported;                 // within scope
  std::set<Key> expected;                 // `ruleid:` annotations
  std::set<Key> forbidden_hit;            // `ok:` annotations that were reported anyway
  std::vector<Finding> findings;          // everything reported in the directory
  std::multimap<Key, std::string> texts;  // the message of each reported key
  std::string describe() const;           // a readable diff for failures
  bool matches() const { return reported == expected && forbidden_hit.empty(); }
  // Reported keys nobody annotated, each as "file:line RULE message".
  std::vector<std::string> unannotated() const;
};

// Records one reported finding (`path` relative to the fixture directory) against the
// annotations: in scope when `closed` or when its rule is in `scope`.
void compare_finding(const Annotations& marks, const std::set<std::string>& scope, bool closed,
                     const std::string& path, const Finding& f, FixtureResult& r);

// Runs the whole pipeline on `dir` (its own .sbreview.yaml is the configuration when present).
// A `.fixture-setup` in the directory creates, in a temporary copy, what git cannot hold (a FIFO,
// an unreadable file, a file over the size limit); see fixture_harness.cpp. A direct
// subdirectory with its own .sbreview.yaml is analysed as a separate run with that file.
// With `closed` every reported finding is in scope; otherwise only the rules in `scope` and the
// rules named by any annotation in the directory.
FixtureResult run_fixture_dir(const std::string& dir, const std::set<std::string>& scope,
                              bool closed);

std::string source_dir();
// A whole file as bytes; "" when it cannot be read.
std::string read_file(const std::string& path);

}  // namespace sbr::test

namespace sbr::test {

// The --dump-model text of a fixture directory (relative to the source tree).
std::string model_dump_of(const std::string& rel_dir);

// Compares the model dump of `rel_dir` with the golden file `golden` (both relative to the
// source tree). SBR_UPDATE_GOLDEN=1 rewrites the golden file; review its diff.
void check_golden_dump(const std::string& rel_dir, const std::string& golden);

}  // namespace sbr::test
