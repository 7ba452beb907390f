// Runs the data rules over the model: one walk of the objects, each object tested by the cases
// of its kind, findings built like the C++ checks build theirs (invariants/common.h), so the
// runner treats both alike.
#pragma once

#include <vector>

#include "analyzer/check/data_rule.h"
#include "analyzer/check/finding.h"
#include "analyzer/model/model.h"

namespace sbr::match {

struct RuleRef {
  RuleId id;
  const DataRule* rule = nullptr;
};

void run_data_rules(const Model& model, const std::vector<RuleRef>& rules, Findings& out);

}  // namespace sbr::match
