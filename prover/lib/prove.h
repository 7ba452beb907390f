// `sbreview prove`'s engine: every workload of the model launched (two at a time), observed,
// and every finding judged; plus the runtime's own findings. The session (podman, the probe
// image, the canaries) is the caller's, so that it can clean up whatever happens.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "analyzer/check/finding.h"
#include "analyzer/model/model.h"
#include "analyzer/source/source.h"
#include "prover/lib/controls.h"
#include "prover/lib/launch_plan.h"
#include "prover/lib/observation.h"
#include "prover/lib/session.h"
#include "prover/lib/verdict.h"

namespace sbr::prove {

struct WorkloadRun {
  size_t workload = 0;  // index into model.workloads
  std::string label;    // "launcher run.sh (line 4)"
  LaunchPlan plan;
  Observation obs;
  std::vector<Control> controls;
  double seconds = 0;
};

struct Progress {
  size_t done = 0, total = 0;
  const WorkloadRun* run = nullptr;  // the one that finished (nullptr: `label` starts)
  std::string label;
};

struct ProveOptions {
  unsigned parallel = 2;
  std::function<void(const Progress&)> progress;
};

struct ProveResult {
  std::vector<WorkloadRun> runs;         // in model order
  std::vector<RuntimeVerdict> verdicts;  // parallel to the findings judged
  std::vector<Finding> runtime_findings;
  int interrupted = 0;  // the signal that stopped the run, 0 when none
};

// The workload a finding is about (by its identity), or nullptr.
const Workload* workload_of(const Finding& f, const Model& model);

ProveResult prove(const Model& model, const SourceSet& sources,
                  const std::vector<Finding>& findings, Session& session,
                  const ProveOptions& options);

}  // namespace sbr::prove
