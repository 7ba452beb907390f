// Which Services select a pod (every pair of a Service's selector among the pod's labels),
// indexed once. Comparing every workload with every Service was quadratic where a repository
// holds many charts and their switch renders (bitnami's: 1,800 workloads, as many Services).
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "analyzer/model/model.h"

namespace sbr {

class ServiceSelection {
 public:
  explicit ServiceSelection(const Model& m);

  // Indices into the model's Services whose non-empty selector `labels` meets, ascending.
  // Namespaces and render variants are for the caller to judge.
  std::vector<std::size_t> selecting(const std::map<std::string, std::string>& labels) const;

 private:
  const std::vector<ServiceObject>& services_;
  // Each Service under the one pair of its selector that the fewest workloads carry: a pod it
  // selects carries that pair, and most pods that carry it are selected.
  std::map<std::pair<std::string, std::string>, std::vector<std::size_t>> by_pair_;
};

}  // namespace sbr
