// One launch on this machine: the stand-ins created, podman started (run or kube play), the
// probe's report read, the published ports looked at from the host, and the container or pod
// removed again whatever happened.
#pragma once

#include "prover/lib/launch_plan.h"
#include "prover/lib/observation.h"
#include "prover/lib/session.h"

namespace sbr::prove {

Observation launch(Session& s, const LaunchPlan& plan, const PlanContext& ctx);

}  // namespace sbr::prove
