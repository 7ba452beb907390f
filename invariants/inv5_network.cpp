// Invariant 5: see docs/invariants/5-network.md.
#include <fmt/format.h>

#include <algorithm>

#include "invariants/common.h"
#include "invariants/inv5_parts.h"
#include "invariants/modules.h"

namespace sbr::inv {

std::string describe_gate(const EgressGate& g) {
  switch (g.kind) {
    case GateKind::NetworkPolicy:
      return "NetworkPolicy " + g.name;
    case GateKind::CiliumNetworkPolicy:
      return "CiliumNetworkPolicy " + g.name;
    case GateKind::SandboxManagedPolicy:
      return "the managed network policy of SandboxTemplate " + g.name;
    case GateKind::NetworkNone:
      return "--network none";
    case GateKind::InternalNetwork:
      return "internal network " + g.name;
    case GateKind::Nft:
      return "nft ruleset " + g.name;
    case GateKind::Iptables:
      return "iptables ruleset " + g.name;
    case GateKind::Squid:
      return "squid proxy " + g.name;
  }
  return g.name;
}

void check_policy_enforcement(const Model& model, Findings& out) {
  const auto& policies = model.cluster.network_policies;
  if (policies.empty()) return;
  auto first =
      std::min_element(policies.begin(), policies.end(), [&](const auto& a, const auto& b) {
        return std::forward_as_tuple(model.files.path(a.ref.from.at.file), a.ref.from.at.line,
                                     a.ref.from.at.column) <
               std::forward_as_tuple(model.files.path(b.ref.from.at.file), b.ref.from.at.line,
                                     b.ref.from.at.column);
      });
  Finding f;
  f.rule_id = "SB5012";
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
}

}  // namespace sbr::inv
