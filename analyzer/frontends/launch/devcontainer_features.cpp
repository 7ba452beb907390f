#include "analyzer/frontends/launch/devcontainer_features.h"

#include <array>
#include <string_view>

#include "analyzer/frontends/launch/launch_util.h"

namespace sbr::launch {
namespace {

// Features that install tools and change nothing a check judges (no privileged flag, capability,
// mount, port or user of their own in their devcontainer-feature.json).
constexpr std::array<std::string_view, 20> kHarmless = {
    "common-utils", "git",    "git-lfs", "node",      "python",    "github-cli",
    "go",           "rust",   "java",    "dotnet",    "ruby",      "php",
    "powershell",   "conda",  "aws-cli", "azure-cli", "terraform", "kubectl-helm-minikube",
    "hugo",         "node-js"};

// The feature's name in the official collection (ghcr.io/devcontainers/features/NAME[:tag|@sha]
// or the legacy bare NAME); "" for a feature of another publisher, whose effect is unknown.
std::string official_name(std::string_view ref) {
  constexpr std::string_view kPrefix = "ghcr.io/devcontainers/features/";
  std::string_view name = ref;
  if (ref.rfind(kPrefix, 0) == 0) {
    name = ref.substr(kPrefix.size());
  } else if (ref.find('/') != std::string_view::npos) {
    return "";
  }
  name = name.substr(0, name.find('@'));
  name = name.substr(0, name.find(':'));
  return std::string(name);
}

bool harmless(std::string_view name) {
  for (auto h : kHarmless) {
    if (h == name) return true;
  }
  return false;
}

}  // namespace

void apply_devcontainer_features(const yaml::Node* features, FileId file, Workload& w) {
  if (features == nullptr || !features->is_map()) return;
  for (const auto& [key, options] : features->entries) {
    (void)options;
    Workload::Feature f;
    f.ref = key->scalar;
    f.from = at_node(file, key, Frontend::Devcontainer);
    std::string name = official_name(f.ref);
    if (name == "docker-in-docker") {
      // Its devcontainer-feature.json sets `"privileged": true` (dockerd needs it).
      if (!w.identity.privileged || !w.identity.privileged->value) {
        w.identity.privileged = fact(true, f.from);
      }
      f.modelled = true;
    } else if (name == "docker-outside-of-docker" || name == "docker-from-docker") {
      // Its devcontainer-feature.json bind-mounts the host's Docker socket.
      Mount m;
      m.kind = MountKind::HostPath;
      m.source = "/var/run/docker.sock";
      m.target = "/var/run/docker-host.sock";
      m.source_from = m.mount_from = f.from;
      w.mounts.push_back(std::move(m));
      f.modelled = true;
    } else {
      f.modelled = !name.empty() && harmless(name);
    }
    w.features.push_back(std::move(f));
  }
}

}  // namespace sbr::launch
