// Invariant 4, service-account tokens: a token inside lets the sandboxed code speak to the
// API server as the pod's service account, with every permission bound to it.
#include <fmt/format.h>

#include <algorithm>

#include "analyzer/engine/secrets_inside.h"
#include "generated/rule_ids.h"
#include "invariants/common.h"
#include "invariants/inv4_parts.h"
#include "invariants/pod_once.h"

namespace sbr::inv {
namespace {

bool has(const std::vector<std::string>& v, std::string_view x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

bool has_verb(const RbacGrant& g, std::initializer_list<std::string_view> verbs) {
  if (has(g.verbs, "*")) return true;
  return std::any_of(verbs.begin(), verbs.end(), [&](auto v) { return has(g.verbs, v); });
}

// Core resources (pods, secrets, nodes) live in the "" group; an unset list is read as core.
bool core_group(const RbacGrant& g) {
  return g.api_groups.empty() || has(g.api_groups, "") || has(g.api_groups, "*");
}

bool has_resource(const RbacGrant& g, std::string_view r) {
  if (has(g.resources, r)) return true;
  auto slash = r.find('/');
  return slash != std::string_view::npos &&
         has(g.resources, std::string(r.substr(0, slash)) + "/*");
}

std::string join(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : ", ") + s;
  return out.empty() ? "none" : out;
}

std::string token_source(const Workload& w) {
  if (engine::automounts_service_account_token(w)) return "automounted";
  return "projected";
}

void check_token(const Workload& w, PodOnce& once, Findings& out) {
  if (!is_kubernetes(w) || !engine::automounts_service_account_token(w)) return;
  if (!once.first(w, rule::service_account_token_mounted)) return;
  const auto& s = w.service;
  std::string why;
  Provenance at = omitted_anchor(w, "pod.automountServiceAccountToken", pod_anchor(w));
  if (s.pod_automount) {
    why = "automountServiceAccountToken is true on the pod";
    at = s.pod_automount->from;
  } else if (s.account_automount) {
    why = fmt::format(
        "automountServiceAccountToken is unset on the pod and true on "
        "ServiceAccount {}",
        s.account);
  } else {
    why =
        "automountServiceAccountToken is set neither on the pod nor on its ServiceAccount, "
        "and the default mounts the token";
  }
  Finding f = make(w, rule::service_account_token_mounted,
                   fmt::format("{}: the token of service account {} is mounted into the "
                               "sandbox ({}); set automountServiceAccountToken: false on the pod",
                               describe(w), s.account, why),
                   at, "automountServiceAccountToken");
  if (s.account_in_input) {
    f.related.push_back({s.account_from.at, "ServiceAccount " + s.account});
  }
  out.add(std::move(f));
}

void check_projected(const Workload& w, Findings& out) {
  for (const auto& m : w.mounts) {
    if (!m.projects_sa_token || m.target.empty()) continue;
    Finding f = make(w, rule::projected_service_account_token,
                     fmt::format("{}: volume {} projects a service-account token (of {}) into "
                                 "{}; automountServiceAccountToken: false does not prevent it",
                                 describe(w), m.volume_name, w.service.account, m.target),
                     m.mount_from, "volumeMounts:" + m.volume_name);
    if (m.source_from.at.valid() && m.source_from.at != m.mount_from.at) {
      f.related.push_back({m.source_from.at, "the projected serviceAccountToken source"});
    }
    out.add(std::move(f));
  }
}

void check_grants(const Workload& w, PodOnce& once, Findings& out) {
  if (!is_kubernetes(w) || !engine::service_account_token_reaches(w)) return;
  for (const auto& g : w.service.grants) {
    std::string reason = dangerous_grant(g);
    if (reason.empty()) continue;
    std::string fact = fmt::format("rbac:{}:{}:{}", g.role, join(g.verbs), join(g.resources));
    if (!once.first(w, rule::dangerous_rbac_grant, fact)) continue;
    Finding f = make(w, rule::dangerous_rbac_grant,
                     fmt::format("{}: service account {} is bound to {} (verbs: {}; resources: "
                                 "{}), and its {} token is inside the sandbox: the code there "
                                 "can {}",
                                 describe(w), w.service.account, g.role, join(g.verbs),
                                 join(g.resources), token_source(w), reason),
                     g.rule_from, fact);
    f.related.push_back({g.binding_from.at, "the binding of service account " + w.service.account});
    out.add(std::move(f));
  }
}

}  // namespace

std::string dangerous_grant(const RbacGrant& g) {
  if (has(g.verbs, "*") && has(g.resources, "*")) return "do anything to the resources it names";
  if (has(g.resources, "*")) return "act on every resource type of its API groups";
  if (has(g.verbs, "escalate")) return "grant itself permissions it does not hold (escalate)";
  if (has(g.verbs, "bind")) return "bind itself to any role (bind)";
  if (has(g.verbs, "impersonate")) return "act as another user or service account (impersonate)";
  if (core_group(g)) {
    if (has_resource(g, "pods/exec") && has_verb(g, {"create", "get"})) {
      return "run commands in other pods (pods/exec)";
    }
    if (has_resource(g, "nodes/proxy") && has_verb(g, {"get", "create"})) {
      return "reach the kubelet API of nodes (nodes/proxy)";
    }
    if (has(g.resources, "pods") && has_verb(g, {"create"})) {
      return "start pods of its choosing, privileged ones included (create pods)";
    }
    // resourceNames limits get, list and watch to the Secrets it names (list and watch then
    // need a metadata.name field selector): the intended ones, not every Secret.
    if (has(g.resources, "secrets") && g.resource_names.empty() &&
        has_verb(g, {"get", "list", "watch"})) {
      return "read Secrets (get/list/watch secrets)";
    }
  }
  if (has(g.verbs, "*")) return "use every verb on the resources it names";
  return "";
}

void check_service_account(const Model& model, Findings& out) {
  PodOnce once;
  for (const Workload* wp : main_containers_first(model)) {
    const Workload& w = *wp;
    check_token(w, once, out);
    check_projected(w, out);
    check_grants(w, once, out);
  }
}

}  // namespace sbr::inv
