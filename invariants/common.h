// Helpers shared by the invariant modules: building a finding for a workload, naming it, and
// the locations INVARIANTS.md prescribes for missing fields.
#pragma once

#include <string>
#include <string_view>

#include "analyzer/check/finding.h"
#include "analyzer/check/summary.h"
#include "analyzer/model/model.h"

namespace sbr::inv {

// "Deployment/agents/runner/agent" or "launcher run.sh/launch 1": stable identity.
std::string subject_of(const Workload& w);
// Human name for messages: "Deployment agents/runner, container agent".
std::string describe(const Workload& w);

Finding make(const Workload& w, RuleId rule, std::string message, const Provenance& at,
             std::string fact_path);
// The same, worded by the rule's catalog summary; `workload` defaults to describe(w).
Finding make(const Workload& w, RuleId rule, MessageArgs args, const Provenance& at,
             std::string fact_path);
// Adds {name, value} unless the check already supplied `name`.
void default_arg(MessageArgs& args, const char* name, std::string value);

// Where a missing field is reported: the container entry for container fields, the pod spec
// for pod fields, the object for object fields (INVARIANTS.md, "Locations").
const Provenance& container_anchor(const Workload& w);
const Provenance& pod_anchor(const Workload& w);
const Provenance& object_anchor(const Workload& w);
// Where a missing securityContext field is added: the container's (the pod's) `securityContext:`
// mapping when there is one, else the container entry (the pod spec).
const Provenance& container_security_anchor(const Workload& w);
const Provenance& pod_security_anchor(const Workload& w);
// Where an absent field is reported: the template guard that left it out of a rendered chart
// (Workload::omitted), else `fallback`.
const Provenance& omitted_anchor(const Workload& w, std::string_view field,
                                 const Provenance& fallback);

}  // namespace sbr::inv
