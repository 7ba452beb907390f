// The prover's own findings, from one launch: SB0040 when nothing could be observed, SB0042
// for each control the review counted on that the runtime shows absent, SB0041 for each finding
// the runtime refutes. They are findings like any other: severity from the catalog, a
// fingerprint from structure (the rule, the workload, the control's or finding's fact path).
#pragma once

#include <vector>

#include "analyzer/check/catalog.h"
#include "analyzer/check/finding.h"
#include "analyzer/config/config.h"
#include "analyzer/model/model.h"
#include "prover/lib/controls.h"
#include "prover/lib/launch_plan.h"
#include "prover/lib/observation.h"

namespace sbr::prove {

struct Judged {
  const Finding* finding = nullptr;
  RuntimeVerdict verdict;
};

std::vector<Finding> runtime_findings(const Workload& w, const LaunchPlan& plan,
                                      const Observation& obs, const std::vector<Control>& controls,
                                      const std::vector<Judged>& judged);

// Severity (the catalog's, or the configuration's for invariant 0), invariant and fingerprint,
// as the runner gives checks' findings.
void finish_runtime_findings(std::vector<Finding>& findings, const Catalog& catalog,
                             const Config& config);

}  // namespace sbr::prove
