// A workload's network as it would run (workload.h): its mode, published ports, the gates on
// its egress path and how it is exposed. Plain data, as the rest of the model.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/model/provenance.h"

namespace sbr {

enum class NetMode : std::uint8_t {
  PodNetwork,     // Kubernetes pod network
  EngineDefault,  // podman/docker without --network
  Host,
  None,
  Bridge,
  Named,      // a user-defined network
  Container,  // container:NAME / compose service:NAME
  Namespace,  // ns:/path
  Pasta,
  Slirp4netns,
};

struct PublishedPort {
  std::string spec;       // as written
  std::string host_ip;    // "" when no address is written
  std::string host_port;  // "" when the engine picks
  std::string container_port;
  std::string protocol;       // tcp/udp/sctp
  bool publish_all = false;   // -P
  bool is_host_port = false;  // Kubernetes hostPort
  Provenance from;
};

enum class GateKind : std::uint8_t {
  NetworkPolicy,
  CiliumNetworkPolicy,
  SandboxManagedPolicy,  // agent-sandbox template's managed policy
  NetworkNone,
  InternalNetwork,
  Nft,
  Iptables,
  Squid,
};

enum class DestKind : std::uint8_t {
  Any,  // every destination (0.0.0.0/0, ::/0, a rule with no `to`)
  Cidr,
  Fqdn,
  PodSelector,        // pods selected in the same namespace
  NamespaceSelector,  // pods in selected namespaces ({} = whole cluster)
  Entity,             // Cilium entities: world, cluster, host...
};

struct PortRange {
  std::string protocol;   // "" = any protocol
  std::int32_t from = 0;  // 0 = any port
  std::int32_t to = 0;
};

struct EgressAllow {
  DestKind dest = DestKind::Any;
  std::string value;                // CIDR, FQDN pattern, selector text
  std::vector<std::string> except;  // CIDR exceptions
  std::vector<PortRange> ports;     // empty = every port
  Provenance from;
  // A symbolic destination the script computed from the host's own network configuration:
  // what it was computed from ("the default gateway (`ip route`)", "the container network's
  // subnet (`docker network inspect`)"); empty otherwise. An observation, judged by SB5077.
  std::string host_subnet_from{};
};

// Where a ruleset sits, which decides whose traffic it sees: a bridged container's packets
// cross the host's FORWARD hook (DOCKER-USER for docker), not its OUTPUT; rules loaded inside a
// container's own network namespace see that container's traffic at OUTPUT.
enum class GateHook : std::uint8_t {
  None,         // not a ruleset (policies, networks, proxies)
  Output,       // OUTPUT of the namespace the script runs in (the host for a launcher)
  Forward,      // FORWARD / DOCKER-USER: traffic of bridged containers
  NetnsOutput,  // OUTPUT inside a container's namespace, entered from the host (nsenter, exec)
};

// One control on the workload's egress path. For Kubernetes, each NetworkPolicy that selects
// the pod with egress contributes one gate; the union of their allows is what passes.
struct EgressGate {
  GateKind kind = GateKind::NetworkPolicy;
  std::string name;
  bool denies_v4 = false;  // default-deny for IPv4
  bool denies_v6 = false;
  std::vector<EgressAllow> allows;
  bool removable_by_workload = false;  // NET_ADMIN kept, general sudo
  Provenance from;
  GateHook hook = GateHook::None;
  // The script that loads the ruleset drops the capability bounding set before it hands over
  // (setpriv --bounding-set, capsh --drop): NET_ADMIN given for setup cannot be regained.
  bool setup_caps_dropped = false;
  Maybe<bool> connect_restricted;  // squid: `http_access deny CONNECT !SSL_ports` before allows
  // A default deny written only on a non-default path of the script (`if [[ -n $ALLOW ]]`):
  // where it is. The gate then does not deny by default.
  std::optional<Provenance> switched_deny;
  // Rules loaded with `podman|docker exec CTR ...`: the container whose namespace holds them
  // (link_gates links the gate to CTR and to workloads sharing its network namespace).
  std::string exec_container{};
  // Files the gate reads its lists from, as paths in the gate's container (squid `acl NAME
  // dstdomain "/etc/squid/allowlist.txt"`), and the repository files they are, where a bind
  // mount of the proxy's container puts them there (link_gates).
  std::vector<Fact<std::string>> list_files{};
  std::vector<std::string> list_repo_files{};
};

enum class ExposureKind : std::uint8_t { NodePort, LoadBalancer, ExternalIPs, Ingress };
struct Exposure {
  ExposureKind kind = ExposureKind::NodePort;
  std::string name;  // Service or Ingress name
  Provenance from;   // the `type:` line, the externalIPs line, the Ingress backend
  std::vector<Related> via;
};

struct Network {
  Maybe<NetMode> mode;
  std::string mode_arg;  // network name, container name...
  // Modes a launcher sets on other paths of its script (`mode` holds the default path's).
  std::vector<Fact<NetMode>> mode_alternatives;
  Maybe<bool> host_network;
  Maybe<bool> host_pid;
  Maybe<bool> host_ipc;
  Maybe<bool> host_uts;
  Maybe<std::string> dns_policy;
  std::vector<PublishedPort> ports;
  bool policies_apply = true;  // false for hostNetwork pods
  std::vector<EgressGate> egress;
  bool ingress_default_deny = false;
  std::vector<Related> ingress_policies;
  std::vector<Exposure> exposures;
  std::vector<Fact<std::string>> host_loopback;  // host loopback reachable: how
  // What sets this namespace up from inside that sbreview could not read: a sidecar that joins
  // it holding NET_ADMIN and runs a file nothing in the input fills (engine::attach_gates).
  // A ruleset it loads was not seen, so egress is judged without it.
  std::vector<Fact<std::string>> unseen_setup;
};

}  // namespace sbr
