// Pod-level facts (egress, the service-account token, Services) are shared by every container
// of a pod, while the model holds one workload per container. PodOnce lets a check report such
// a fact once per pod and rule instead of once per container.
#pragma once

#include <algorithm>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "analyzer/model/model.h"
#include "invariants/common.h"

namespace sbr::inv {

class PodOnce {
 public:
  // True the first time this (pod, rule, fact) is seen. Containers of one pod with different
  // threat classes are reported apart: their severities differ.
  bool first(const Workload& w, RuleId rule, std::string_view fact = {}) {
    const Location& at = w.pod_spec_from.at.valid() ? w.pod_spec_from.at : w.object_from.at;
    // A launcher's "container" is its launch: each launch is its own pod.
    std::string unit = is_kubernetes(w) ? w.id.name : w.id.name + "\x1f" + w.id.container;
    // A chart rendered with a switch flipped is a pod of its own (its own findings): two
    // switches may each take the same pod's policy away.
    if (from_render_switch(w.object_from.condition()))
      unit += "\x1f" + w.object_from.condition().text;
    auto key = std::make_tuple(w.id.render_root, w.id.kind, w.id.ns, unit, at.file, at.line,
                               at.column, static_cast<int>(w.threat), rule, std::string(fact));
    return seen_.insert(std::move(key)).second;
  }

 private:
  std::set<std::tuple<std::string, std::string, std::string, std::string, FileId, std::uint32_t,
                      std::uint32_t, int, RuleId, std::string>>
      seen_;
};

// Workloads with main containers first (stable otherwise), so that a pod-level finding names
// the container that runs the workload rather than an init container.
inline std::vector<const Workload*> main_containers_first(const Model& model) {
  std::vector<const Workload*> out;
  out.reserve(model.workloads.size());
  for (const auto& w : model.workloads) out.push_back(&w);
  std::stable_partition(out.begin(), out.end(),
                        [](const Workload* w) { return w->role == ContainerRole::Main; });
  return out;
}

}  // namespace sbr::inv
