// Self-testing fixtures: `# ruleid: ID` / `# ok: ID` (also `// ...` and `<!-- ... -->`) on the
// line before the target. Reported (file, line, rule) must equal the annotated set. Files
// without comments (JSON) carry a sidecar `<file>.expect` with "LINE RULE" lines.
#pragma once

#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "analyzer/check/catalog.h"
#include "analyzer/check/finding.h"
#include "analyzer/cli/rule_tests.h"

namespace sbr::test {

// The annotations and the comparison are the product's (analyzer/cli/rule_tests.h), shared
// with `sbreview test-rules`.
using ruletest::Annotations;
using ruletest::collect_annotations;
using ruletest::collect_tree_expectations;
using ruletest::compare_finding;
using ruletest::FixtureResult;
using ruletest::Key;

// How the test binary reads a fixture directory: into memory, except one with a
// `.fixture-setup`, whose FIFOs and mode-000 files only exist on disk (see fixture_harness.cpp).
ruletest::FixtureRun fixture_run(const Catalog& catalog = Catalog::embedded());

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
