// One finding per fact (issue 8 §7). Checks judge one workload at a time, so a fact written
// once and shared (a compose `extends`, a launch function called twice) comes back once per
// workload, and one host bind that is both outside the workspace and persistent comes back once
// per rule. A reviewer fixes each of those in one place, so they are reported in one place.
#pragma once

#include <string>
#include <vector>

#include "analyzer/check/catalog.h"
#include "analyzer/check/finding.h"

namespace sbr {

// Removes the findings whose `drop` is set, keeping the others in their order: the last step
// of each grouping pass (here, implied.cpp, same_place.cpp).
void erase_marked(std::vector<Finding>& findings, const std::vector<bool>& drop);

// Folds a finding into another finding of the same workload at the same place and condition
// when the catalog says its rule `folds_into` that one: it becomes one of that finding's
// `reasons`, whose severity is the higher of the two. Accepted findings are never folded.
void fold_reasons(std::vector<Finding>& findings, const Catalog& catalog);

// Merges findings of one rule at one place, fact and condition that differ only in their
// workload into the first: the others become its `shared_with` and its message names them all.
// Findings whose severity, threat class or acceptance differ stay apart: they are judged apart.
void merge_shared(std::vector<Finding>& findings);

// The message of the first workload (named `label` in it), reworded to name all of `labels`
// (the first six, then a count); `label` not in the message: the names follow in parentheses.
std::string name_workloads(const std::string& message, const std::string& label,
                           const std::vector<std::string>& labels);

}  // namespace sbr
