// Invariant 5, egress: something must deny by default in both address families, and what the
// union of allows lets through must not be "everywhere", cloud metadata or private space.
#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <utility>

#include "analyzer/engine/egress.h"
#include "analyzer/engine/gate_path.h"
#include "analyzer/engine/secrets_inside.h"
#include "generated/rule_ids.h"
#include "invariants/common.h"
#include "invariants/inv5_parts.h"
#include "invariants/pod_once.h"

namespace sbr::inv {
namespace {

// "environment variable A from Secret s, Secret b mounted at /x and 2 more": names only.
std::string list_secrets(const std::vector<engine::SecretInside>& s) {
  std::string out;
  size_t shown = std::min<size_t>(s.size(), 3);
  for (size_t i = 0; i < shown; ++i) out += (i ? "; " : "") + s[i].what;
  if (s.size() > shown) out += fmt::format("; and {} more", s.size() - shown);
  return out;
}

void add_secret_related(Finding& f, const std::vector<engine::SecretInside>& s) {
  for (const auto& x : s) {
    if (x.from.at.valid()) f.related.push_back({x.from.at, x.what});
  }
}

std::string describe_destination(const EgressAllow& a) {
  switch (a.dest) {
    case DestKind::Any:
      return "every destination";
    case DestKind::Cidr:
      return a.except.empty() ? a.value
                              : fmt::format("{} (except {} range{})", a.value, a.except.size(),
                                            a.except.size() == 1 ? "" : "s");
    case DestKind::Entity:
      return "Cilium entity " + a.value;
    case DestKind::Fqdn:
      return "the DNS pattern " + a.value;
    case DestKind::PodSelector:
      return "pods " + a.value;
    case DestKind::NamespaceSelector:
      return "namespaces " + a.value;
  }
  return a.value;
}

std::string allow_fact(const engine::AllowRef& r) {
  return fmt::format("egress:{}:{}:{}", describe_gate(*r.gate), describe_destination(*r.allow),
                     engine::describe_ports(r.allow->ports));
}

// Why nothing denies by default, where to point, and what contributed.
struct OpenReason {
  std::string text;
  Provenance at;
  std::vector<Related> related;
};

OpenReason why_open(const Workload& w, const engine::EgressPosture& p) {
  OpenReason r;
  if (!w.network.policies_apply && (is_kubernetes(w) || !p.bypassed.empty())) {
    std::string ignored =
        p.bypassed.empty()
            ? std::string()
            : fmt::format(
                  " ({}{} select{} it and {} ignored)", describe_gate(*p.bypassed.front()),
                  p.bypassed.size() == 1 ? "" : fmt::format(" and {} more", p.bypassed.size() - 1),
                  p.bypassed.size() == 1 ? "s" : "", p.bypassed.size() == 1 ? "is" : "are");
    r.text =
        "the pod uses the host network, and network policies do not apply to hostNetwork "
        "pods" +
        ignored;
    r.at = w.network.host_network ? w.network.host_network->from : pod_anchor(w);
    for (const auto* g : p.bypassed) r.related.push_back({g->from.at, describe_gate(*g)});
    if (p.gates.empty()) return r;
    r.text += "; the gates that remain do not deny by default either";
    return r;
  }
  if (w.engine == Engine::PodmanKubePlay) {
    r.text = "podman kube play does not enforce network policies";
    if (!p.bypassed.empty())
      r.text += fmt::format(" ({} is ignored)", describe_gate(*p.bypassed.front()));
    r.at = pod_anchor(w);
    for (const auto* g : p.bypassed) r.related.push_back({g->from.at, describe_gate(*g)});
    if (!p.gates.empty()) r.text += "; the gates that remain do not deny by default either";
    return r;
  }
  if (p.gates.empty()) {
    r.text = is_kubernetes(w)
                 ? "no NetworkPolicy selects the pod for egress, so every destination is reachable"
                 : "nothing on its path denies egress by default (no --network none, no internal "
                   "network, no drop-by-default ruleset)";
    r.at = is_kubernetes(w) ? pod_anchor(w) : container_anchor(w);  // devcontainer: runArgs
    return r;
  }
  std::string family = !p.denies_v4 && !p.denies_v6 ? "IPv4 or IPv6"
                       : !p.denies_v4               ? "IPv4"
                                                    : "IPv6";
  r.text = fmt::format("no gate on its path denies {} egress by default", family);
  r.at = p.gates.front()->from;
  for (const auto* g : p.gates) r.related.push_back({g->from.at, describe_gate(*g)});
  return r;
}

// IPv4 is denied and the only gap is IPv6 left open by a ruleset that denies IPv4 alone:
// SB5072 reports that fact at the ruleset (one fact, one finding). When secrets are inside,
// SB5002 still speaks: it says what the open family can carry out.
bool only_v6_of_v4_ruleset(const engine::EgressPosture& p) {
  if (p.closed || !p.denies_v4 || p.denies_v6) return false;
  return std::any_of(p.gates.begin(), p.gates.end(), [](const EgressGate* g) {
    return (g->kind == GateKind::Nft || g->kind == GateKind::Iptables) && g->denies_v4 &&
           !g->denies_v6;
  });
}

void check_default_deny(const Workload& w, const engine::EgressPosture& p,
                        const std::vector<engine::SecretInside>& secrets, PodOnce& once,
                        Findings& out) {
  if (p.denies_by_default()) return;
  RuleId id = secrets.empty() ? rule::egress_not_default_deny : rule::egress_open_with_secrets;
  if (id == rule::egress_not_default_deny && only_v6_of_v4_ruleset(p)) return;
  OpenReason r = why_open(w, p);
  if (!once.first(w, id)) return;
  std::string msg =
      secrets.empty()
          ? fmt::format("{}: egress is not denied by default: {}", describe(w), r.text)
          : fmt::format("{}: egress is not denied by default while secrets are inside ({}): {}",
                        describe(w), list_secrets(secrets), r.text);
  const auto& unseen = w.network.unseen_setup;
  if (!unseen.empty()) {
    // Said, not assumed away: a sidecar may load a ruleset sbreview could not read.
    msg += fmt::format(" ({}: a ruleset it loads is not judged here)", unseen.front().value);
  }
  Finding f = make(w, id, std::move(msg), r.at, "egress:default-deny");
  f.related = std::move(r.related);
  if (!unseen.empty())
    f.related.push_back({unseen.front().from.at, "sets up this namespace, from a file not read"});
  add_secret_related(f, secrets);
  out.add(std::move(f));
}

// Who the allows are judged for: a workload with the gates on its path, or one gate that no
// analysed workload links to, judged as written (the written severity: without a workload the
// threat class is not known, and the gate is there to hold untrusted code).
struct Subject {
  const Model& model;
  const Workload* w = nullptr;  // null: an unlinked gate
  PodOnce* once = nullptr;
  std::set<std::pair<RuleId, std::string>>* unlinked_seen = nullptr;

  std::string lead(const EgressGate& g) const {
    if (w != nullptr) return fmt::format("{}: {}", describe(*w), describe_gate(g));
    return fmt::format(
        "unlinked gate {} in {} (no analysed launcher or workload uses it; judged as written):",
        describe_gate(g), model.files.path(g.from.at.file));
  }
  bool first(RuleId id, const std::string& fact, const EgressGate& g) const {
    if (w != nullptr) return once->first(*w, id, fact);
    // Gates of different scripts share names ("iptables ruleset ip filter (hook output)").
    return unlinked_seen->insert({id, fact + "\x1f" + std::to_string(g.from.at.file)}).second;
  }
  Finding finding(RuleId id, std::string msg, const Provenance& at, std::string fact) const {
    if (w != nullptr) return make(*w, id, std::move(msg), at, std::move(fact));
    Finding f;
    f.rule_id = id;
    f.message = std::move(msg);
    f.at = at.at;
    f.subject = model.files.path(at.at.file);
    f.fact_path = std::move(fact);
    f.share_trail(at);
    return f;
  }
};

void check_any_destination(const Subject& s, const engine::EgressPosture& p,
                           const std::vector<engine::SecretInside>& secrets, Findings& out) {
  for (const auto& ref : p.any_destination) {
    RuleId id = secrets.empty() ? rule::egress_allows_any_destination
                                : rule::egress_allows_any_with_secrets;
    std::string fact = allow_fact(ref);
    if (!s.first(id, fact, *ref.gate)) continue;
    std::string what =
        fmt::format("{} allows egress to {} on {}", s.lead(*ref.gate),
                    describe_destination(*ref.allow), engine::describe_ports(ref.allow->ports));
    std::string msg =
        secrets.empty()
            ? fmt::format(
                  "{}; the code inside can reach any address, and since allows add "
                  "up no other policy takes this back",
                  what)
            : fmt::format("{} while secrets are inside ({}): the code can send them anywhere", what,
                          list_secrets(secrets));
    Finding f = s.finding(id, std::move(msg), ref.allow->from, fact);
    f.related.push_back({ref.gate->from.at, describe_gate(*ref.gate)});
    add_secret_related(f, secrets);
    out.add(std::move(f));
  }
}

// The engines' default bridge networks a literal range contains: the host's side of the
// sandbox and its neighbours (SB5005 owns literal ranges; SB5077 computed ones).
std::string bridges_inside(const EgressAllow& a) {
  static constexpr std::pair<const char*, const char*> kBridges[] = {
      {"172.17.0.0/16", "docker0 172.17.0.0/16"},
      {"10.88.0.0/16", "podman 10.88.0.0/16"},
  };
  if (a.dest != DestKind::Cidr) return "";
  auto allowed = engine::parse_cidr(a.value);
  if (!allowed || allowed->prefix == 0) return "";  // everything: said already
  std::string out;
  for (const auto& [cidr, name] : kBridges) {
    auto b = engine::parse_cidr(cidr);
    if (b && engine::cidr_contains(*allowed, *b))
      out += (out.empty() ? "" : ", ") + std::string(name);
  }
  if (out.empty()) return "";
  return "; it contains the engines' default bridge network (" + out +
         "), so the host's services and neighbouring containers are reachable";
}

void check_sensitive(const Subject& s, const engine::EgressPosture& p, Findings& out) {
  for (const auto& x : p.sensitive) {
    std::string fact = allow_fact(x.ref);
    if (!s.first(rule::egress_reaches_metadata_or_private_ranges, fact, *x.ref.gate)) continue;
    std::string metadata, priv;
    for (const auto& r : x.reached) {
      std::string& list = r.metadata ? metadata : priv;
      list += (list.empty() ? "" : ", ") + std::string(r.cidr);
    }
    std::string reached;
    if (!metadata.empty()) reached = "cloud metadata (" + metadata + ")";
    if (!priv.empty())
      reached += (reached.empty() ? "" : " and ") + ("private ranges (" + priv + ")");
    Finding f = s.finding(rule::egress_reaches_metadata_or_private_ranges,
                          fmt::format("{} allows egress to {}, which reaches {} not covered by an "
                                      "`except`{}",
                                      s.lead(*x.ref.gate), describe_destination(*x.ref.allow),
                                      reached, bridges_inside(*x.ref.allow)),
                          x.ref.allow->from, fact);
    f.related.push_back({x.ref.gate->from.at, describe_gate(*x.ref.gate)});
    out.add(std::move(f));
  }
}

void check_dns_anywhere(const Subject& s, const engine::EgressPosture& p, Findings& out) {
  for (const auto& ref : p.dns_to_any) {
    std::string fact = allow_fact(ref);
    if (!s.first(rule::dns_to_any_address, fact, *ref.gate)) continue;
    Finding f = s.finding(
        rule::dns_to_any_address,
        fmt::format("{} allows port 53 to {}: the code can use any resolver, and tunnel data "
                    "through one it runs itself; allow DNS only to the cluster resolver",
                    s.lead(*ref.gate), describe_destination(*ref.allow)),
        ref.allow->from, fact);
    f.related.push_back({ref.gate->from.at, describe_gate(*ref.gate)});
    out.add(std::move(f));
  }
}

// SB5077: owns destinations computed from the host's network (the value is symbolic, so
// SB5005 cannot judge it); literal private ranges stay SB5005's (docs/egress-gates.md).
void check_host_subnet(const Subject& s, const engine::EgressPosture& p, Findings& out) {
  for (const auto& ref : p.host_subnet) {
    std::string fact = allow_fact(ref);
    if (!s.first(rule::egress_allows_host_subnet, fact, *ref.gate)) continue;
    Finding f = s.finding(
        rule::egress_allows_host_subnet,
        fmt::format("{} allows egress on {} to an address computed from {}: that range is the "
                    "host's own network, so the code reaches the host's services and its "
                    "neighbours; allow only the gateway's DNS port, or named hosts",
                    s.lead(*ref.gate), engine::describe_ports(ref.allow->ports),
                    ref.allow->host_subnet_from),
        ref.allow->from, fact);
    f.related.push_back({ref.gate->from.at, describe_gate(*ref.gate)});
    out.add(std::move(f));
  }
}

void check_allows(const Subject& s, const engine::EgressPosture& p,
                  const std::vector<engine::SecretInside>& secrets, Findings& out) {
  check_any_destination(s, p, secrets, out);
  check_sensitive(s, p, out);
  check_dns_anywhere(s, p, out);
  check_host_subnet(s, p, out);
}

void check_dns_policy(const Workload& w, PodOnce& once, Findings& out) {
  const auto& d = w.network.dns_policy;
  if (!d || d->value != "Default" || !is_kubernetes(w) || !once.first(w, rule::dns_policy_default))
    return;
  out.add(make(w, rule::dns_policy_default,
               fmt::format("{}: dnsPolicy Default resolves names with the node's resolver, "
                           "outside the cluster DNS that egress policies expect; use ClusterFirst",
                           describe(w)),
               d->from, "dnsPolicy"));
}

}  // namespace

void check_egress(const Model& model, Findings& out) {
  PodOnce once;
  for (const Workload* wp : main_containers_first(model)) {
    const Workload& w = *wp;
    engine::EgressPosture p = engine::egress_posture(w);
    // The secrets of a program of the platform (a database's password, a proxy's upstream
    // credentials) are its own: no prompt injection runs inside to send them out, so its open
    // egress is SB5001/SB5003 at its class's severity, not the critical twin.
    auto secrets = w.threat == ThreatClass::UntrustedInput
                       ? std::vector<engine::SecretInside>{}
                       : engine::secrets_inside(w, model.intended_secrets);
    check_default_deny(w, p, secrets, once, out);
    check_allows(Subject{model, &w, &once, nullptr}, p, secrets, out);
    check_dns_policy(w, once, out);
  }
  // Gates no workload links to still hold (or fail to hold) whatever later runs behind them.
  std::set<std::pair<RuleId, std::string>> unlinked_seen;
  for (const auto& u : engine::unlinked_gates(model)) {
    engine::EgressPosture p = engine::gate_posture(*u.gate);
    check_allows(Subject{model, nullptr, nullptr, &unlinked_seen}, p, {}, out);
  }
}

}  // namespace sbr::inv
