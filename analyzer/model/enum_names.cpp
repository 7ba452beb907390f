#include "analyzer/model/enum_names.h"

namespace sbr {

std::optional<ThreatClass> parse_threat_class(std::string_view s) {
  if (s == "untrusted-code") return ThreatClass::UntrustedCode;
  if (s == "untrusted-input") return ThreatClass::UntrustedInput;
  if (s == "multi-tenant") return ThreatClass::MultiTenant;
  if (s == "trusted") return ThreatClass::Trusted;
  return std::nullopt;
}

std::string_view threat_class_name(ThreatClass t) {
  switch (t) {
    case ThreatClass::UntrustedCode:
      return "untrusted-code";
    case ThreatClass::UntrustedInput:
      return "untrusted-input";
    case ThreatClass::MultiTenant:
      return "multi-tenant";
    case ThreatClass::Trusted:
      return "trusted";
  }
  return "untrusted-code";
}

std::string_view threat_signal_name(ThreatSignal s) {
  switch (s) {
    case ThreatSignal::SandboxKind:
      return "sandbox-kind";
    case ThreatSignal::Harness:
      return "harness";
    case ThreatSignal::PermissionFlag:
      return "permission-flag";
    case ThreatSignal::Devcontainer:
      return "devcontainer";
    case ThreatSignal::Launcher:
      return "launcher";
    case ThreatSignal::PodRunsCode:
      return "pod-runs-code";
    case ThreatSignal::CodeImage:
      return "code-image";
    case ThreatSignal::SandboxName:
      return "sandbox-name";
    case ThreatSignal::RbacSandboxes:
      return "rbac-sandboxes";
    case ThreatSignal::RbacPods:
      return "rbac-pods";
    case ThreatSignal::RbacWrites:
      return "rbac-writes";
    case ThreatSignal::Webhook:
      return "webhook";
    case ThreatSignal::InstallBundle:
      return "install-bundle";
    case ThreatSignal::NetworkJoined:
      return "network-joined";
    case ThreatSignal::ProxyOf:
      return "proxy-of";
    case ThreatSignal::ServiceImage:
      return "service-image";
    case ThreatSignal::Orchestrator:
      return "orchestrator";
    case ThreatSignal::AppServer:
      return "app-server";
    case ThreatSignal::PodPlatform:
      return "pod-platform";
    case ThreatSignal::NetworkSidecar:
      return "network-sidecar";
    case ThreatSignal::HelperStep:
      return "helper-step";
    case ThreatSignal::PlatformName:
      return "platform-name";
    case ThreatSignal::TestScript:
      return "test-script";
  }
  return "unknown";
}

std::optional<Engine> parse_engine(std::string_view s) {
  for (Engine e : {Engine::Kubelet, Engine::Podman, Engine::Docker, Engine::PodmanKubePlay,
                   Engine::Compose, Engine::Devcontainer}) {
    if (engine_name(e) == s) return e;
  }
  return std::nullopt;
}

std::string_view engine_name(Engine e) {
  switch (e) {
    case Engine::Kubelet:
      return "kubelet";
    case Engine::Podman:
      return "podman";
    case Engine::Docker:
      return "docker";
    case Engine::PodmanKubePlay:
      return "podman-kube-play";
    case Engine::Compose:
      return "compose";
    case Engine::Devcontainer:
      return "devcontainer";
  }
  return "docker";
}

std::string_view mount_kind_name(MountKind k) {
  static constexpr std::string_view kNames[] = {"hostPath", "volume",    "emptyDir",  "tmpfs",
                                                "secret",   "configMap", "projected", "downwardAPI",
                                                "pvc",      "ephemeral", "image",     "other"};
  return kNames[static_cast<int>(k)];
}

std::string_view dest_kind_name(DestKind d) {
  static constexpr std::string_view kNames[] = {"any",  "cidr",       "fqdn",
                                                "pods", "namespaces", "entity"};
  return kNames[static_cast<int>(d)];
}

std::string_view qos_name(QosClass q) {
  switch (q) {
    case QosClass::BestEffort:
      return "BestEffort";
    case QosClass::Burstable:
      return "Burstable";
    case QosClass::Guaranteed:
      return "Guaranteed";
  }
  return "BestEffort";
}

std::string_view file_status_name(FileStatus s) {
  switch (s) {
    case FileStatus::Analysed:
      return "analysed";
    case FileStatus::NotApplicable:
      return "not-applicable";
    case FileStatus::Skipped:
      return "skipped";
    case FileStatus::Excluded:
      return "excluded";
  }
  return "skipped";
}

namespace {
template <class E, size_t N>
std::string_view name_in(const std::string_view (&names)[N], E e) {
  auto i = static_cast<size_t>(e);
  return i < N ? names[i] : std::string_view("unknown");
}
}  // namespace

std::string_view container_role_name(ContainerRole r) {
  static constexpr std::string_view kNames[] = {"main", "init", "ephemeral"};
  return name_in(kNames, r);
}

std::string_view controller_name(Controller c) {
  static constexpr std::string_view kNames[] = {"Pod",
                                                "Deployment",
                                                "StatefulSet",
                                                "DaemonSet",
                                                "ReplicaSet",
                                                "ReplicationController",
                                                "Job",
                                                "CronJob",
                                                "Sandbox",
                                                "SandboxTemplate",
                                                "OtherPodTemplate",
                                                "Launcher",
                                                "ComposeService",
                                                "Devcontainer"};
  return name_in(kNames, c);
}

std::string_view seccomp_kind_name(SeccompKind k) {
  static constexpr std::string_view kNames[] = {"RuntimeDefault", "Unconfined", "Localhost",
                                                "file"};
  return name_in(kNames, k);
}

std::string_view net_mode_name(NetMode m) {
  static constexpr std::string_view kNames[] = {"pod",    "engine-default", "host",      "none",
                                                "bridge", "named",          "container", "ns",
                                                "pasta",  "slirp4netns"};
  return name_in(kNames, m);
}

std::string_view propagation_name(Propagation p) {
  static constexpr std::string_view kNames[] = {"private", "host-to-container", "bidirectional"};
  return name_in(kNames, p);
}

std::string_view env_source_name(EnvSource s) {
  static constexpr std::string_view kNames[] = {"literal",   "secret-ref", "config-map-ref",
                                                "field-ref", "host-copy",  "symbolic"};
  return name_in(kNames, s);
}

std::string_view env_bulk_kind_name(EnvBulkKind k) {
  static constexpr std::string_view kNames[] = {"secret", "configMap", "host-environment",
                                                "env-file"};
  return name_in(kNames, k);
}

std::string_view gate_kind_name(GateKind k) {
  static constexpr std::string_view kNames[] = {"NetworkPolicy",
                                                "CiliumNetworkPolicy",
                                                "sandbox-managed-policy",
                                                "network-none",
                                                "internal-network",
                                                "nft",
                                                "iptables",
                                                "squid"};
  return name_in(kNames, k);
}

std::string_view gate_hook_name(GateHook h) {
  static constexpr std::string_view kNames[] = {"none", "output", "forward", "netns-output"};
  return name_in(kNames, h);
}

std::string_view exposure_kind_name(ExposureKind k) {
  static constexpr std::string_view kNames[] = {"NodePort", "LoadBalancer", "externalIPs",
                                                "Ingress"};
  return name_in(kNames, k);
}

std::string_view threat_source_name(ThreatSource s) {
  static constexpr std::string_view kNames[] = {"inferred", "annotation", "config"};
  return name_in(kNames, s);
}

std::string_view image_grant_kind_name(ImageGrantKind k) {
  static constexpr std::string_view kNames[] = {"passwordless-sudo", "privileged-group", "setuid"};
  return name_in(kNames, k);
}

}  // namespace sbr
