// Fields of the controller object that shape every container it runs: Job and CronJob
// deadlines and TTLs, a Sandbox's shutdown time, and a SandboxTemplate's managed network policy
// (judged with the agent-sandbox controller's documented defaults).
#include "analyzer/frontends/k8s/reader.h"

namespace sbr::k8s {
namespace {

// The controller's default managed policy: public internet egress, private ranges and the
// metadata service excluded, ingress denied.
NetworkPolicyObject default_managed_policy(const Reader& r, const ObjectInfo& obj) {
  NetworkPolicyObject p;
  p.ref = {obj.kind, obj.ns,  obj.name + " (managed default)", r.prov(obj.kind_node),
           r.path,   r.source};
  p.kind = GateKind::SandboxManagedPolicy;
  p.pod_selector.present = true;
  p.has_ingress_type = true;
  p.has_egress_type = true;
  PolicyRuleSet rule;
  rule.from = r.prov(obj.kind_node);
  PolicyPeer peer;
  peer.cidr = "0.0.0.0/0";
  peer.except = {"10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "169.254.0.0/16"};
  peer.from = rule.from;
  rule.peers.push_back(peer);
  p.egress.push_back(rule);
  return p;
}

void apply_managed_policy(const Reader& r, const ObjectInfo& obj, size_t first) {
  const Node* spec = obj.root->get("spec");
  if (const Node* m = spec->get("networkPolicyManagement"); m && m->scalar == "Unmanaged") return;
  NetworkPolicyObject p;
  if (const Node* np = spec->get("networkPolicy"); np && np->is_map()) {
    p.ref = {obj.kind, obj.ns,  obj.name + " (managed)", r.prov(spec->key_node("networkPolicy")),
             r.path,   r.source};
    p.kind = GateKind::SandboxManagedPolicy;
    p.pod_selector.present = true;
    p.has_ingress_type = true;
    p.has_egress_type = true;  // an empty or absent egress list blocks all egress
    p.ingress = read_policy_rules(r, np->get("ingress"), false);
    p.egress = read_policy_rules(r, np->get("egress"), true);
  } else {
    p = default_managed_policy(r, obj);
  }
  EgressGate gate = egress_gate_of(p);
  for (size_t i = first; i < r.out.workloads.size(); ++i) {
    Workload& w = r.out.workloads[i];
    w.network.egress.push_back(gate);
    w.network.ingress_default_deny = true;
    w.network.ingress_policies.push_back({p.ref.from.at, "managed network policy of " + obj.name});
  }
}

}  // namespace

void apply_controller_fields(const Reader& r, const ObjectInfo& obj, size_t first) {
  const Node* spec = obj.root->get("spec");
  if (spec == nullptr) return;
  const Node* job = nullptr;
  if (obj.kind == "Job" && obj.api_group == "batch") job = spec;
  if (obj.kind == "CronJob" && obj.api_group == "batch") {
    const Node* jt = spec->get("jobTemplate");
    job = jt ? jt->get("spec") : nullptr;
  }
  Maybe<std::string> shutdown;
  bool sandbox = obj.kind == "Sandbox" && (obj.api_group == "agents.x-k8s.io" ||
                                           obj.api_group == "extensions.agents.x-k8s.io");
  if (sandbox) {
    shutdown = r.string(spec, "shutdownTime");
    if (!shutdown) shutdown = r.string(spec->get("lifecycle"), "shutdownTime");
  }
  for (size_t i = first; i < r.out.workloads.size(); ++i) {
    Lifecycle& l = r.out.workloads[i].lifecycle;
    if (job) {
      l.ttl_after_finished = r.integer(job, "ttlSecondsAfterFinished");
      // The Job's deadline bounds the pod like the pod's own activeDeadlineSeconds does.
      if (!l.active_deadline) l.active_deadline = r.integer(job, "activeDeadlineSeconds");
    }
    if (sandbox) l.shutdown_time = shutdown;
  }
  if (obj.kind == "SandboxTemplate" && obj.api_group == "extensions.agents.x-k8s.io") {
    apply_managed_policy(r, obj, first);
  }
}

}  // namespace sbr::k8s
