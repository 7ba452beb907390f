// The controls the static review counted on for a workload (the capability drop, no new
// privileges, a read-only root, limits, network none, loopback publishing, gVisor, read-only
// mounts), each checked against what the running sandbox shows. A control is claimed only
// where the review did not report its absence, so a refuted control is a static/runtime
// mismatch: the sandbox is weaker than the review said.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "analyzer/model/model.h"
#include "prover/lib/launch_plan.h"
#include "prover/lib/observation.h"
#include "prover/lib/verdict.h"

namespace sbr::prove {

struct Control {
  std::string key;       // stable: "capabilities.drop-all", "mount.read-only:/data"
  std::string name;      // "capabilities: all dropped"
  int invariant = 0;     // the invariant the control serves
  std::string expected;  // what the runtime should show: "an empty bounding set"
  Provenance from;       // where the configuration sets it
  RuntimeVerdict verdict;
};

// `reported` holds the rule ids (as text) of the findings on this workload: a control whose
// absence was reported is not claimed.
std::vector<Control> judge_controls(const Workload& w, const Model& model,
                                    const std::set<std::string>& reported, const LaunchPlan& plan,
                                    const Observation& obs);

}  // namespace sbr::prove
