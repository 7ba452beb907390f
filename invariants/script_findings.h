// Findings from script judgments (script_judgments.h): shared by the invariant 2, 4 and 7 modules.
// A script finding's subject is the script path; it points at the word or command the judgment
// is about, with the contributing places as related locations.
#pragma once

#include "analyzer/check/finding.h"
#include "analyzer/model/model.h"
#include "invariants/script_judgments.h"

namespace sbr::inv {

// The finding for one judgment. Its fact path is `script.<kind>.<key>`: the judgment's kind and
// the structured identity of what it is about, so rewording a message keeps the fingerprint.
Finding script_finding(const Model& model, const ScriptFacts& script, const ScriptJudgment& j,
                       RuleId rule);

}  // namespace sbr::inv
