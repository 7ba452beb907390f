// One finding per rule and place (issue 34 §3). After the other grouping passes, findings of
// one rule can still share a file, line and column: a path condition that has nothing to do
// with the fact (which engine binary is installed) splits one fact into several, an array
// element consumed by two `docker run` lines is judged once per launch, a loop writes several
// facts from one word. A reader fixes each place once, so each place is reported once.
#pragma once

#include <string>
#include <vector>

#include "analyzer/check/finding.h"

namespace sbr {

// The note a conditional finding's message ends with (" [only when X, a non-default switch]");
// "" for a fact on every path.
std::string condition_note(const Condition& c);

// The disjunction of path conditions, simplified: a term implied by another is dropped, and
// two terms that differ in one atom and its negation lose that atom (`A and B`, `A and not B`
// is `A`). Always-true when any term is always or the simplification empties a term.
Condition disjoin(const std::vector<Condition>& terms);

// Merges the findings of one rule at one file, line and column (and one acceptance) into the
// most severe of them (the first in order among equals): the same fact under another
// condition widens its condition, the same fact of another workload is listed in
// `shared_with` and named in the message, another fact at that place becomes a reason (with
// its own message and fingerprint). Related locations are kept once. Order is kept.
void merge_same_place(std::vector<Finding>& findings);

}  // namespace sbr
