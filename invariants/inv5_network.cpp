// Invariant 5: see docs/invariants/5-network.md.
#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "generated/rule_ids.h"
#include "invariants/common.h"
#include "invariants/inv5_parts.h"
#include "invariants/modules.h"

namespace sbr::inv {

std::string describe_gate(const EgressGate& g) {
  const char* label = "";
  switch (g.kind) {
    case GateKind::NetworkPolicy:
    case GateKind::CiliumNetworkPolicy:
      // The Kubernetes frontend names policy gates "<Kind> <ns>/<name>" already.
      return g.name;
    case GateKind::SandboxManagedPolicy:
      return "the managed network policy of " + g.name;
    case GateKind::NetworkNone:
      return "--network none";
    case GateKind::InternalNetwork:
      label = "internal network";
      break;
    case GateKind::Nft:
      label = "nft ruleset";
      break;
    case GateKind::Iptables:
      label = "iptables ruleset";
      break;
    case GateKind::Squid:
      label = "squid proxy";
      break;
  }
  if (g.name.empty()) return label;
  return g.name.rfind(label, 0) == 0 ? g.name : std::string(label) + " " + g.name;
}

void check_policy_enforcement(const Model& model, Findings& out) {
  // The policies that are deployed: a chart's render with a switch flipped repeats them.
  std::vector<const NetworkPolicyObject*> policies;
  for (const auto& p : model.cluster.network_policies) {
    if (!from_render_switch(p.ref.from.condition())) policies.push_back(&p);
  }
  if (policies.empty()) return;
  const NetworkPolicyObject* first =
      *std::min_element(policies.begin(), policies.end(), [&](const auto* a, const auto* b) {
        return std::forward_as_tuple(model.files.path(a->ref.from.at.file), a->ref.from.at.line,
                                     a->ref.from.at.column) <
               std::forward_as_tuple(model.files.path(b->ref.from.at.file), b->ref.from.at.line,
                                     b->ref.from.at.column);
      });
  Finding f;
  f.rule_id = rule::network_policy_enforcement_depends_on_cni;
  f.message = fmt::format(
      "{} network polic{} in the input (first: {} {}) only take effect when the cluster's network "
      "plugin enforces them; a CNI without policy support accepts and ignores them",
      policies.size(), policies.size() == 1 ? "y" : "ies", first->ref.kind, first->ref.name);
  f.at = first->ref.from.at;
  f.subject = "network-policies";
  f.fact_path = "network-policy-enforcement";
  out.add(std::move(f));
}

void check_network(const Model& model, Findings& out) {
  check_egress(model, out);
  check_ingress(model, out);
  check_policy_enforcement(model, out);
  check_gates(model, out);
  check_gate_reruns(model, out);  // SB5079: invariants/inv5_gate_rerun.cpp
  check_servers(model, out);
}

}  // namespace sbr::inv
