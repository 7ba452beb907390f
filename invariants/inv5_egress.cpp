// Invariant 5, egress: something must deny by default in both address families, and what the
// union of allows lets through must not be "everywhere", cloud metadata or private space.
#include <fmt/format.h>

#include "analyzer/engine/egress.h"
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
    r.at = is_kubernetes(w) ? pod_anchor(w) : object_anchor(w);
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

void check_default_deny(const Workload& w, const engine::EgressPosture& p,
                        const std::vector<engine::SecretInside>& secrets, PodOnce& once,
                        Findings& out) {
  if (p.denies_by_default()) return;
  OpenReason r = why_open(w, p);
  RuleId id = secrets.empty() ? rule::egress_not_default_deny : rule::egress_open_with_secrets;
  if (!once.first(w, id)) return;
  std::string msg =
      secrets.empty()
          ? fmt::format("{}: egress is not denied by default: {}", describe(w), r.text)
          : fmt::format("{}: egress is not denied by default while secrets are inside ({}): {}",
                        describe(w), list_secrets(secrets), r.text);
  Finding f = make(w, id, std::move(msg), r.at, "egress:default-deny");
  f.related = std::move(r.related);
  add_secret_related(f, secrets);
  out.add(std::move(f));
}

void check_allows(const Workload& w, const engine::EgressPosture& p,
                  const std::vector<engine::SecretInside>& secrets, PodOnce& once, Findings& out) {
  for (const auto& ref : p.any_destination) {
    RuleId id = secrets.empty() ? rule::egress_allows_any_destination
                                : rule::egress_allows_any_with_secrets;
    std::string fact = allow_fact(ref);
    if (!once.first(w, id, fact)) continue;
    std::string what =
        fmt::format("{} allows egress to {} on {}", describe_gate(*ref.gate),
                    describe_destination(*ref.allow), engine::describe_ports(ref.allow->ports));
    std::string msg =
        secrets.empty()
            ? fmt::format(
                  "{}: {}; the code inside can reach any address, and since allows add "
                  "up no other policy takes this back",
                  describe(w), what)
            : fmt::format("{}: {} while secrets are inside ({}): the code can send them anywhere",
                          describe(w), what, list_secrets(secrets));
    Finding f = make(w, id, std::move(msg), ref.allow->from, fact);
    f.related.push_back({ref.gate->from.at, describe_gate(*ref.gate)});
    add_secret_related(f, secrets);
    out.add(std::move(f));
  }
  for (const auto& s : p.sensitive) {
    std::string fact = allow_fact(s.ref);
    if (!once.first(w, rule::egress_reaches_metadata_or_private_ranges, fact)) continue;
    std::string metadata, priv;
    for (const auto& r : s.reached) {
      std::string& list = r.metadata ? metadata : priv;
      list += (list.empty() ? "" : ", ") + std::string(r.cidr);
    }
    std::string reached;
    if (!metadata.empty()) reached = "cloud metadata (" + metadata + ")";
    if (!priv.empty())
      reached += (reached.empty() ? "" : " and ") + ("private ranges (" + priv + ")");
    Finding f = make(w, rule::egress_reaches_metadata_or_private_ranges,
                     fmt::format("{}: {} allows egress to {}, which reaches {} not covered by an "
                                 "`except`",
                                 describe(w), describe_gate(*s.ref.gate),
                                 describe_destination(*s.ref.allow), reached),
                     s.ref.allow->from, fact);
    f.related.push_back({s.ref.gate->from.at, describe_gate(*s.ref.gate)});
    out.add(std::move(f));
  }
  for (const auto& ref : p.dns_to_any) {
    std::string fact = allow_fact(ref);
    if (!once.first(w, rule::dns_to_any_address, fact)) continue;
    Finding f =
        make(w, rule::dns_to_any_address,
             fmt::format("{}: {} allows port 53 to {}: the code can use any resolver, "
                         "and tunnel data through one it runs itself; allow DNS only to "
                         "the cluster resolver",
                         describe(w), describe_gate(*ref.gate), describe_destination(*ref.allow)),
             ref.allow->from, fact);
    f.related.push_back({ref.gate->from.at, describe_gate(*ref.gate)});
    out.add(std::move(f));
  }
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
    auto secrets = engine::secrets_inside(w, model.intended_secrets);
    check_default_deny(w, p, secrets, once, out);
    check_allows(w, p, secrets, once, out);
    check_dns_policy(w, once, out);
  }
}

}  // namespace sbr::inv
