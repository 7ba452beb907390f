// Invariant 1: the isolation boundary meets the floor. See docs/invariants/1-isolation.md.
// What needs computation stays here: the runtime a workload really gets (SB1006), whether root
// is host root on its engine (SB1009) and which sibling containers share its namespaces
// (SB1010). Privileged, host namespaces, sockets, devices and unmasked /proc are data rules.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <tuple>

#include "analyzer/engine/defaults.h"
#include "analyzer/support/strings.h"
#include "generated/rule_ids.h"
#include "invariants/common.h"
#include "invariants/modules.h"
#include "invariants/workload_facts.h"

namespace sbr::inv {
namespace {

void check_runtime(const Model& model, const Workload& w, FactFindings& out) {
  // The floor is a container for untrusted input; trusted workloads have none (INVARIANTS 1).
  if (w.threat == ThreatClass::UntrustedInput || w.threat == ThreatClass::Trusted) return;
  ResolvedRuntime r = resolve_runtime(model, w);
  if (r.rt.kind != engine::RuntimeKind::Runc) return;
  std::vector<Related> related;
  if (r.handler_line) related.push_back(*r.handler_line);
  std::string what;
  Provenance at = r.rt.from;
  if (w.runtime_class) {
    if (!r.rt.handler.empty()) {
      what = fmt::format(
          "runs under runc: runtimeClassName {} resolves to RuntimeClass handler "
          "{}, which is neither gVisor nor a microVM",
          r.rt.name, r.rt.handler);
    } else if (is_kubernetes(w)) {
      what = fmt::format(
          "names runtimeClassName {}, which is not a hardened runtime (no "
          "RuntimeClass object in the input: judged by its name, handler "
          "unknown)",
          r.rt.name);
    } else {
      what = fmt::format(
          "runs under --runtime {}, a runc-class runtime: one kernel separates "
          "the untrusted code from the host",
          r.rt.name);
    }
  } else if (r.rt.from_cluster_default) {
    at = pod_anchor(w);
    if (model.cluster_facts.from.at.valid()) {
      related.push_back(
          {model.cluster_facts.from.at, "cluster default runtime class declared here"});
    }
    what = fmt::format(
        "sets no runtimeClassName and the declared cluster default runtime "
        "class {} (handler {}) is runc-class",
        r.rt.name, r.rt.handler.empty() ? "unknown" : r.rt.handler);
  } else if (is_kubernetes(w)) {
    at = omitted_anchor(w, "pod.runtimeClassName", pod_anchor(w));
    what =
        "sets no runtimeClassName and no cluster default runtime is declared: it runs under "
        "the node's default runtime (runc, handler runc), sharing the host kernel";
  } else {
    at = container_anchor(w);  // the invocation, the compose service, a devcontainer's runArgs
    what =
        "runs under the engine's default runtime (runc-class; no --runtime runsc or kata): "
        "one kernel separates the untrusted code from the host";
  }
  out.add(w, rule::runtime_not_hardened, what, at, "runtime", std::move(related));
}

void check_host_root(const Workload& w, FactFindings& out) {
  const Identity& id = w.identity;
  const Provenance* uid_at = nullptr;
  if (id.run_as_user && id.run_as_user->value == 0) {
    uid_at = &id.run_as_user->from;
  } else if (!id.run_as_user && id.user_name && id.user_name->value == "root") {
    uid_at = &id.user_name->from;
  }
  if (uid_at == nullptr) return;
  std::string why;
  switch (w.engine) {
    case Engine::Kubelet:
      if (id.host_users && !id.host_users->value) return;
      why = id.host_users ? "hostUsers: true" : "hostUsers is not false";
      break;
    case Engine::Podman:
    case Engine::PodmanKubePlay:
      if (!(w.rootful && w.rootful->value)) return;
      if (id.userns && id.userns->value != "host") return;
      why = "rootful podman without --userns";
      break;
    case Engine::Docker:
    case Engine::Compose:
    case Engine::Devcontainer:
      // The docker daemon runs as root unless the input says otherwise.
      if (w.rootful && !w.rootful->value) return;
      if (id.userns && id.userns->value != "host") return;
      why = w.engine_unresolved
                ? "engine unresolved, judged as docker: a rootful daemon without a user namespace"
                : "a rootful engine without a user namespace";
      break;
  }
  std::vector<Related> related;
  if (id.host_users) related.push_back({id.host_users->from.at, "hostUsers: true"});
  out.add(w, rule::container_root_is_host_root,
          fmt::format("runs as uid 0 with no user namespace ({}): root in the container is root "
                      "on the host, one kernel bug or writable mount away from owning it",
                      why),
          *uid_at, "user.host-root", std::move(related));
}

// Names and images of containers that hold egress, credentials or control: an agent sharing
// their namespaces inherits their egress and reaches their localhost services.
constexpr std::array<std::string_view, 14> kSidecarWords = {
    "envoy", "istio",  "linkerd",    "proxy",    "squid",  "vault",     "credential",
    "token", "secret", "controller", "operator", "egress", "kube-rbac", "oauth"};

// "registry.io/envoyproxy/envoy:v1.29@sha256:..." -> "envoyproxy/envoy"
std::string image_repo(std::string_view image) {
  std::string s = lower(image);
  if (auto at = s.find('@'); at != std::string::npos) s = s.substr(0, at);
  auto slash = s.find_last_of('/');
  auto colon = s.find_last_of(':');
  if (colon != std::string::npos && (slash == std::string::npos || colon > slash)) {
    s = s.substr(0, colon);
  }
  if (auto first = s.find('/'); first != std::string::npos) {
    std::string host = s.substr(0, first);
    if (host.find('.') != std::string::npos || host.find(':') != std::string::npos ||
        host == "localhost") {
      s = s.substr(first + 1);
    }
  }
  return s;
}

std::string sidecar_word(std::string_view name, std::string_view image) {
  std::string n = lower(name), i = image_repo(image);
  for (auto word : kSidecarWords) {
    if (n.find(word) != std::string::npos || i.find(word) != std::string::npos) {
      return std::string(word);
    }
  }
  return "";
}

// Containers that share a namespace, seen from either side: a pod lists every container on
// each one, but compose `network_mode: service:x` is written on one service only.
struct Partner {
  std::string name, image;
  bool network = false, processes = false;
  Provenance from;
};

using GroupKey = std::tuple<std::string, std::string, std::string, std::string>;
GroupKey group_of(const Workload& w) {
  return {w.id.render_root, w.id.kind, w.id.ns, w.id.name};
}

std::vector<Partner> partners_of(const Workload& w,
                                 const std::map<GroupKey, std::vector<const Workload*>>& groups) {
  std::vector<Partner> out;
  auto it = groups.find(group_of(w));
  auto find_partner = [&](const std::string& name) -> Partner* {
    for (auto& p : out) {
      if (p.name == name) return &p;
    }
    return nullptr;
  };
  for (const Sibling& s : w.siblings) {
    if (find_partner(s.name)) continue;
    Partner p{s.name, s.image, s.shares_network, s.shares_processes, s.from};
    if (p.image.empty() && it != groups.end()) {
      for (const Workload* o : it->second) {
        if (o->id.container == s.name) p.image = o->image;
      }
    }
    out.push_back(std::move(p));
  }
  if (it == groups.end()) return out;
  for (const Workload* o : it->second) {
    if (o == &w) continue;
    for (const Sibling& s : o->siblings) {
      if (s.name != w.id.container || find_partner(o->id.container)) continue;
      out.push_back(
          Partner{o->id.container, o->image, s.shares_network, s.shares_processes, s.from});
    }
  }
  return out;
}

void check_sidecars(const Workload& w,
                    const std::map<GroupKey, std::vector<const Workload*>>& groups,
                    FactFindings& out) {
  // The sidecar's own workload is not the agent; its partners are judged from their side. A
  // platform container (a setup Job's wait-for init container) has no agent to inherit anything.
  if (!sidecar_word(w.id.container, w.image).empty()) return;
  if (w.threat == ThreatClass::UntrustedInput || w.threat == ThreatClass::Trusted) return;
  bool pid_shared = w.share_process_namespace && w.share_process_namespace->value;
  for (const Partner& s : partners_of(w, groups)) {
    bool procs = s.processes || pid_shared;
    if (!s.network && !procs) continue;
    if (sidecar_word(s.name, s.image).empty()) continue;
    std::string shared = s.network && procs ? "network and process namespaces"
                         : s.network        ? "network namespace"
                                            : "process namespace";
    std::string what = fmt::format(
        "shares its {} with {} (image {}), which looks like a proxy, credential or control "
        "container: the agent inherits its egress and reaches its localhost services",
        shared, s.name, s.image.empty() ? "unknown" : s.image);
    if (procs) what += ", and reads its environment and memory through /proc";
    std::vector<Related> related;
    if (s.from.at.valid()) related.push_back({s.from.at, "container " + s.name});
    if (pid_shared) {
      related.push_back({w.share_process_namespace->from.at, "shareProcessNamespace: true"});
    }
    out.add(w, rule::shared_namespace_with_sidecar, std::move(what), container_anchor(w),
            "sibling/" + s.name, std::move(related));
  }
}

}  // namespace

void check_isolation(const Model& model, Findings& out) {
  std::map<GroupKey, std::vector<const Workload*>> groups;
  for (const Workload& w : model.workloads) groups[group_of(w)].push_back(&w);
  FactFindings facts(out, model);
  for (const Workload& w : model.workloads) {
    check_runtime(model, w, facts);
    check_host_root(w, facts);
    check_sidecars(w, groups, facts);
  }
}

}  // namespace sbr::inv
