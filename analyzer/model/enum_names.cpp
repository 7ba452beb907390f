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
    case ThreatSignal::RbacSandboxes:
      return "rbac-sandboxes";
    case ThreatSignal::RbacPods:
      return "rbac-pods";
    case ThreatSignal::Webhook:
      return "webhook";
    case ThreatSignal::InstallBundle:
      return "install-bundle";
    case ThreatSignal::NetworkJoined:
      return "network-joined";
    case ThreatSignal::ProxyOf:
      return "proxy-of";
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
  }
  return "skipped";
}

}  // namespace sbr
