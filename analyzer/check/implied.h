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

}  // namespace sbr
