// Kubernetes' evidence of the platform: what a workload's ServiceAccount may do. A binding in
// the input that lets the account create pods, manage sandboxes, or write any other cluster
// state (Secrets, ConfigMaps, workloads, RBAC, webhooks, nodes) makes it a controller, an
// operator or a setup Job: code the platform runs, not the agent's (docs/threat-classes.md).
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <set>

#include "analyzer/engine/threat_evidence.h"
#include "analyzer/support/strings.h"

namespace sbr::engine::threat {
namespace {

constexpr std::array<std::string_view, 2> kSandboxGroups = {"agents.x-k8s.io",
                                                            "extensions.agents.x-k8s.io"};
constexpr std::array<std::string_view, 4> kSandboxResources = {"sandboxes", "sandboxtemplates",
                                                               "sandboxclaims", "sandboxwarmpools"};

constexpr std::array<std::string_view, 9> kWriteVerbs = {"create", "update",           "patch",
                                                         "delete", "deletecollection", "escalate",
                                                         "bind",   "impersonate",      "*"};

// Resources that every client may write without changing the cluster: an event it records, a
// review that asks the API server a question (may I?, who is this token?).
constexpr std::array<std::string_view, 7> kNoStateResources = {"events",
                                                               "tokenreviews",
                                                               "subjectaccessreviews",
                                                               "selfsubjectaccessreviews",
                                                               "selfsubjectrulesreviews",
                                                               "localsubjectaccessreviews",
                                                               "selfsubjectreviews"};

// Subresources that open a session into a pod or node: access, not state.
constexpr std::array<std::string_view, 4> kSessionSubresources = {"exec", "attach", "portforward",
                                                                  "proxy"};

// "ClusterRole/name", "Role/ns/name" as "ClusterRole name", "Role ns name"; a namespace left
// out (a chart's Role without one) leaves no gap.
std::string role_words(const std::string& role) {
  std::string out;
  for (const std::string& part : split(role, '/')) {
    if (!part.empty()) out += (out.empty() ? "" : " ") + part;
  }
  return out;
}

bool has_any(const std::vector<std::string>& v, std::initializer_list<std::string_view> xs) {
  return std::any_of(xs.begin(), xs.end(), [&](std::string_view x) { return contains(v, x); });
}

bool creates_pods(const RbacGrant& g) {
  bool core = g.api_groups.empty() || has_any(g.api_groups, {"", "*"});
  return core && has_any(g.resources, {"pods", "*"}) && has_any(g.verbs, {"create", "*"});
}

bool manages_sandboxes(const RbacGrant& g) {
  bool group = contains(g.api_groups, "*") ||
               std::any_of(kSandboxGroups.begin(), kSandboxGroups.end(),
                           [&](std::string_view s) { return contains(g.api_groups, s); });
  bool resource = contains(g.resources, "*") ||
                  std::any_of(kSandboxResources.begin(), kSandboxResources.end(),
                              [&](std::string_view s) { return contains(g.resources, s); });
  return group && resource && has_any(g.verbs, {"create", "update", "patch", "delete", "*"});
}

// The first verb and resource by which the grant changes cluster state, as "patch nodes";
// "" when it only reads, or only writes what changes nothing.
std::string state_write(const RbacGrant& g) {
  auto verb = std::find_if(g.verbs.begin(), g.verbs.end(),
                           [](const std::string& v) { return contains(kWriteVerbs, v); });
  if (verb == g.verbs.end()) return "";
  for (const std::string& r : g.resources) {
    // A subresource write (`ingresses/status`, `deployments/scale`) acts on its resource; one
    // that opens a session into a pod or node (`pods/exec`, `nodes/proxy`) is access, not state,
    // and what an agent given kubectl asks for.
    std::size_t slash = r.find('/');
    if (contains(kNoStateResources, r.substr(0, slash))) continue;
    if (slash != std::string::npos && contains(kSessionSubresources, r.substr(slash + 1))) continue;
    return fmt::format("{} {}", *verb == "*" ? "write" : *verb, r == "*" ? "every resource" : r);
  }
  return "";
}

}  // namespace

bool sandbox_group(std::string_view group) {
  return contains(kSandboxGroups, group);
}

// Only a ServiceAccount subject counts: a binding to a group of every account would lower
// every workload's class at once. So would one to `default`, the account of every pod that
// names none: a grant to it says what the namespace's pods may do, not what this one is. One
// piece of evidence per role and kind.
void rbac_evidence(const Model& m, const Workload& w, Evidence& out) {
  if (w.service.account.empty() || w.service.account == "default") return;
  std::set<std::pair<int, std::string>> seen;
  bool writes = false;
  for (const RbacGrant& g : w.service.grants) {
    if (g.subject_kind != "ServiceAccount") continue;
    std::string role = role_words(g.role);
    if (manages_sandboxes(g) && seen.emplace(0, g.role).second) {
      add(out, ThreatSignal::RbacSandboxes, ThreatClass::UntrustedInput,
          fmt::format("its ServiceAccount {} may manage sandboxes.agents.x-k8s.io ({}, {})",
                      w.service.account, role, where(m, g.rule_from)),
          g.rule_from);
      writes = true;
    }
    if (creates_pods(g) && seen.emplace(1, g.role).second) {
      add(out, ThreatSignal::RbacPods, ThreatClass::UntrustedInput,
          fmt::format("its ServiceAccount {} may create pods ({}, {})", w.service.account, role,
                      where(m, g.rule_from)),
          g.rule_from);
      writes = true;
    }
  }
  if (writes) return;
  // The narrower signals say more; a grant that only writes other state is told once.
  for (const RbacGrant& g : w.service.grants) {
    std::string what = g.subject_kind == "ServiceAccount" ? state_write(g) : "";
    if (what.empty()) continue;
    std::string role = role_words(g.role);
    add(out, ThreatSignal::RbacWrites, ThreatClass::UntrustedInput,
        fmt::format("its ServiceAccount {} may {} ({}, {}): it changes the cluster's state, as a "
                    "controller or a setup Job does",
                    w.service.account, what, role, where(m, g.rule_from)),
        g.rule_from);
    return;
  }
}

}  // namespace sbr::engine::threat
