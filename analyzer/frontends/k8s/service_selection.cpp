#include "analyzer/frontends/k8s/service_selection.h"

#include <algorithm>

namespace sbr {

ServiceSelection::ServiceSelection(const Model& m) : services_(m.cluster.services) {
  std::map<std::pair<std::string, std::string>, std::size_t> carried;
  for (const Workload& w : m.workloads) {
    for (const auto& label : w.pod_labels) ++carried[label];
  }
  for (std::size_t i = 0; i < services_.size(); ++i) {
    const std::map<std::string, std::string>& selector = services_[i].selector;
    auto rarest = selector.end();
    std::size_t fewest = 0;
    for (auto it = selector.begin(); it != selector.end(); ++it) {
      auto c = carried.find(*it);
      std::size_t n = c == carried.end() ? 0 : c->second;
      if (rarest == selector.end() || n < fewest) {
        rarest = it;
        fewest = n;
      }
    }
    // No workload carries the pair: the Service selects none of them.
    if (rarest == selector.end() || fewest == 0) continue;
    by_pair_[*rarest].push_back(i);
  }
}

std::vector<std::size_t> ServiceSelection::selecting(
    const std::map<std::string, std::string>& labels) const {
  std::vector<std::size_t> out;
  for (const auto& label : labels) {
    auto candidates = by_pair_.find(label);
    if (candidates == by_pair_.end()) continue;
    for (std::size_t i : candidates->second) {
      const auto& selector = services_[i].selector;
      bool met = std::all_of(selector.begin(), selector.end(), [&](const auto& kv) {
        auto it = labels.find(kv.first);
        return it != labels.end() && it->second == kv.second;
      });
      if (met) out.push_back(i);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace sbr
