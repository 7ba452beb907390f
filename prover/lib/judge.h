// A finding judged against what the running sandbox showed: confirmed, refuted or not
// verifiable, with the observation and the reason. Pure: tests judge hand-built probe reports
// without podman.
#pragma once

#include "analyzer/check/finding.h"
#include "analyzer/model/model.h"
#include "prover/lib/launch_plan.h"
#include "prover/lib/observation.h"
#include "prover/lib/verdict.h"

namespace sbr::prove {

// `w` is the finding's workload (nullptr for a finding about a file or the analysis); `plan`
// and `obs` its launch. The verdict's `runtime` is the observation's.
RuntimeVerdict judge_finding(const Finding& f, const Workload* w, const LaunchPlan* plan,
                             const Observation* obs);

// The capability's bit in the kernel's sets (CAP_CHOWN is 0); -1 for ALL and unknown names.
int capability_bit(Capability c);
// "NET_RAW, SYS_ADMIN" for the bits set in a hex capability set; "none" when empty.
std::string capability_names(const std::string& hex);

namespace detail {

// What every judgment sees. `r` is the probe's report (the launch succeeded).
struct Case {
  const Finding& f;
  const Workload& w;
  const LaunchPlan& plan;
  const Observation& obs;
  const ProbeReport& r;
  bool runsc() const { return plan.runtime == "runsc"; }
  // A Kubernetes container (launched with kube play, or with podman run under gVisor).
  bool kube() const { return w.engine == Engine::Kubelet || w.engine == Engine::PodmanKubePlay; }
  // Something the launch left out whose description starts with `what`, or nullptr.
  const NotPassed* skipped(std::string_view what) const;
};

// Each returns nullopt for a rule that is not its own.
std::optional<RuntimeVerdict> judge_boundary(const Case& c);   // invariant 1
std::optional<RuntimeVerdict> judge_privilege(const Case& c);  // invariant 2
std::optional<RuntimeVerdict> judge_mounts(const Case& c);     // invariants 1 (sockets) and 3
std::optional<RuntimeVerdict> judge_network(const Case& c);    // invariants 4 (env), 5 and 7
std::optional<RuntimeVerdict> judge_limits(const Case& c);     // invariant 6

// The mount a finding is about: by its location, else by the target in its fact path.
const Mount* mount_of(const Finding& f, const Workload& w);
// The published port a finding is about, as an index into the plan's publishes; -1 if none.
int publish_of(const Finding& f, const Workload& w, const LaunchPlan& plan);

}  // namespace detail
}  // namespace sbr::prove
