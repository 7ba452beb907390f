// Kubernetes objects that are not workloads but change how one runs: runtime classes, service
// accounts and RBAC, network policies (core and Cilium), limit ranges, namespaces, services,
// ingresses, and ConfigMap/Secret data (scanned for key material).
#include <fmt/format.h>

#include "analyzer/frontends/k8s/reader.h"

namespace sbr::k8s {
namespace {

ObjectRef ref_of(const Reader& r, const ObjectInfo& obj) {
  return ObjectRef{obj.kind, obj.ns, obj.name, r.prov(obj.kind_node), r.path, r.source};
}

std::vector<std::string> strings_of(const Node* n) {
  std::vector<std::string> out;
  if (n && n->is_seq()) {
    for (const Node* i : n->items) {
      if (i->is_scalar()) out.push_back(i->scalar);
    }
  }
  return out;
}

// Ports are integers in NetworkPolicy but quoted strings in Cilium's CRD ("443"); a named port
// ("dns") stays 0, which the checks read as "any port": the conservative reading.
std::int32_t port_number(const Node* n) {
  if (n == nullptr || !n->is_scalar()) return 0;
  std::int32_t v = 0;
  for (char c : n->scalar) {
    if (c < '0' || c > '9' || v > 65535) return 0;
    v = v * 10 + (c - '0');
  }
  return v;
}

std::vector<PortRange> read_ports(const Node* ports) {
  std::vector<PortRange> out;
  if (ports == nullptr || !ports->is_seq()) return out;
  for (const Node* p : ports->items) {
    PortRange pr;
    if (const Node* proto = p->get("protocol")) pr.protocol = proto->scalar;
    pr.from = port_number(p->get("port"));
    pr.to = pr.from;
    if (const Node* end = p->get("endPort")) pr.to = port_number(end);
    out.push_back(pr);
  }
  return out;
}

std::string base64_decode(std::string_view in) {
  auto val = [](char c) -> int {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+' || c == '-') return 62;
    if (c == '/' || c == '_') return 63;
    return -1;
  };
  std::string out;
  int bits = 0, acc = 0;
  for (char c : in) {
    int v = val(c);
    if (v < 0) continue;
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((acc >> bits) & 0xff));
    }
  }
  return out;
}

void read_data(const Reader& r, const ObjectInfo& obj, const char* key, bool base64) {
  const Node* data = obj.root->get(key);
  if (data == nullptr || !data->is_map()) return;
  std::string object =
      fmt::format("{}/{}{}", obj.kind, obj.ns.empty() ? "" : obj.ns + "/", obj.name);
  for (const auto& [k, v] : data->entries) {
    if (!v->is_scalar()) continue;
    r.out.cluster.data.push_back(
        {object, k->scalar, base64 ? base64_decode(v->scalar) : v->scalar, r.prov(v)});
  }
}

void read_network_policy(const Reader& r, const ObjectInfo& obj) {
  const Node* spec = obj.root->get("spec");
  NetworkPolicyObject p;
  p.ref = ref_of(r, obj);
  if (spec == nullptr || !spec->is_map()) {
    r.problem(ProblemKind::InvalidObject, fmt::format("NetworkPolicy {} has no spec", obj.name),
              obj.kind_node);
    return;
  }
  p.pod_selector = read_selector(spec->get("podSelector"));
  p.selector_from = r.prov(spec->key_node("podSelector"));
  if (!p.pod_selector.present) {
    r.problem(ProblemKind::InvalidObject,
              fmt::format("NetworkPolicy {} has no spec.podSelector (required)", obj.name),
              obj.kind_node);
    return;
  }
  p.ingress = read_policy_rules(r, spec->get("ingress"), false);
  p.egress = read_policy_rules(r, spec->get("egress"), true);
  // policyTypes omitted: Ingress always, Egress only when egress rules are written.
  if (const Node* types = spec->get("policyTypes"); types && types->is_seq()) {
    for (const auto& t : strings_of(types)) {
      p.has_ingress_type = p.has_ingress_type || t == "Ingress";
      p.has_egress_type = p.has_egress_type || t == "Egress";
    }
  } else {
    p.has_ingress_type = true;
    p.has_egress_type = spec->get("egress") != nullptr;
  }
  r.out.cluster.network_policies.push_back(std::move(p));
}

// CiliumNetworkPolicy / CiliumClusterwideNetworkPolicy: endpointSelector, egress with
// toFQDNs / toCIDR / toCIDRSet / toEntities / toEndpoints and toPorts. Any egress rule makes
// the selected endpoints default-deny for egress.
void read_cilium_rule(const Reader& r, const Node* spec, NetworkPolicyObject& p) {
  p.pod_selector = read_selector(spec->get("endpointSelector"));
  p.selector_from = r.prov(spec->key_node("endpointSelector"));
  if (const Node* eg = spec->get("egress"); eg && eg->is_seq()) {
    p.has_egress_type = true;
    for (const Node* rule : eg->items) {
      PolicyRuleSet rs;
      rs.from = r.prov(rule);
      if (const Node* tp = rule->get("toPorts"); tp && tp->is_seq()) {
        for (const Node* pp : tp->items) {
          const Node* ports = pp->get("ports");
          if (ports == nullptr || !ports->is_seq()) continue;
          for (const Node* port : ports->items) {
            PortRange pr;
            if (const Node* proto = port->get("protocol"); proto && proto->scalar != "ANY") {
              pr.protocol = proto->scalar;
            }
            pr.from = port_number(port->get("port"));
            pr.to = pr.from;
            rs.ports.push_back(pr);
          }
        }
      }
      if (const Node* f = rule->get("toFQDNs"); f && f->is_seq()) {
        for (const Node* e : f->items) {
          PolicyPeer peer;
          const Node* name = e->get("matchName") ? e->get("matchName") : e->get("matchPattern");
          if (name) peer.fqdn = name->scalar;
          peer.from = r.prov(e);
          rs.peers.push_back(peer);
        }
      }
      for (const char* key : {"toCIDR", "toCIDRSet"}) {
        const Node* list = rule->get(key);
        if (list == nullptr || !list->is_seq()) continue;
        for (const Node* e : list->items) {
          PolicyPeer peer;
          peer.from = r.prov(e);
          if (e->is_scalar()) {
            peer.cidr = e->scalar;
          } else {
            if (const Node* c = e->get("cidr")) peer.cidr = c->scalar;
            peer.except = strings_of(e->get("except"));
          }
          rs.peers.push_back(peer);
        }
      }
      if (const Node* ents = rule->get("toEntities"); ents && ents->is_seq()) {
        for (const Node* e : ents->items) {
          PolicyPeer peer;
          peer.entity = e->scalar;
          peer.any = e->scalar == "world" || e->scalar == "all";
          peer.from = r.prov(e);
          rs.peers.push_back(peer);
        }
      }
      if (const Node* eps = rule->get("toEndpoints"); eps && eps->is_seq()) {
        for (const Node* e : eps->items) {
          PolicyPeer peer;
          peer.pod_selector = read_selector(e);
          peer.from = r.prov(e);
          rs.peers.push_back(peer);
        }
      }
      // A rule of only toPorts allows those ports to every destination.
      if (rs.peers.empty()) {
        PolicyPeer any;
        any.any = true;
        any.from = rs.from;
        rs.peers.push_back(any);
      }
      p.egress.push_back(std::move(rs));
    }
  }
  if (spec->get("ingress")) p.has_ingress_type = true;
}

void read_cilium_policy(const Reader& r, const ObjectInfo& obj) {
  std::vector<const Node*> specs;
  if (const Node* s = obj.root->get("spec")) specs.push_back(s);
  if (const Node* list = obj.root->get("specs"); list && list->is_seq()) {
    for (const Node* s : list->items) specs.push_back(s);
  }
  for (const Node* s : specs) {
    NetworkPolicyObject p;
    p.ref = ref_of(r, obj);
    p.kind = GateKind::CiliumNetworkPolicy;
    read_cilium_rule(r, s, p);
    r.out.cluster.network_policies.push_back(std::move(p));
  }
}

void read_rbac_role(const Reader& r, const ObjectInfo& obj) {
  RoleObject role;
  role.ref = ref_of(r, obj);
  if (const Node* rules = obj.root->get("rules"); rules && rules->is_seq()) {
    for (const Node* rule : rules->items) {
      role.rules.push_back({strings_of(rule->get("verbs")), strings_of(rule->get("resources")),
                            strings_of(rule->get("apiGroups")), r.prov(rule),
                            strings_of(rule->get("resourceNames"))});
    }
  }
  r.out.cluster.roles.push_back(std::move(role));
}

void read_rbac_binding(const Reader& r, const ObjectInfo& obj) {
  RoleBindingObject b;
  b.ref = ref_of(r, obj);
  if (const Node* ref = obj.root->get("roleRef")) {
    if (const Node* k = ref->get("kind")) b.role_kind = k->scalar;
    if (const Node* n = ref->get("name")) b.role_name = n->scalar;
  }
  if (const Node* subjects = obj.root->get("subjects"); subjects && subjects->is_seq()) {
    for (const Node* s : subjects->items) {
      Subject sub;
      if (const Node* k = s->get("kind")) sub.kind = k->scalar;
      if (const Node* n = s->get("name")) sub.name = n->scalar;
      if (const Node* ns = s->get("namespace")) sub.ns = ns->scalar;
      sub.from = r.prov(s);
      b.subjects.push_back(std::move(sub));
    }
  }
  r.out.cluster.bindings.push_back(std::move(b));
}

void read_limit_range(const Reader& r, const ObjectInfo& obj) {
  LimitRangeObject lr;
  lr.ref = ref_of(r, obj);
  const Node* spec = obj.root->get("spec");
  const Node* limits = spec ? spec->get("limits") : nullptr;
  if (limits && limits->is_seq()) {
    for (const Node* l : limits->items) {
      const Node* type = l->get("type");
      if (type == nullptr || type->scalar != "Container") continue;
      for (auto [key, into] :
           {std::pair{"default", &lr.default_limits}, {"defaultRequest", &lr.default_requests}}) {
        const Node* m = l->get(key);
        if (m == nullptr || !m->is_map()) continue;
        for (const auto& [k, v] : m->entries) (*into)[k->scalar] = fact(v->scalar, r.prov(v));
      }
    }
  }
  r.out.cluster.limit_ranges.push_back(std::move(lr));
}

void read_service(const Reader& r, const ObjectInfo& obj) {
  ServiceObject s;
  s.ref = ref_of(r, obj);
  const Node* spec = obj.root->get("spec");
  s.type = "ClusterIP";
  s.type_from = s.ref.from;
  if (spec) {
    if (const Node* t = spec->get("type"); t && t->is_scalar()) {
      s.type = t->scalar;
      s.type_from = r.prov(t);
    }
    s.external_ips = strings_of(spec->get("externalIPs"));
    s.external_ips_from = r.prov(spec->key_node("externalIPs"));
    s.selector = r.string_map(spec->get("selector"));
    s.selector_from = r.prov(spec->key_node("selector"));
  }
  r.out.cluster.services.push_back(std::move(s));
}

void read_ingress(const Reader& r, const ObjectInfo& obj) {
  IngressObject ing;
  ing.ref = ref_of(r, obj);
  auto backend = [&](const Node* b) {
    if (b == nullptr) return;
    const Node* svc = b->get("service");
    const Node* name = svc ? svc->get("name") : b->get("serviceName");
    if (name && name->is_scalar()) ing.backends.push_back({name->scalar, r.prov(name)});
  };
  const Node* spec = obj.root->get("spec");
  if (spec) {
    backend(spec->get("defaultBackend"));
    backend(spec->get("backend"));
    if (const Node* rules = spec->get("rules"); rules && rules->is_seq()) {
      for (const Node* rule : rules->items) {
        const Node* http = rule->get("http");
        const Node* paths = http ? http->get("paths") : nullptr;
        if (paths == nullptr || !paths->is_seq()) continue;
        for (const Node* p : paths->items) backend(p->get("backend"));
      }
    }
  }
  r.out.cluster.ingresses.push_back(std::move(ing));
}

void read_crd(const Reader& r, const ObjectInfo& obj) {
  CrdObject crd;
  crd.ref = ref_of(r, obj);
  if (const Node* spec = obj.root->get("spec")) {
    if (const Node* g = spec->get("group"); g && g->is_scalar()) crd.group = g->scalar;
    const Node* names = spec->get("names");
    if (const Node* k = names ? names->get("kind") : nullptr; k && k->is_scalar()) {
      crd.kind = k->scalar;
    }
  }
  r.out.cluster.crds.push_back(std::move(crd));
}

// Each webhook that calls a Service: that Service's pods parse every admission request.
void read_webhook_configuration(const Reader& r, const ObjectInfo& obj) {
  const Node* hooks = obj.root->get("webhooks");
  if (hooks == nullptr || !hooks->is_seq()) return;
  for (const Node* h : hooks->items) {
    const Node* cc = h->get("clientConfig");
    const Node* svc = cc ? cc->get("service") : nullptr;
    if (svc == nullptr || !svc->is_map()) continue;
    WebhookObject w;
    w.ref = ref_of(r, obj);
    if (const Node* n = h->get("name"); n && n->is_scalar()) w.webhook = n->scalar;
    if (const Node* n = svc->get("name"); n && n->is_scalar()) w.service_name = n->scalar;
    if (const Node* n = svc->get("namespace"); n && n->is_scalar()) w.service_ns = n->scalar;
    w.service_from = r.prov(cc->key_node("service"));
    if (!w.service_name.empty()) r.out.cluster.webhooks.push_back(std::move(w));
  }
}

}  // namespace

std::vector<PolicyRuleSet> read_policy_rules(const Reader& r, const Node* list, bool egress) {
  std::vector<PolicyRuleSet> out;
  if (list == nullptr || !list->is_seq()) return out;
  for (const Node* rule : list->items) {
    PolicyRuleSet rs;
    rs.from = r.prov(rule);
    rs.ports = read_ports(rule->is_map() ? rule->get("ports") : nullptr);
    const Node* peers = rule->is_map() ? rule->get(egress ? "to" : "from") : nullptr;
    if (peers && peers->is_seq()) {
      for (const Node* p : peers->items) {
        PolicyPeer peer;
        peer.from = r.prov(p);
        if (const Node* ip = p->get("ipBlock")) {
          if (const Node* c = ip->get("cidr")) peer.cidr = c->scalar;
          peer.except = strings_of(ip->get("except"));
        }
        peer.pod_selector = read_selector(p->get("podSelector"));
        peer.namespace_selector = read_selector(p->get("namespaceSelector"));
        rs.peers.push_back(std::move(peer));
      }
    }
    out.push_back(std::move(rs));
  }
  return out;
}

bool read_cluster_object(const Reader& r, const ObjectInfo& obj) {
  const std::string& k = obj.kind;
  const std::string& g = obj.api_group;
  if (k == "RuntimeClass" && g == "node.k8s.io") {
    RuntimeClassObject rc;
    rc.ref = ref_of(r, obj);
    if (const Node* h = obj.root->get("handler"); h && h->is_scalar()) {
      rc.handler = h->scalar;
      rc.handler_from = r.prov(h);
    } else {
      r.problem(ProblemKind::InvalidObject,
                fmt::format("RuntimeClass {} has no handler (required)", obj.name), obj.kind_node);
      return true;
    }
    r.out.cluster.runtime_classes.push_back(std::move(rc));
  } else if (k == "ServiceAccount" && g.empty()) {
    r.out.cluster.service_accounts.push_back(
        {ref_of(r, obj), r.boolean(obj.root, "automountServiceAccountToken")});
  } else if ((k == "Role" || k == "ClusterRole") && g == "rbac.authorization.k8s.io") {
    read_rbac_role(r, obj);
  } else if ((k == "RoleBinding" || k == "ClusterRoleBinding") &&
             g == "rbac.authorization.k8s.io") {
    read_rbac_binding(r, obj);
  } else if (k == "NetworkPolicy" && g == "networking.k8s.io") {
    read_network_policy(r, obj);
  } else if ((k == "CiliumNetworkPolicy" || k == "CiliumClusterwideNetworkPolicy") &&
             g == "cilium.io") {
    read_cilium_policy(r, obj);
  } else if (k == "LimitRange" && g.empty()) {
    read_limit_range(r, obj);
  } else if (k == "Namespace" && g.empty()) {
    NamespaceObject ns;
    ns.ref = ref_of(r, obj);
    ns.ref.ns = obj.name;
    const Node* meta = obj.root->get("metadata");
    auto labels = r.string_map(meta ? meta->get("labels") : nullptr);
    ns.labels.enforce = labels["pod-security.kubernetes.io/enforce"];
    ns.labels.audit = labels["pod-security.kubernetes.io/audit"];
    ns.labels.warn = labels["pod-security.kubernetes.io/warn"];
    ns.labels.from = ns.ref.from;
    r.out.cluster.namespaces.push_back(std::move(ns));
  } else if (k == "Service" && g.empty()) {
    read_service(r, obj);
  } else if (k == "Ingress" && (g == "networking.k8s.io" || g == "extensions")) {
    read_ingress(r, obj);
  } else if (k == "CustomResourceDefinition" && g == "apiextensions.k8s.io") {
    read_crd(r, obj);
  } else if ((k == "ValidatingWebhookConfiguration" || k == "MutatingWebhookConfiguration") &&
             g == "admissionregistration.k8s.io") {
    read_webhook_configuration(r, obj);
  } else if (k == "ConfigMap" && g.empty()) {
    read_data(r, obj, "data", false);
  } else if (k == "Secret" && g.empty()) {
    read_data(r, obj, "stringData", false);
    read_data(r, obj, "data", true);
  } else {
    return false;
  }
  return true;
}

}  // namespace sbr::k8s
