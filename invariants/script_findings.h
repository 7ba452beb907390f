// Findings from script facts (model.scripts): shared by the invariant 2, 4 and 7 modules.
// A script finding's subject is the script path; it points at the word or command the fact
// was found at, with the contributing places as related locations.
#pragma once

#include <string_view>

#include "analyzer/check/finding.h"
#include "analyzer/model/model.h"

namespace sbr::inv {

Finding script_finding(const Model& model, const ScriptFacts& script, const ScriptFact& fact,
                       RuleId rule);

}  // namespace sbr::inv
