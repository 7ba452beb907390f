// The pod's QoS class, computed the way the kubelet computes it, and Kubernetes quantities.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "analyzer/model/model.h"
#include "analyzer/model/workload.h"

namespace sbr::engine {

// "500m" -> 0.5, "1Gi" -> 1073741824, "1e3" -> 1000; nullopt when not a quantity.
std::optional<long double> parse_quantity(std::string_view q);

// Guaranteed: every container has cpu and memory limits and requests equal to them (a missing
// request defaults to its limit). BestEffort: no container sets any cpu or memory request or
// limit. Burstable otherwise. Ephemeral storage does not count. Pass every container of the pod,
// init containers included.
QosClass qos_class(const std::vector<const Resources*>& containers);

// Sets `resources.qos` on every kubelet workload: QoS is a property of the pod, so the containers
// of one pod object (init containers included, ephemeral ones not) get one class. Run after the
// Kubernetes linker has applied LimitRange defaults.
void derive_pod_qos(Model& model);

}  // namespace sbr::engine
