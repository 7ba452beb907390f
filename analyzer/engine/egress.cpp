#include "analyzer/engine/egress.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include "analyzer/support/strings.h"

namespace sbr::engine {
namespace {

bool any_entity(const std::string& v) {
  std::string e = lower(v);
  return e == "world" || e == "all" || e == "world-ipv4" || e == "world-ipv6";
}

std::vector<SensitiveRange> everything_sensitive() {
  return sensitive_ranges();
}

}  // namespace

bool is_policy_gate(GateKind k) {
  return k == GateKind::NetworkPolicy || k == GateKind::CiliumNetworkPolicy ||
         k == GateKind::SandboxManagedPolicy;
}

bool is_dns_only(const std::vector<PortRange>& ports) {
  if (ports.empty()) return false;
  for (const auto& p : ports) {
    int to = p.to == 0 ? p.from : p.to;
    if (p.from != 53 || to != 53) return false;
  }
  return true;
}

bool allows_any_destination(const EgressAllow& a) {
  switch (a.dest) {
    case DestKind::Any:
      return true;
    case DestKind::Entity:
      return any_entity(a.value);
    case DestKind::Fqdn:
      return a.value == "*" || a.value == "**";
    case DestKind::Cidr: {
      auto c = parse_cidr(a.value);
      if (!c || c->prefix != 0) return false;
      std::vector<Cidr> cover;
      for (const auto& e : a.except) {
        if (auto x = parse_cidr(e)) cover.push_back(*x);
      }
      return !cidr_covered_by(*c, cover);
    }
    case DestKind::PodSelector:
    case DestKind::NamespaceSelector:
      return false;
  }
  return false;
}

std::string describe_ports(const std::vector<PortRange>& ports) {
  if (ports.empty()) return "all ports";
  std::string out;
  for (const auto& p : ports) {
    if (!out.empty()) out += ", ";
    std::string proto = p.protocol.empty() ? "" : p.protocol + " ";
    if (p.from == 0) {
      out += proto + "any port";
    } else if (p.to != 0 && p.to != p.from) {
      out += fmt::format("{}{}-{}", proto, p.from, p.to);
    } else {
      out += fmt::format("{}{}", proto, p.from);
    }
  }
  return out;
}

EgressPosture egress_posture(const Workload& w) {
  EgressPosture p;
  if (w.network.mode && w.network.mode->value == NetMode::None) {
    p.closed = true;
    p.closed_from = w.network.mode->from;
  }
  for (const auto& g : w.network.egress) {
    // Only the kubelet's network plugin enforces policies: not for hostNetwork pods, and not
    // under podman kube play, which accepts the objects and ignores them.
    if (is_policy_gate(g.kind) && (!w.network.policies_apply || w.engine != Engine::Kubelet)) {
      p.bypassed.push_back(&g);
      continue;
    }
    p.gates.push_back(&g);
    if (g.kind == GateKind::NetworkNone) {
      p.closed = true;
      p.closed_from = g.from;
    }
    p.denies_v4 = p.denies_v4 || g.denies_v4;
    p.denies_v6 = p.denies_v6 || g.denies_v6;
  }
  classify_allows(p);
  return p;
}

EgressPosture gate_posture(const EgressGate& g) {
  EgressPosture p;
  p.gates.push_back(&g);
  p.closed = g.kind == GateKind::NetworkNone;
  if (p.closed) p.closed_from = g.from;
  p.denies_v4 = g.denies_v4;
  p.denies_v6 = g.denies_v6;
  classify_allows(p);
  return p;
}

void classify_allows(EgressPosture& p) {
  if (p.closed) return;
  for (const EgressGate* g : p.gates) {
    // A gate that passes everything by default makes its allows moot: what it does not
    // allow passes anyway, and the missing default deny is the finding.
    if (!g->denies_v4 && !g->denies_v6) continue;
    for (const auto& a : g->allows) {
      AllowRef ref{g, &a};
      bool any = allows_any_destination(a);
      bool dns = is_dns_only(a.ports);
      if (any && dns) {
        p.dns_to_any.push_back(ref);
        continue;  // DNS anywhere is its own, lesser finding
      }
      if (any) p.any_destination.push_back(ref);
      std::vector<SensitiveRange> reached;
      if (a.dest == DestKind::Cidr) {
        if (auto c = parse_cidr(a.value)) reached = sensitive_reached(*c, a.except);
      } else if (any) {
        reached = everything_sensitive();
      }
      if (is_policy_gate(g->kind)) {
        // Loopback never leaves the pod's network namespace, so a policy cannot open it.
        std::erase_if(reached, [](const SensitiveRange& r) {
          return std::string_view(r.cidr) == "127.0.0.0/8";
        });
      }
      if (!reached.empty()) p.sensitive.push_back({ref, std::move(reached)});
      // The gateway's resolver is the one DNS server a sandbox is meant to use.
      if (!a.host_subnet_from.empty() && !dns) p.host_subnet.push_back(ref);
    }
  }
}

}  // namespace sbr::engine
