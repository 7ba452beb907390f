// Invariant 4, service-account tokens: a token inside lets the sandboxed code speak to the
// API server as the pod's service account, with every permission bound to it. Whether a token
// is mounted (SB4004, SB4005) is a data rule; what it may do (SB4006) is judged here.
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

void check_grants(const Workload& w, PodOnce& once, Findings& out) {
  if (!is_kubernetes(w) || !engine::service_account_token_reaches(w)) return;
  for (const auto& g : w.service.grants) {
    std::string reason = dangerous_grant(g);
    if (reason.empty()) continue;
    std::string fact = fmt::format("rbac:{}:{}:{}", g.role, join(g.verbs), join(g.resources));
    if (!once.first(w, rule::dangerous_rbac_grant, fact)) continue;
    Finding f =
        make(w, rule::dangerous_rbac_grant,
             fmt::format("{}: service account {} is bound to {} (verbs: {}; resources: "
                         "{}), and its {} token is inside the sandbox: the code there "
                         "can {}",
                         describe(w), w.service.account, g.role, join(g.verbs), join(g.resources),
                         engine::automounts_service_account_token(w) ? "automounted" : "projected",
                         reason),
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
    check_grants(w, once, out);
  }
}

}  // namespace sbr::inv
