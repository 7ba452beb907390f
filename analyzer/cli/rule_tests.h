// Rules that test themselves, semgrep `--test` style: each rule's `bad*` and `good*` fixtures
// carry `# ruleid: ID` / `# ok: ID` annotations (`//` and `<!-- -->` too) on the line before the
// target, and the (file, line, rule) reported must equal the annotated set. `sbreview
// test-rules DIR` and the project's own catalog test (tests/rule_fixtures_test.cpp) both run
// this code; the test binary only changes how a fixture directory is read (in memory, with
// `.fixture-setup` for FIFOs and unreadable files).
#pragma once

#include <functional>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "analyzer/check/catalog.h"
#include "analyzer/check/finding.h"
#include "analyzer/config/config.h"
#include "analyzer/pipeline/analysis.h"

namespace sbr::ruletest {

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

// Reads a directory into a model with `config`; paths in the model are relative to it.
using Analyse = std::function<Analysis(const std::string& dir, const Config& config)>;
// From disk (what `sbreview test-rules` uses), with the fixture's `.fixture-setup` applied to a
// temporary copy when it has one (fixture_setup.cpp).
Analysis analyse_from_disk(const std::string& dir, const Config& config);

struct FixtureRun {
  const Catalog* catalog = nullptr;
  Analyse analyse = analyse_from_disk;
  std::string today = "2026-06-15";  // fixtures' acceptances expire against a fixed date
};

// Runs the pipeline on `dir` (its own .sbreview.yaml is the configuration when present; a direct
// subdirectory with its own .sbreview.yaml is a separate run with that file). With `closed`
// every reported finding is in scope; otherwise only the rules in `scope` and the rules any
// annotation names.
FixtureResult run_fixture_dir(const std::string& dir, const std::set<std::string>& scope,
                              bool closed, const FixtureRun& run);

// One rule against its fixture directory: the closed-world comparison, a `bad*` file that
// annotates the rule, and no `good*` file that reports it. Each failure is one line naming the
// file and line (`fixtures/rules/X/bad.yaml:12: SB1001 annotated but not reported`).
std::vector<std::string> test_rule(const Rule& rule, const std::string& fixtures, bool closed,
                                   const FixtureRun& run);

// The fixture directory of a rule file `<dir>/<name>.yaml`: `<dir>/<name>/`, else
// `<dir>/../fixtures/rules/<name>/` (the project's layout); "" when neither exists.
std::string fixtures_for(const std::string& rules_dir, const Rule& rule);

}  // namespace sbr::ruletest
