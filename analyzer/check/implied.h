// One fact, one finding: a finding already reported on a path is not reported again on a
// narrower path through the same place (the same launch line rendered once per value of a
// path-dependent variable, a launch function called again under a condition).
#pragma once

#include <vector>

#include "analyzer/check/finding.h"

namespace sbr {

// Removes every finding whose rule, location and fact another finding has under a weaker
// condition (one whose atoms are a strict subset). Keeps the order of what remains.
void drop_implied(std::vector<Finding>& findings);

// Removes every finding of a chart rendered with a switch flipped (a condition on a render
// switch) that the default render reports too: the same rule, workload or subject and fact,
// wherever it is located. What remains of those renders is what only the flipped value causes.
void drop_switch_repeats(std::vector<Finding>& findings);

}  // namespace sbr
