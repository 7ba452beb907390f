// Invariant 6: resource budgets (see docs/invariants/6-resources.md). Quotas throttle a runaway
// or hostile workload; only a wall clock ends it, so both are checked.
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

// The pod's QoS class as context for the limit findings (INVARIANTS.md 6: context in the
// message, never a second finding).
std::string qos_context(const Workload& w) {
  if (!w.resources.qos) return "";
  return fmt::format(" (pod QoS class {})", qos_name(*w.resources.qos));
}

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

void check_memory(const Workload& w, Findings& out) {
  if (w.resources.memory_limit) return;
  std::string how = is_kubernetes(w) ? "resources.limits.memory" : "--memory";
  out.add(make(w, rule::no_memory_limit, MessageArgs{{"setting", how}, {"qos", qos_context(w)}},
               omitted_anchor(w, "resources", container_anchor(w)), "resources.limits.memory"));
}

void check_cpu(const Workload& w, Findings& out) {
  if (w.resources.cpu_limit) return;
  std::string how = is_kubernetes(w) ? "resources.limits.cpu" : "--cpus";
  out.add(make(w, rule::no_cpu_limit, MessageArgs{{"setting", how}, {"qos", qos_context(w)}},
               omitted_anchor(w, "resources", container_anchor(w)), "resources.limits.cpu"));
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

void check_pids(const Workload& w, const Model& model, Findings& out) {
  if (w.engine != Engine::Kubelet || model.cluster_facts.pod_pids_limit) return;
  out.add(make(w, rule::pids_limit_not_declared, MessageArgs{{"workload", describe_pod(w)}},
               pod_anchor(w), "pod.pidsLimit"));
}

bool has_wall_clock(const Workload& w) {
  const Lifecycle& l = w.lifecycle;
  if (l.active_deadline || l.timeout) return true;
  // A Sandbox's shutdownTime ends it at a fixed time: a wall clock by another name.
  return l.controller == Controller::Sandbox && l.shutdown_time.has_value();
}

void check_wall_clock(const Workload& w, Findings& out) {
  if (has_wall_clock(w)) return;
  if (is_kubernetes(w)) {
    out.add(make(w, rule::no_wall_clock,
                 MessageArgs{{"workload", describe_pod(w)},
                             {"how", "activeDeadlineSeconds on the pod or Job"}},
                 pod_anchor(w), "pod.activeDeadlineSeconds"));
    return;
  }
  std::string how;
  switch (w.engine) {
    case Engine::Podman:
      how = "podman --timeout or a timeout(1) wrapper";
      break;
    case Engine::Docker:
      how = "a timeout(1) wrapper; docker has no --timeout";
      break;
    default:
      how = "a timeout(1) wrapper around the session; the file itself cannot set one";
  }
  out.add(make(w, rule::no_wall_clock, MessageArgs{{"how", how}}, object_anchor(w),
               "lifecycle.timeout"));
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
  check_launch_limits(model, out);  // launcher-only rules (swap, docker pids): the launch checks
  for (const Workload& w : model.workloads) {
    if (!counts(w) || w.pod_only) continue;  // a pod without containers has no limits to set
    check_memory(w, out);
    check_cpu(w, out);
    check_ephemeral(w, out);
  }
  for (const Pod& pod : pods_of(model)) {
    for (const Workload* w : pod.reporters()) {
      check_pids(*w, model, out);
      check_wall_clock(*w, out);
      if (is_kubernetes(*w)) check_burstable(pod, *w, out);
    }
  }
}

}  // namespace sbr::inv
