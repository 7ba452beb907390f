// Invariant 6: resource budgets (see docs/invariants/6-resources.md). The limits one field
// answers (memory, CPU, swap, pids, the wall clock) are data rules; what needs the workload's
// mounts (ephemeral storage, SB6006) or the whole pod (Burstable QoS, SB6008) stays here.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "analyzer/model/enum_names.h"
#include "generated/rule_ids.h"
#include "invariants/common.h"
#include "invariants/modules.h"
#include "invariants/workload_facts.h"

namespace sbr::inv {
namespace {

// Ephemeral (debug) containers cannot carry resources; every other container runs code.
bool counts(const Workload& w) {
  return w.role != ContainerRole::Ephemeral;
}

// Pod-level facts are judged once per pod, not once per container: a pod is identified by the
// object that declares it (its kind: line, or the launcher invocation).
using PodKey = std::tuple<FileId, std::uint32_t, std::uint32_t, std::string, std::string>;
PodKey pod_key(const Workload& w) {
  return {w.object_from.at.file, w.object_from.at.line, w.object_from.at.column, w.id.kind,
          w.id.name};
}

// The containers of each pod, in model order. A pod-level finding is reported once for each
// threat class among its containers (their severities differ), through the first main
// container of that class (an init container when it has no main one). Built once: judging a
// pod never rescans the model.
struct Pod {
  std::vector<const Workload*> members;
  std::vector<const Workload*> reporters() const {
    std::vector<const Workload*> out;
    for (const Workload* w : members) {
      auto same = std::find_if(out.begin(), out.end(),
                               [&](const Workload* o) { return o->threat == w->threat; });
      if (same == out.end()) {
        out.push_back(w);
      } else if ((*same)->role != ContainerRole::Main && w->role == ContainerRole::Main) {
        *same = w;
      }
    }
    return out;
  }
};
std::vector<Pod> pods_of(const Model& model) {
  std::map<PodKey, size_t> index;
  std::vector<Pod> pods;
  for (const Workload& w : model.workloads) {
    if (!counts(w)) continue;
    auto [it, inserted] = index.emplace(pod_key(w), pods.size());
    if (inserted) pods.emplace_back();
    pods[it->second].members.push_back(&w);
  }
  return pods;
}

// Disk is bounded when the container has an ephemeral-storage limit, or when nothing it can
// write is unbounded: a read-only root and a size on every writable emptyDir/tmpfs.
void check_ephemeral(const Workload& w, Findings& out) {
  if (w.resources.ephemeral_limit) return;
  const bool kube = is_kubernetes(w);
  bool root_writable = !(w.identity.read_only_root && w.identity.read_only_root->value);
  std::vector<Related> unsized;
  for (const Mount& m : w.mounts) {
    if (m.kind != MountKind::EmptyDir && m.kind != MountKind::Tmpfs) continue;
    if (m.target.empty() || (m.read_only && m.read_only->value) || m.size_limit) continue;
    const Provenance& at = m.mount_from.at.valid() ? m.mount_from : m.source_from;
    unsized.push_back(
        {at.at, fmt::format("{} at {} has no size limit",
                            m.kind == MountKind::EmptyDir ? "emptyDir" : "tmpfs", m.target)});
  }
  if (!root_writable && unsized.empty()) return;
  std::string limit = kube ? "resources.limits.ephemeral-storage" : "--storage-opt size=";
  std::string what;
  if (root_writable) {
    what = kube ? "its writable root filesystem is unbounded"
                : "its writable container layer is unbounded (no --read-only)";
  } else {
    what = fmt::format("{} writable {} without a size limit", unsized.size(),
                       unsized.size() == 1 ? "volume" : "volumes");
  }
  Finding f = make(w, rule::no_ephemeral_storage_limit,
                   MessageArgs{{"setting", limit}, {"unbounded", what}}, container_anchor(w),
                   "resources.limits.ephemeral-storage");
  f.related = std::move(unsized);
  out.add(std::move(f));
}

// Burstable with every limit written means the requests are below the limits: under memory
// pressure the kubelet evicts this pod before Guaranteed ones, and the limits give the
// scheduler no reservation. Judged per pod, only when the limits themselves are all present
// (otherwise SB6001/SB6005 already name the cause).
void check_burstable(const Pod& pod, const Workload& first, Findings& out) {
  if (!first.resources.qos || *first.resources.qos != QosClass::Burstable) return;
  std::vector<Related> requests;
  for (const Workload* m : pod.members) {
    const Workload& w = *m;
    if (!w.resources.memory_limit || !w.resources.cpu_limit) return;
    for (const auto* r : {&w.resources.memory_request, &w.resources.cpu_request}) {
      if (*r) {
        requests.push_back(
            {(*r)->from.at, fmt::format("container {} requests {}", w.id.container, (*r)->value)});
      }
    }
  }
  Finding f = make(first, rule::burstable_qos_with_limits,
                   MessageArgs{{"workload", describe_pod(first)}}, pod_anchor(first), "pod.qos");
  f.related = std::move(requests);
  out.add(std::move(f));
}

}  // namespace

void check_resources(const Model& model, Findings& out) {
  for (const Workload& w : model.workloads) {
    if (!counts(w) || w.pod_only) continue;  // a pod without containers has no limits to set
    check_ephemeral(w, out);
  }
  for (const Pod& pod : pods_of(model)) {
    for (const Workload* w : pod.reporters()) {
      if (is_kubernetes(*w)) check_burstable(pod, *w, out);
    }
  }
}

}  // namespace sbr::inv
