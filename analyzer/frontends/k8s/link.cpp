// Resolves Kubernetes objects across files onto the workloads they shape. Objects without
// metadata.namespace share the namespace they are deployed to, so "" matches "" only.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <string>
#include <unordered_set>

#include "analyzer/frontends/k8s/k8s_frontend.h"
#include "analyzer/frontends/k8s/reader.h"
#include "analyzer/frontends/k8s/service_selection.h"

namespace sbr {
namespace k8s {

bool selector_matches(const LabelSelector& s, const std::map<std::string, std::string>& labels) {
  if (!s.present) return false;
  for (const auto& [k, v] : s.match_labels) {
    auto it = labels.find(k);
    if (it == labels.end() || it->second != v) return false;
  }
  for (const auto& e : s.match_expressions) {
    auto it = labels.find(e.key);
    bool has = it != labels.end();
    bool in = has && std::find(e.values.begin(), e.values.end(), it->second) != e.values.end();
    if (e.op == "In" && !in) return false;
    if (e.op == "NotIn" && in) return false;
    if (e.op == "Exists" && !has) return false;
    if (e.op == "DoesNotExist" && has) return false;
  }
  return true;
}

namespace {

std::string selector_text(const LabelSelector& s) {
  if (s.match_labels.empty() && s.match_expressions.empty()) return "{}";
  std::string out;
  for (const auto& [k, v] : s.match_labels) out += (out.empty() ? "" : ",") + k + "=" + v;
  for (const auto& e : s.match_expressions) out += (out.empty() ? "" : ",") + e.key + " " + e.op;
  return out;
}

EgressAllow allow_of(const PolicyPeer& p, const std::vector<PortRange>& ports) {
  EgressAllow a;
  a.ports = ports;
  a.from = p.from;
  if (p.any) {
    a.dest = DestKind::Any;
    a.value = p.entity.empty() ? "*" : p.entity;
  } else if (!p.cidr.empty()) {
    a.dest = DestKind::Cidr;
    a.value = p.cidr;
    a.except = p.except;
  } else if (!p.fqdn.empty()) {
    a.dest = DestKind::Fqdn;
    a.value = p.fqdn;
  } else if (!p.entity.empty()) {
    a.dest = DestKind::Entity;
    a.value = p.entity;
  } else if (p.namespace_selector.present) {
    a.dest = DestKind::NamespaceSelector;
    a.value = selector_text(p.namespace_selector) +
              (p.pod_selector.present ? " pods " + selector_text(p.pod_selector) : "");
  } else {
    a.dest = DestKind::PodSelector;
    a.value = selector_text(p.pod_selector);
  }
  return a;
}

bool same_ns(const std::string& a, const std::string& b) {
  return a == b;
}

// A chart rendered with a switch flipped is a cluster of its own: its objects shape only the
// workloads of that render, and the default render's objects of the templates it re-rendered
// do not shape them (those of the templates it did not re-render do).
bool visible(const Model& m, const ObjectRef& o, const Workload& w) {
  const Condition& oc = o.from.condition();
  const Condition& wc = w.object_from.condition();
  if (!oc.always()) return oc == wc && o.root == w.id.render_root;
  if (wc.always() || o.root != w.id.render_root) return true;
  auto replaced = m.switch_replaces.find(w.id.render_root + '\x1f' + wc.text);
  return replaced == m.switch_replaces.end() || replaced->second.count(o.source) == 0;
}

void link_policies(Model& m, Workload& w) {
  for (const auto& p : m.cluster.network_policies) {
    if (!visible(m, p.ref, w)) continue;
    bool cluster_wide = p.ref.kind == "CiliumClusterwideNetworkPolicy";
    if (!cluster_wide && !same_ns(p.ref.ns, w.id.ns)) continue;
    if (!selector_matches(p.pod_selector, w.pod_labels)) continue;
    if (p.has_egress_type) w.network.egress.push_back(egress_gate_of(p));
    if (p.has_ingress_type) {
      w.network.ingress_default_deny = true;
      w.network.ingress_policies.push_back(
          {p.ref.from.at,
           fmt::format("{} {} selects this pod for ingress", p.ref.kind, p.ref.name)});
    }
  }
}

void link_exposures(const Model& m, const ServiceSelection& selection, Workload& w) {
  if (w.pod_labels.empty()) return;
  for (std::size_t si : selection.selecting(w.pod_labels)) {
    const ServiceObject& s = m.cluster.services[si];
    if (!visible(m, s.ref, w) || !same_ns(s.ref.ns, w.id.ns)) continue;
    Related via{s.selector_from.at, fmt::format("Service {} selects this pod", s.ref.name)};
    if (s.type == "NodePort" || s.type == "LoadBalancer") {
      w.network.exposures.push_back(
          {s.type == "NodePort" ? ExposureKind::NodePort : ExposureKind::LoadBalancer,
           s.ref.name,
           s.type_from,
           {via}});
    }
    if (!s.external_ips.empty()) {
      w.network.exposures.push_back(
          {ExposureKind::ExternalIPs, s.ref.name, s.external_ips_from, {via}});
    }
    for (const auto& ing : m.cluster.ingresses) {
      if (!visible(m, ing.ref, w) || !same_ns(ing.ref.ns, s.ref.ns)) continue;
      for (const auto& b : ing.backends) {
        if (b.service != s.ref.name) continue;
        w.network.exposures.push_back(
            {ExposureKind::Ingress,
             ing.ref.name,
             b.from,
             {via, {s.ref.from.at, fmt::format("Service {} routes to this pod", s.ref.name)}}});
      }
    }
  }
}

// What a role grants, apart from where it is written: copies of one role in many render roots
// (values files, flipped switches) or many rendered baselines grant the same thing once. Every
// workload was linked to every copy through every copy of its binding: 7 GB for one repository.
std::string role_signature(const RoleObject& role) {
  std::string sig = fmt::format("{}\x1f{}\x1f{}", role.ref.kind,
                                role.ref.kind == "Role" ? role.ref.ns : "", role.ref.name);
  for (const PolicyRule& rule : role.rules) {
    for (const auto* list :
         {&rule.verbs, &rule.resources, &rule.api_groups, &rule.resource_names}) {
      sig += '\x1e';
      for (const std::string& x : *list) sig += x + '\x1f';
    }
    sig += '\x1d';
  }
  return sig;
}

void link_rbac(const Model& m, const std::vector<std::string>& role_sigs, Workload& w) {
  ServiceAccess& sa = w.service;
  std::unordered_set<std::string> granted;  // subject kind + role signature
  for (const auto& obj : m.cluster.service_accounts) {
    if (!visible(m, obj.ref, w)) continue;
    if (obj.ref.name == sa.account && same_ns(obj.ref.ns, w.id.ns)) {
      sa.account_in_input = true;
      sa.account_from = obj.ref.from;
      sa.account_automount = obj.automount;
    }
  }
  // The workload's own file or render root first, so that a grant points at its own copy.
  std::vector<const RoleBindingObject*> bindings;
  for (const auto& b : m.cluster.bindings) bindings.push_back(&b);
  std::stable_partition(bindings.begin(), bindings.end(), [&](const RoleBindingObject* b) {
    return b->ref.root == w.id.render_root;
  });
  for (const RoleBindingObject* bp : bindings) {
    const RoleBindingObject& b = *bp;
    if (!visible(m, b.ref, w)) continue;
    bool bound = false;
    Provenance subject_from;
    std::string subject_kind;
    for (const auto& s : b.subjects) {
      std::string ns = s.ns.empty() ? b.ref.ns : s.ns;
      bool match = (s.kind == "ServiceAccount" && s.name == sa.account && same_ns(ns, w.id.ns)) ||
                   (s.kind == "Group" &&
                    (s.name == "system:serviceaccounts" || s.name == "system:authenticated" ||
                     s.name == "system:serviceaccounts:" + w.id.ns));
      if (match && !bound) {
        bound = true;
        subject_from = s.from;
        subject_kind = s.kind;
      }
    }
    if (!bound) continue;
    for (std::size_t r = 0; r < m.cluster.roles.size(); ++r) {
      const RoleObject& role = m.cluster.roles[r];
      if (role.ref.kind != b.role_kind || role.ref.name != b.role_name) continue;
      if (role.ref.kind == "Role" && !same_ns(role.ref.ns, b.ref.ns)) continue;
      if (!visible(m, role.ref, w)) continue;
      if (!granted.insert(subject_kind + '\x1c' + role_sigs[r]).second) continue;
      for (const auto& rule : role.rules) {
        RbacGrant g;
        g.role = role.ref.kind == "Role" ? fmt::format("Role/{}/{}", role.ref.ns, role.ref.name)
                                         : "ClusterRole/" + role.ref.name;
        g.verbs = rule.verbs;
        g.resources = rule.resources;
        g.api_groups = rule.api_groups;
        g.resource_names = rule.resource_names;
        g.subject_kind = subject_kind;
        g.rule_from = rule.from;
        g.binding_from = subject_from;
        sa.grants.push_back(std::move(g));
      }
    }
  }
}

void apply_limit_range(const Model& m, Workload& w) {
  for (const auto& lr : m.cluster.limit_ranges) {
    if (!visible(m, lr.ref, w) || !same_ns(lr.ref.ns, w.id.ns)) continue;
    Resources& r = w.resources;
    auto fill = [&](Maybe<std::string>& field, const std::map<std::string, Fact<std::string>>& src,
                    const char* key) {
      if (field) return;
      auto it = src.find(key);
      if (it == src.end()) return;
      field = it->second;
      r.defaults_from_limit_range = true;
    };
    fill(r.memory_limit, lr.default_limits, "memory");
    fill(r.cpu_limit, lr.default_limits, "cpu");
    fill(r.ephemeral_limit, lr.default_limits, "ephemeral-storage");
    fill(r.memory_request, lr.default_requests, "memory");
    fill(r.cpu_request, lr.default_requests, "cpu");
  }
}

}  // namespace

EgressGate egress_gate_of(const NetworkPolicyObject& p) {
  EgressGate g;
  g.kind = p.kind;
  g.name = fmt::format("{} {}{}", p.ref.kind, p.ref.ns.empty() ? "" : p.ref.ns + "/", p.ref.name);
  g.denies_v4 = g.denies_v6 = true;
  g.from = p.ref.from;
  for (const auto& rule : p.egress) {
    if (rule.peers.empty()) {
      PolicyPeer any;
      any.any = true;
      any.from = rule.from;
      g.allows.push_back(allow_of(any, rule.ports));
      continue;
    }
    for (const auto& peer : rule.peers) g.allows.push_back(allow_of(peer, rule.ports));
  }
  return g;
}

}  // namespace k8s

void link_kubernetes(Model& model) {
  std::vector<std::string> role_sigs;
  role_sigs.reserve(model.cluster.roles.size());
  for (const RoleObject& role : model.cluster.roles) role_sigs.push_back(k8s::role_signature(role));
  const ServiceSelection services(model);
  for (Workload& w : model.workloads) {
    if (w.engine != Engine::Kubelet && w.engine != Engine::PodmanKubePlay) continue;
    if (w.runtime_class) {
      // The RuntimeClass of that name written with the workload (its file or render root)
      // when there is one, else the last one it sees: two roots of one repository may
      // target different clusters that define the name differently.
      const RuntimeClassObject* chosen = nullptr;
      for (const auto& rc : model.cluster.runtime_classes) {
        if (rc.ref.name != w.runtime_class->value || !k8s::visible(model, rc.ref, w)) continue;
        bool own = rc.ref.root == w.id.render_root;
        if (chosen == nullptr || own || chosen->ref.root != w.id.render_root) chosen = &rc;
      }
      if (chosen) w.runtime_handler = fact(chosen->handler, chosen->handler_from);
    }
    k8s::link_policies(model, w);
    k8s::link_exposures(model, services, w);
    k8s::link_rbac(model, role_sigs, w);
    k8s::apply_limit_range(model, w);
    for (const auto& ns : model.cluster.namespaces) {
      if (!k8s::visible(model, ns.ref, w)) continue;
      if (!w.id.ns.empty() && ns.ref.name == w.id.ns) w.pod_security = ns.labels;
    }
  }
}

}  // namespace sbr
