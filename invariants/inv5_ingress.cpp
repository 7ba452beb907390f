// Invariant 5, ingress: nothing outside the cluster should reach the sandbox, and inside the
// cluster only what a policy allows. A hostPort (SB5008) is a data rule.
#include <fmt/format.h>

#include "generated/rule_ids.h"
#include "invariants/common.h"
#include "invariants/inv5_parts.h"
#include "invariants/pod_once.h"

namespace sbr::inv {
namespace {

const char* exposure_name(ExposureKind k) {
  switch (k) {
    case ExposureKind::NodePort:
      return "type NodePort (a port on every node)";
    case ExposureKind::LoadBalancer:
      return "type LoadBalancer (an external load balancer)";
    case ExposureKind::ExternalIPs:
      return "externalIPs";
    case ExposureKind::Ingress:
      return "an Ingress";
  }
  return "";
}

void check_exposures(const Workload& w, PodOnce& once, Findings& out) {
  for (const auto& e : w.network.exposures) {
    bool ingress = e.kind == ExposureKind::Ingress;
    RuleId id = ingress ? rule::ingress_routes_to_sandbox : rule::service_exposes_sandbox;
    std::string fact = fmt::format("expose:{}:{}", static_cast<int>(e.kind), e.name);
    if (!once.first(w, id, fact)) continue;
    std::string msg =
        ingress ? fmt::format(
                      "{}: Ingress {} routes outside traffic to a Service selecting the "
                      "sandbox pod",
                      describe(w), e.name)
                : fmt::format("{}: Service {} selects the sandbox pod and exposes it with {}",
                              describe(w), e.name, exposure_name(e.kind));
    Finding f = make(w, id, std::move(msg), e.from, fact);
    f.related = e.via;
    out.add(std::move(f));
  }
}

void check_ingress_default_deny(const Workload& w, PodOnce& once, Findings& out) {
  if (w.engine != Engine::Kubelet) return;
  bool applies = w.network.policies_apply;
  if (w.network.ingress_default_deny && applies) return;
  if (!once.first(w, rule::no_ingress_default_deny)) return;
  std::string why = applies ? "no NetworkPolicy with policyTypes Ingress selects the pod"
                            : "the pod uses the host network, where NetworkPolicies do not apply";
  Provenance at = pod_anchor(w);
  if (!applies && w.network.host_network) at = w.network.host_network->from;
  Finding f = make(w, rule::no_ingress_default_deny,
                   fmt::format("{}: nothing denies ingress by default ({}), so any pod in the "
                               "cluster can connect to the sandbox's ports",
                               describe(w), why),
                   at, "ingress:default-deny");
  if (!applies) f.related = w.network.ingress_policies;
  out.add(std::move(f));
}

}  // namespace

void check_ingress(const Model& model, Findings& out) {
  PodOnce once;
  for (const Workload* wp : main_containers_first(model)) {
    const Workload& w = *wp;
    check_exposures(w, once, out);
    check_ingress_default_deny(w, once, out);
  }
}

}  // namespace sbr::inv
