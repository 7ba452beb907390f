// What each engine supplies when the input says nothing. Checks call these named functions;
// nothing overwrites a parsed field with a default, so "unset" stays visible in the model.
#pragma once

#include <optional>
#include <string>

#include "analyzer/model/model.h"

namespace sbr::engine {

enum class RuntimeKind { Runc, GVisor, MicroVm };

// The runtime a workload really gets: a RuntimeClass object in the input decides by its
// handler; otherwise the class name; otherwise the cluster default from .sbreview.yaml;
// podman/docker --runtime by name.
struct EffectiveRuntime {
  RuntimeKind kind = RuntimeKind::Runc;
  std::string name;     // class name or runtime as written ("" when unset)
  std::string handler;  // resolved handler when known
  bool from_cluster_default = false;
  Provenance from;  // the runtimeClassName / --runtime argument, or the pod spec
};
EffectiveRuntime effective_runtime(const Workload& w, const ClusterFacts& cluster);
RuntimeKind runtime_kind_of_handler(std::string_view handler);

// Seccomp as it would apply: Kubernetes leaves it Unconfined unless the kubelet's
// seccompDefault is declared; podman, docker and kube play apply their default profile.
SeccompKind effective_seccomp(const Workload& w, const ClusterFacts& cluster);

// Engines that keep NET_RAW in the default capability set (docker does; podman does not).
bool keeps_net_raw_by_default(Engine e);

// Whether the engine grants `c` to a container that asks for nothing (docker's and containerd's
// fourteen, podman's eleven). Adding such a capability back after `--cap-drop ALL` leaves a
// subset of the default set; adding it without a drop changes nothing.
bool in_default_set(Engine e, Capability c);

// The engine's default pids limit (podman 2048; docker none; Kubernetes: the kubelet's
// podPidsLimit when declared).
std::optional<std::int64_t> default_pids_limit(Engine e, const ClusterFacts& cluster);

// Whether the kubelet mounts a service-account token: the pod's automount setting overrides
// the ServiceAccount's; both unset means yes. Non-Kubernetes engines never mount one.
bool mounts_service_account_token(const Workload& w);

// allowPrivilegeEscalation unset means true on Kubernetes; --security-opt no-new-privileges
// unset means escalation is allowed on podman/docker.
bool privilege_escalation_allowed(const Workload& w);

// Effective uid when known: runAsUser / --user; nullopt when the image decides.
std::optional<std::int64_t> effective_uid(const Workload& w);

}  // namespace sbr::engine
