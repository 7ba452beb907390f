// Doc-claim predicates about the network: no network, default-deny egress, the proxy as the
// only way out, squid's final deny, loopback publishing. The egress posture is the engine's
// (engine/egress.h), with the gates a launcher loads only on a switched path left out.
#include <fmt/format.h>

#include <algorithm>

#include "analyzer/engine/egress.h"
#include "analyzer/engine/secrets_inside.h"
#include "invariants/common.h"
#include "invariants/doc_claims_parts.h"
#include "invariants/inv5_parts.h"

namespace sbr::inv::claims {
namespace {

bool host_network(const ClaimContext& c, const Workload& w) {
  const auto& h = w.network.host_network;
  return h && h->value && reached_on_path(h->from, c);
}

// Denies by default in both families on the claim's paths: --network none, or gates whose
// loading is on those paths.
bool denies(const ClaimContext& c, const Workload& w, const engine::EgressPosture& p) {
  if (p.closed && (!w.network.mode || w.network.mode->value != NetMode::None ||
                   present_on_path(w.network.mode->from, c))) {
    return true;
  }
  bool v4 = false, v6 = false;
  for (const EgressGate* g : p.gates) {
    if (!present_on_path(g->from, c)) continue;
    v4 = v4 || g->denies_v4;
    v6 = v6 || g->denies_v6;
  }
  return v4 && v6;
}

// Open egress with secrets inside is critical (INVARIANTS.md 5).
bool secrets_inside(const ClaimContext& c, const Workload& w) {
  return !engine::secrets_inside(w, c.model.intended_secrets).empty();
}

Judgement open_egress(const ClaimContext& c, const Workload& w, const engine::EgressPosture& p) {
  if (host_network(c, w)) {
    return contradicted("shares the host's network namespace", w.network.host_network->from,
                        "host networking is set here", true);
  }
  // A sidecar sets the namespace up from a file sbreview could not read: what it loads may be
  // the very gate the document describes.
  if (!w.network.unseen_setup.empty()) {
    return not_checkable(
        fmt::format("{}: its ruleset was not seen", w.network.unseen_setup.front().value));
  }
  bool critical = secrets_inside(c, w);
  std::string with = critical ? " while secrets are inside" : "";
  if (!p.gates.empty()) {
    return contradicted(
        fmt::format("has egress that no gate on its path denies by default{}", with),
        p.gates.front()->from,
        fmt::format("{}: does not deny by default", describe_gate(*p.gates.front())), critical);
  }
  const auto& mode = w.network.mode;
  if (mode && reached_on_path(mode->from, c)) {
    return contradicted(fmt::format("has open egress{} (nothing denies by default)", with),
                        mode->from, "its network, with no gate that denies by default", critical);
  }
  return contradicted(fmt::format("has open egress{} (nothing denies by default)", with),
                      lacks_at(w), "the launch, with the engine's default network", critical);
}

// "Always": a mode on a switched path that leaves the host's namespace open.
std::optional<Judgement> switched_host_mode(const ClaimContext& c, const Workload& w) {
  if (!c.every_path) return std::nullopt;
  for (const Fact<NetMode>& alt : w.network.mode_alternatives) {
    if (alt.value == NetMode::Host) {
      return contradicted("shares the host's network namespace on another path", alt.from,
                          "host networking on this path", true);
    }
  }
  return std::nullopt;
}

bool loopback(const std::string& ip) {
  return ip.rfind("127.", 0) == 0 || ip == "::1" || ip == "[::1]" || ip == "localhost";
}

}  // namespace

Judgement no_network(const ClaimContext& c, const Workload& w, const Claim&) {
  engine::EgressPosture p = engine::egress_posture(w);
  if (p.closed && denies(c, w, p)) {
    if (auto alt = switched_host_mode(c, w)) return *alt;
    return holds();
  }
  if (host_network(c, w) || !denies(c, w, p)) return open_egress(c, w, p);
  // Egress is closed by a gate, not by having no network: the claim is still wrong, but the
  // weakness underneath is not open egress.
  const auto& mode = w.network.mode;
  return contradicted("has a network (egress is filtered by a gate, not absent)",
                      mode ? mode->from : lacks_at(w), "its network");
}

Judgement egress_default_deny(const ClaimContext& c, const Workload& w, const Claim&) {
  engine::EgressPosture p = engine::egress_posture(w);
  if (host_network(c, w) || !denies(c, w, p)) return open_egress(c, w, p);
  if (auto alt = switched_host_mode(c, w)) return *alt;
  return holds();
}

Judgement proxy_deny_all(const ClaimContext& c, const Workload& w, const Claim&) {
  engine::EgressPosture p = engine::egress_posture(w);
  bool seen = false;
  for (const EgressGate* g : p.gates) {
    if (g->kind != GateKind::Squid || !present_on_path(g->from, c)) continue;
    seen = true;
    if (!g->denies_v4) {
      return contradicted(fmt::format("passes every request through {}", describe_gate(*g)),
                          g->from, "the proxy's access rules end open");
    }
  }
  if (seen) return holds();
  return not_applicable("no squid proxy on its egress path");
}

Judgement proxy_only(const ClaimContext& c, const Workload& w, const Claim&) {
  engine::EgressPosture p = engine::egress_posture(w);
  if (host_network(c, w) || !denies(c, w, p)) return open_egress(c, w, p);
  for (const auto* list : {&p.any_destination, &p.host_subnet, &p.dns_to_any}) {
    if (list->empty()) continue;
    const engine::AllowRef& r = list->front();
    return contradicted(
        fmt::format("lets traffic around the proxy ({} allows {}{})", describe_gate(*r.gate),
                    r.allow->value.empty() ? "every destination" : r.allow->value,
                    list == &p.dns_to_any ? " on port 53" : ""),
        r.allow->from, "this rule bypasses the proxy");
  }
  if (auto alt = switched_host_mode(c, w)) return *alt;
  return holds();
}

// "cannot reach the host / cloud metadata / the LAN": open egress reaches all three; a gate's
// allow of a sensitive range (SB5005), of the host's own subnet (SB5077) or a way to the host's
// loopback (SB5052) reaches the one it names.
Judgement no_internal_reach(const ClaimContext& c, const Workload& w, const Claim& claim) {
  engine::EgressPosture p = engine::egress_posture(w);
  bool host = claim.value == "host", metadata = claim.value == "metadata";
  if (host_network(c, w) || !denies(c, w, p)) {
    Judgement j = open_egress(c, w, p);
    // Metadata reachable with open egress is critical by itself (INVARIANTS.md, "Severity").
    j.critical = j.critical || metadata;
    return j;
  }
  for (const engine::SensitiveAllow& s : p.sensitive) {
    if (!present_on_path(s.ref.gate->from, c)) continue;
    for (const engine::SensitiveRange& r : s.reached) {
      // The host and the LAN are private ranges; metadata is its own address.
      if (r.metadata != metadata) continue;
      return contradicted(fmt::format("lets egress reach {} ({} allows {})", r.what,
                                      describe_gate(*s.ref.gate), s.ref.allow->value),
                          s.ref.allow->from, "this allow reaches it", metadata);
    }
  }
  if (!metadata && !p.host_subnet.empty()) {
    const engine::AllowRef& r = p.host_subnet.front();
    return contradicted(fmt::format("lets egress reach the host's own network ({} allows {})",
                                    describe_gate(*r.gate), r.allow->value),
                        r.allow->from, "this allow reaches the host's network");
  }
  for (const Fact<std::string>& f : w.network.host_loopback) {
    if (!host || !reached_on_path(f.from, c)) continue;
    return contradicted(fmt::format("reaches the host's loopback services ({})", f.value), f.from,
                        "the way to the host's loopback");
  }
  if (auto alt = switched_host_mode(c, w)) return *alt;
  return holds();
}

Judgement loopback_publish(const ClaimContext& c, const Workload& w, const Claim&) {
  for (const PublishedPort& port : w.network.ports) {
    if (!reached_on_path(port.from, c)) continue;
    if (port.publish_all) {
      return contradicted("publishes every exposed port on all interfaces (-P)", port.from,
                          "-P binds every interface");
    }
    if (port.is_host_port && !loopback(port.host_ip)) {
      return contradicted(fmt::format("opens hostPort {} on the node", port.host_port), port.from,
                          "hostPort binds the node's interfaces");
    }
    if (!loopback(port.host_ip)) {
      std::string where = port.host_ip.empty() ? "every interface" : port.host_ip;
      return contradicted(
          fmt::format("publishes {} on {}", port.spec, where), port.from,
          port.host_ip.empty() ? "no address: every interface" : "a non-loopback address");
    }
  }
  return holds();
}

}  // namespace sbr::inv::claims
