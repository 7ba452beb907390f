// The effective egress posture of a workload: which gates are on its path, whether together
// they deny by default in each address family, and which of their allows open the way to any
// destination, to DNS anywhere, or to metadata and private ranges. Written over the model's
// gates, so Kubernetes policies and launcher gates are judged by the same rules.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analyzer/engine/cidr.h"
#include "analyzer/model/workload.h"

namespace sbr::engine {

struct AllowRef {
  const EgressGate* gate = nullptr;
  const EgressAllow* allow = nullptr;
};

struct SensitiveAllow {
  AllowRef ref;
  std::vector<SensitiveRange> reached;
};

struct EgressPosture {
  // Nothing leaves at all (--network none, a NetworkNone gate): no allow matters.
  bool closed = false;
  Provenance closed_from;
  // Some gate on the path denies by default in this family.
  bool denies_v4 = false;
  bool denies_v6 = false;
  std::vector<const EgressGate*> gates;     // gates on the path, in model order
  std::vector<const EgressGate*> bypassed;  // policies that do not apply (hostNetwork, kube play)
  // Policies are additive: the union of every gate's allows is what passes.
  std::vector<AllowRef> any_destination;  // every address, on more than DNS
  std::vector<AllowRef> dns_to_any;       // every address, port 53 only
  std::vector<SensitiveAllow> sensitive;  // metadata / private ranges left reachable
  // Destinations the script computed from the host's own network (the default gateway's
  // subnet, the container network's CIDR), on more than DNS: host services and neighbours.
  std::vector<AllowRef> host_subnet;

  bool denies_by_default() const { return closed || (denies_v4 && denies_v6); }
};

EgressPosture egress_posture(const Workload& w);
// One gate judged on its own, as written: no workload links to it, so nothing else on a path
// adds a deny or bypasses it (an "unlinked gate").
EgressPosture gate_posture(const EgressGate& g);
// Fills the allow lists of `p` from its gates (both postures above end with this).
void classify_allows(EgressPosture& p);

// Kubernetes-style policies: they select pods and do not apply to hostNetwork pods.
bool is_policy_gate(GateKind k);
// Every port range is 53 (TCP or UDP). Empty ranges or port 0 mean every port: not DNS-only.
bool is_dns_only(const std::vector<PortRange>& ports);
// No `to`, 0.0.0.0/0 or ::/0 not excepted away, Cilium world/all, an FQDN pattern of `*`.
bool allows_any_destination(const EgressAllow& a);
// "TCP 443, UDP 53", "all ports": for messages and fact paths.
std::string describe_ports(const std::vector<PortRange>& ports);

}  // namespace sbr::engine
