// The verdicts on the suppressions written in the input (Model::suppressions): which finding
// each one turns into a note, and which ones are themselves findings because they give no
// reason, are malformed, have expired or match nothing.
#pragma once

#include <string>
#include <vector>

#include "analyzer/check/finding.h"
#include "analyzer/model/model.h"

namespace sbr {

class SuppressionIndex {
 public:
  SuppressionIndex(const Model& model, std::string today);

  // Findings for the suppressions that cannot apply (no reason, malformed, expired). Their
  // severity and fingerprint are filled by the runner like any finding's.
  std::vector<Finding> weak() const;

  // Accepts `f` when a live suppression covers its rule at its location or object, and
  // remembers that the suppression was used. The rules that judge suppressions are never
  // suppressed.
  void apply(Finding& f);

  // Notes for each rule id of a live suppression that accepted nothing.
  std::vector<Finding> unused() const;

 private:
  bool live(const Suppression& s) const;
  bool covers(const Suppression& s, const Finding& f) const;

  const Model& model_;
  std::string today_;
  std::vector<std::vector<bool>> used_;  // per suppression, per named rule
};

}  // namespace sbr
