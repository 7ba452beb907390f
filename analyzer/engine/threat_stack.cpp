// A workload's place in its stack. A pod has one class: its containers share its token and
// network. The orchestrator holds the runtime socket to start the
// sandboxes, as the Kubernetes controller holds `create pods`: it is the platform, and its
// socket is judged as the escape it is (critical stays critical). The app server of an LLM app
// platform talks to a separate sandbox service of its compose project: the sandbox runs the
// code, the app parses what comes back. A firewall sidecar joins the sandbox's network
// namespace with NET_ADMIN to set it up, often from the sandbox's own image.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>

#include "analyzer/engine/gate_path.h"
#include "analyzer/engine/paths.h"
#include "analyzer/engine/threat_evidence.h"

namespace sbr::engine::threat {
namespace {

// `http://sandbox:8194/run`, `postgres://user:pw@db:5432/x` or a bare `sandbox:8194`: the host
// the value addresses; "" when the value is not an address (`MODE=sandbox` names no host).
std::string address_host(const std::string& value) {
  const auto scheme = value.find("://");
  std::string rest = scheme == std::string::npos ? value : value.substr(scheme + 3);
  std::string authority = rest.substr(0, rest.find_first_of("/?#"));
  if (auto at = authority.rfind('@'); at != std::string::npos) authority.erase(0, at + 1);
  const auto colon = authority.find(':');
  if (scheme == std::string::npos) {
    // Without a scheme only `host:port` and nothing else is an address.
    const std::string port = colon == std::string::npos ? "" : authority.substr(colon + 1);
    if (authority != value || port.empty() ||
        port.find_first_not_of("0123456789") != std::string::npos) {
      return "";
    }
  }
  return authority.substr(0, colon);
}

// How `w` reaches the compose service `sandbox`: its depends_on or links entry, else a literal
// environment value that addresses it. The words name the variable and the host, never the
// value (a URL may carry a password).
std::optional<std::pair<std::string, Provenance>> reaches(const Model& m, const Workload& w,
                                                          const std::string& sandbox) {
  for (const auto& d : w.depends_on) {
    if (d.value == sandbox) {
      return std::pair{fmt::format("depends_on {}, {}", sandbox, where(m, d.from)), d.from};
    }
  }
  for (const EnvVar& e : w.env) {
    if (e.source != EnvSource::Literal || address_host(e.value) != sandbox) continue;
    return std::pair{fmt::format("{} names {}, {}", e.name, sandbox, where(m, e.from)), e.from};
  }
  return std::nullopt;
}

// Every main container of the pod is platform: an init container without evidence of its own
// (a wait-for-db, a volume-permissions step) prepares them and is the chart's code, not an
// agent's.
void init_follows_pod(const Model& m, const std::vector<std::size_t>& members,
                      std::vector<Evidence>& evidence) {
  auto main = std::find_if(members.begin(), members.end(), [&](std::size_t i) {
    return m.workloads[i].role == ContainerRole::Main;
  });
  if (main == members.end()) return;
  for (std::size_t i : members) {
    if (m.workloads[i].role == ContainerRole::Main || !evidence[i].empty()) continue;
    add(evidence[i], ThreatSignal::PodPlatform, ThreatClass::UntrustedInput,
        fmt::format("it prepares a pod whose containers are all platform (container {})",
                    m.workloads[*main].id.container),
        m.workloads[*main].container_from);
  }
}

// The services of each compose project, by the project's name (compose resolves service names
// inside its own project).
std::map<std::string, std::vector<std::size_t>> compose_projects(const Model& m) {
  std::map<std::string, std::vector<std::size_t>> projects;
  for (std::size_t i = 0; i < m.workloads.size(); ++i) {
    if (m.workloads[i].engine == Engine::Compose) projects[m.workloads[i].id.name].push_back(i);
  }
  return projects;
}

// Whether the only untrusted-code evidence `ev` holds is the image's name (the service's own
// name has no sandbox word): a sidecar that runs the sandbox's image for its tools.
bool code_only_by_image(const Workload& w, const Evidence& ev) {
  if (!sandbox_word(w.id.container).empty()) return false;
  return std::all_of(ev.begin(), ev.end(), [](const ThreatEvidence& e) {
    return e.points_to != ThreatClass::UntrustedCode || e.signal == ThreatSignal::SandboxName ||
           e.signal == ThreatSignal::Launcher;
  });
}

bool platform(const std::vector<ThreatEvidence>& ev) {
  return std::any_of(ev.begin(), ev.end(), [](const ThreatEvidence& e) {
    return e.points_to == ThreatClass::UntrustedInput;
  });
}

}  // namespace

void orchestrator_evidence(const Workload& w, Evidence& out) {
  // Compose services only. A launcher's or a devcontainer's container given the socket is most
  // often the agent given Docker (the image runs the harness where the command does not say
  // so); a pod given it is a node agent or such a sandbox, and Kubernetes' orchestrator shows
  // by its RBAC. There the socket is an escape, never a reason to trust the container more.
  if (w.engine != Engine::Compose || w.runs_devcontainer) return;
  for (const Mount& m : w.mounts) {
    if (m.kind != MountKind::HostPath || m.target.empty()) continue;
    // The host's root holds the socket too, but a container given `/` is a node agent (an
    // exporter, a collector) reading the host, not evidence that it drives the runtime.
    HostPathClass c = classify_host_path(m.source, m.source_unknown_root);
    if (c.kind != HostPathKind::RuntimeSocket || c.normalized == "/") continue;
    add(out, ThreatSignal::Orchestrator, ThreatClass::UntrustedInput,
        fmt::format("it holds the container runtime socket {} (at {}): the orchestrator that "
                    "starts the other containers",
                    m.source, m.target),
        m.mount_from);
    return;
  }
}

// The containers of one pod share its ServiceAccount token and its network, so a pod has one
// class. When one of them runs untrusted code, the pod's RBAC, webhook or bundle evidence does
// not make the others platform (an agent pod given `create pods` is an over-privileged sandbox,
// not a controller); nor does a sidecar's image when a main container shows nothing either way.
void pod_evidence(const Model& m, std::vector<Evidence>& evidence) {
  std::map<std::string, std::vector<std::size_t>> pods;
  for (std::size_t i = 0; i < m.workloads.size(); ++i) {
    const Workload& w = m.workloads[i];
    if (!is_kubernetes(w)) continue;
    WorkloadId pod = w.id;
    pod.container.clear();
    // A chart rendered with a switch flipped is a pod of its own (PodOnce does the same): the
    // variant without its RoleBinding must not speak for the default render's containers.
    std::string key = identity_key(pod);
    if (from_render_switch(w.object_from.condition())) {
      key += "\x1f" + w.object_from.condition().text;
    }
    pods[key].push_back(i);
  }
  for (const auto& [key, members] : pods) {
    auto runs = std::find_if(members.begin(), members.end(),
                             [&](std::size_t i) { return strong_code(evidence[i]); });
    auto unknown = std::find_if(members.begin(), members.end(), [&](std::size_t i) {
      return m.workloads[i].role == ContainerRole::Main && !platform(evidence[i]);
    });
    if (runs == members.end() && unknown == members.end()) {
      init_follows_pod(m, members, evidence);
      continue;
    }
    const bool agent = runs != members.end();
    const Workload& code = m.workloads[agent ? *runs : *unknown];
    for (std::size_t i : members) {
      if (strong_code(evidence[i]) || (!agent && !platform(evidence[i]))) continue;
      const std::string& other = code.id.container;
      add(evidence[i], ThreatSignal::PodRunsCode, ThreatClass::UntrustedCode,
          agent ? fmt::format("container {} of its pod runs untrusted code and shares its "
                              "ServiceAccount token and network",
                              other)
                : fmt::format("container {} of its pod shows nothing that makes it platform, "
                              "and shares its ServiceAccount token and network",
                              other),
          code.container_from);
    }
  }
}

void sidecar_evidence(const Model& m, std::vector<Evidence>& evidence) {
  for (const auto& [project, members] : compose_projects(m)) {
    for (std::size_t wi : members) {
      const Workload& w = m.workloads[wi];
      const Network& n = w.network;
      if (!n.mode || n.mode->value != NetMode::Container || n.mode_arg.empty() ||
          !holds_net_admin(w) || !code_only_by_image(w, evidence[wi]))
        continue;
      auto sandbox = std::find_if(members.begin(), members.end(), [&](std::size_t si) {
        return si != wi && m.workloads[si].id.container == n.mode_arg && strong_code(evidence[si]);
      });
      if (sandbox == members.end()) continue;
      Evidence& ev = evidence[wi];
      std::erase_if(ev,
                    [](const ThreatEvidence& e) { return e.signal == ThreatSignal::SandboxName; });
      add(ev, ThreatSignal::NetworkSidecar, ThreatClass::UntrustedInput,
          fmt::format("it joins the network namespace of compose service {}, which runs the "
                      "untrusted code (service:{}, {}), holding NET_ADMIN: it sets up the "
                      "sandbox's network, and its image's name ({}) is the sandbox's, not "
                      "what it runs",
                      n.mode_arg, n.mode_arg, where(m, n.mode->from), w.image),
          n.mode->from);
    }
  }
}

void app_server_evidence(const Model& m, std::vector<Evidence>& evidence) {
  // The services of one project together: those with untrusted-code evidence of their own are
  // its sandboxes.
  for (const auto& [project, members] : compose_projects(m)) {
    for (std::size_t si : members) {
      if (!strong_code(evidence[si])) continue;
      const std::string& sandbox = m.workloads[si].id.container;
      for (std::size_t wi : members) {
        if (wi == si) continue;
        auto how = reaches(m, m.workloads[wi], sandbox);
        if (!how) continue;
        add(evidence[wi], ThreatSignal::AppServer, ThreatClass::UntrustedInput,
            fmt::format("it talks to compose service {}, which runs the untrusted code ({}): the "
                        "application around the sandbox",
                        sandbox, how->first),
            how->second);
      }
    }
  }
}

}  // namespace sbr::engine::threat
