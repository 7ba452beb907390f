// What a shell script around a launch holds (filled by the bash frontend). Kept apart from
// Workload because one script launches several workloads and holds gates, traps and flows that
// are about the script, not one container.
#pragma once

#include <string>
#include <vector>

#include "analyzer/model/invocation.h"
#include "analyzer/model/provenance.h"
#include "analyzer/model/script_observations.h"
#include "analyzer/model/workload.h"

namespace sbr {

struct ScriptFacts {
  FileId file = kNoFile;
  ScriptObservations observed;          // what the renderer saw; checks judge it
  std::vector<EgressGate> gates;        // gates the script builds; link_gates attaches them
  std::vector<Invocation> invocations;  // every rendered command, in evaluated order
};

}  // namespace sbr
