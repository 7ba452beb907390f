// Kubernetes objects that are not workloads but change how a workload runs. The Kubernetes
// frontend fills these from the input; its link step resolves them onto workloads.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "analyzer/model/provenance.h"
#include "analyzer/model/workload.h"

namespace sbr {

struct LabelRequirement {
  std::string key;
  std::string op;  // In, NotIn, Exists, DoesNotExist
  std::vector<std::string> values;
};

// matchLabels + matchExpressions. An empty selector (present, no terms) selects everything.
struct LabelSelector {
  bool present = false;
  std::map<std::string, std::string> match_labels;
  std::vector<LabelRequirement> match_expressions;
};

struct ObjectRef {
  std::string kind;
  std::string ns;  // "" = the namespace it is deployed to
  std::string name;
  Provenance from;     // the object's kind: line (its condition: a chart switch flipped)
  std::string root;    // the render root or file it came from
  std::string source;  // a rendered chart's template (`# Source:` name), "" otherwise
};

struct RuntimeClassObject {
  ObjectRef ref;
  std::string handler;
  Provenance handler_from;
};

struct ServiceAccountObject {
  ObjectRef ref;
  Maybe<bool> automount;
};

struct PolicyRule {
  std::vector<std::string> verbs, resources, api_groups;
  Provenance from;
  std::vector<std::string> resource_names;  // empty = every object of the resources
};

struct RoleObject {
  ObjectRef ref;  // Role or ClusterRole
  std::vector<PolicyRule> rules;
};

struct Subject {
  std::string kind, ns, name;
  Provenance from;
};

struct RoleBindingObject {
  ObjectRef ref;  // RoleBinding or ClusterRoleBinding
  std::string role_kind, role_name;
  std::vector<Subject> subjects;
};

struct PolicyPeer {
  bool any = false;  // a rule with no `to`/`from`
  LabelSelector pod_selector;
  LabelSelector namespace_selector;
  std::string cidr;
  std::vector<std::string> except;
  std::string fqdn;    // Cilium toFQDNs matchName / matchPattern
  std::string entity;  // Cilium toEntities
  Provenance from;
};

struct PolicyRuleSet {
  std::vector<PolicyPeer> peers;  // empty = every destination
  std::vector<PortRange> ports;   // empty = every port
  Provenance from;
};

struct NetworkPolicyObject {
  ObjectRef ref;
  GateKind kind = GateKind::NetworkPolicy;
  LabelSelector pod_selector;
  Provenance selector_from;
  bool has_ingress_type = false;
  bool has_egress_type = false;
  std::vector<PolicyRuleSet> ingress;
  std::vector<PolicyRuleSet> egress;
};

struct LimitRangeObject {
  ObjectRef ref;
  // Container defaults: "memory" / "cpu" / "ephemeral-storage" -> quantity.
  std::map<std::string, Fact<std::string>> default_limits;
  std::map<std::string, Fact<std::string>> default_requests;
};

struct NamespaceObject {
  ObjectRef ref;
  PodSecurityLabels labels;
};

struct ServiceObject {
  ObjectRef ref;
  std::string type;  // ClusterIP, NodePort, LoadBalancer, ExternalName
  Provenance type_from;
  std::vector<std::string> external_ips;
  Provenance external_ips_from;
  std::map<std::string, std::string> selector;
  Provenance selector_from;
};

struct IngressObject {
  ObjectRef ref;
  struct Backend {
    std::string service;
    Provenance from;
  };
  std::vector<Backend> backends;
};

// ConfigMap / Secret data and other literal strings that may hold key material.
struct DataEntry {
  std::string object;  // "ConfigMap/ns/name"
  std::string key;
  std::string value;  // never printed: see report/redact
  Provenance from;
};

// A CustomResourceDefinition: which kind of which group it defines.
struct CrdObject {
  ObjectRef ref;
  std::string group, kind;
};

// One webhook of a Validating/MutatingWebhookConfiguration that calls a Service in the cluster.
struct WebhookObject {
  ObjectRef ref;        // the configuration object
  std::string webhook;  // the webhook's name
  std::string service_ns, service_name;
  Provenance service_from;  // the clientConfig.service entry
};

struct ClusterObjects {
  std::vector<RuntimeClassObject> runtime_classes;
  std::vector<ServiceAccountObject> service_accounts;
  std::vector<RoleObject> roles;
  std::vector<RoleBindingObject> bindings;
  std::vector<NetworkPolicyObject> network_policies;
  std::vector<LimitRangeObject> limit_ranges;
  std::vector<NamespaceObject> namespaces;
  std::vector<ServiceObject> services;
  std::vector<IngressObject> ingresses;
  std::vector<DataEntry> data;
  std::vector<CrdObject> crds;
  std::vector<WebhookObject> webhooks;
};

}  // namespace sbr
