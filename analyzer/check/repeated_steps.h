// One finding per rule for a file's helper steps and test containers (issue 34 §3, "one finding
// per fact"). ContainAI's integration tests start 75 containers from one file, each with the
// same gaps (no memory limit, a writable root, the engine's default capabilities), and were 671
// of its 1,346 findings: the fact a reviewer acts on is that the suite's containers lack them.
#pragma once

#include <vector>

#include "analyzer/check/finding.h"

namespace sbr {

// Merges the findings of one rule, severity and file whose workloads are helper steps or test
// launches (Finding::step, one kind at a time) into the first of them: the others become its
// related locations, each naming its launch, and its `shared_with` (with the fingerprint each
// would have had alone), and its message says how many more there are.
// Accepted findings stay apart. Order is kept.
void fold_repeated_steps(std::vector<Finding>& findings);

}  // namespace sbr
