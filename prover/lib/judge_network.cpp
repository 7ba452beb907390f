// Invariants 4 (what is inside), 5 and 7 (the network): the prover's canaries on this machine,
// the host's listening sockets at each published port, and the probe's environment names.
#include <fmt/format.h>

#include "generated/rule_ids.h"
#include "prover/lib/judge.h"

namespace sbr::prove::detail {
namespace {

bool loopback(const std::string& a) {
  return a.rfind("127.", 0) == 0 || a == "::1";
}

std::string binding_text(const PublishPlan& p, const PortBinding& b) {
  if (b.addresses.empty()) return fmt::format("nothing listens for `{}` on the host", p.spec);
  // The host port is a free one the prover picked: left out, so that the output is the same
  // on every run.
  return fmt::format("`{}` (its host port replaced) listens on {}{}", p.spec,
                     fmt::join(b.addresses, ", "), b.reached_probe ? " and reaches the probe" : "");
}

const PortBinding* binding(const Case& c, int index) {
  if (index < 0 || static_cast<size_t>(index) >= c.obs.bindings.size()) return nullptr;
  return &c.obs.bindings[static_cast<size_t>(index)];
}

RuntimeVerdict publish(const Case& c, bool all_interfaces_rule) {
  int i = publish_of(c.f, c.w, c.plan);
  if (i < 0) return unverifiable("the finding names no published port the prover can find");
  const PublishPlan& p = c.plan.publishes[static_cast<size_t>(i)];
  if (!p.passed) return unverifiable(p.reason);
  const PortBinding* b = binding(c, i);
  if (b == nullptr) return unverifiable("the host's sockets were not read");
  bool wide = false;
  for (const auto& a : b->addresses) wide = wide || !loopback(a);
  std::string seen = binding_text(p, *b);
  if (!all_interfaces_rule) return b->addresses.empty() ? refuted(seen) : confirmed(seen);
  return wide ? confirmed(seen) : refuted(seen);
}

RuntimeVerdict dropped_mapping(const Case& c) {
  int i = publish_of(c.f, c.w, c.plan);
  if (i < 0) return unverifiable("the finding names no published port the prover can find");
  const PublishPlan& p = c.plan.publishes[static_cast<size_t>(i)];
  if (!p.passed) return unverifiable(p.reason);
  const PortBinding* b = binding(c, i);
  if (b == nullptr) return unverifiable("the host's sockets were not read");
  std::string seen = binding_text(p, *b);
  bool warned = c.obs.engine_stderr.find("Port mappings have been discarded") != std::string::npos;
  if (warned) seen += "; podman: \"Port mappings have been discarded\"";
  return b->addresses.empty() ? confirmed(seen) : refuted(seen);
}

RuntimeVerdict egress(const Case& c) {
  if (c.runsc()) return unverifiable("gVisor runs here with network=none");
  if (c.kube()) {
    return unverifiable("network policies are enforced by the cluster's CNI, not by podman");
  }
  if (const NotPassed* n = c.skipped("--network")) return unverifiable(n->reason);
  for (const EgressGate& g : c.w.network.egress) {
    if (g.kind != GateKind::NetworkNone) {
      return unverifiable(fmt::format("the egress gate {} is not loaded by the prover", g.name));
    }
  }
  const CanaryView* gw = find_canary(c.r, "gateway");
  if (gw == nullptr) return unverifiable("no canary on the bridge gateway");
  std::string host = gw->address.substr(0, gw->address.rfind(':'));
  std::string seen =
      gw->reachable && gw->banner_ok
          ? fmt::format("the prover's canary on the bridge gateway {} answered", host)
          : fmt::format("the canary on the bridge gateway {} is unreachable ({})", host,
                        gw->error.empty() ? "no answer" : gw->error);
  return gw->reachable && gw->banner_ok ? confirmed(seen) : refuted(seen);
}

RuntimeVerdict env_inside(const Case& c) {
  const std::string& path = c.f.fact_path;
  std::string name = path.starts_with("env:") ? path.substr(4) : "";
  if (name.empty()) return unverifiable("the finding names no environment variable");
  for (const auto& n : c.r.env_names) {
    if (n == name) return confirmed(name + " is in the environment (its value replaced)");
  }
  return refuted(name + " is not in the environment");
}

}  // namespace

std::optional<RuntimeVerdict> judge_network(const Case& c) {
  const RuleId id = c.f.rule_id;
  if (id == rule::publish_binds_all_interfaces || id == rule::publish_non_loopback_address) {
    return publish(c, true);
  }
  if (id == rule::host_port) return publish(c, false);
  if (id == rule::publish_with_network_none) return dropped_mapping(c);
  if (id == rule::egress_not_default_deny || id == rule::egress_open_with_secrets) return egress(c);
  if (id == rule::host_loopback_reachable) {
    const CanaryView* lo = find_canary(c.r, "host-loopback");
    if (lo != nullptr && lo->reachable && lo->banner_ok) {
      return confirmed("the prover's canary on the host's loopback answered");
    }
    return unverifiable("the way it reaches the host's loopback is not launched");
  }
  if (id == rule::secret_literal_in_environment ||
      (id == rule::key_material_in_configuration && c.f.fact_path.view().starts_with("env:"))) {
    return env_inside(c);
  }
  if (id == rule::service_account_token_mounted || id == rule::projected_service_account_token) {
    return unverifiable("podman mounts no service-account token (the kubelet does)");
  }
  return std::nullopt;
}

}  // namespace sbr::prove::detail
