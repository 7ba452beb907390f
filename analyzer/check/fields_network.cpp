// The network kinds of a workload: published ports, egress gates and what they allow,
// exposures, and the RBAC grants of its service account (model/workload.h).
#include <fmt/format.h>

#include "analyzer/check/fields.h"
#include "analyzer/check/fields_util.h"
#include "analyzer/model/enum_names.h"

namespace sbr::match {
namespace {

// Ports are not bound under --network none/host/container:X when that mode applies on the
// port's path (a script may set them on different branches).
bool port_bound(const Workload& w, const PublishedPort& p) {
  if (!w.network.mode) return true;
  NetMode m = w.network.mode->value;
  const Condition& mc = w.network.mode->from.condition();
  // The mode holds wherever the port is reached when the port's path implies the mode's: a
  // function run for another path's arguments sets both, the port on a narrower path.
  bool same_path = mc.always() || p.from.condition().implies(mc);
  return !same_path || (m != NetMode::None && m != NetMode::Host && m != NetMode::Container);
}

void port_fields(std::vector<FieldDef>& f) {
  f.push_back(
      {"spec", FieldType::String, "the publish spec as written (`-p 8080:80`)", [](const Scope& s) {
         const auto& p = s.as<PublishedPort>();
         return text(p.spec, &p.from);
       }});
  f.push_back({"host_ip", FieldType::Cidr, "the host address it binds, unset when none is written",
               [](const Scope& s) {
                 const auto& p = s.as<PublishedPort>();
                 return text(p.host_ip, &p.from);
               }});
  f.push_back({"host_port", FieldType::String, "the host port, unset when the engine picks",
               [](const Scope& s) {
                 const auto& p = s.as<PublishedPort>();
                 return text(p.host_port, &p.from);
               }});
  f.push_back({"container_port", FieldType::String, "the container port", [](const Scope& s) {
                 const auto& p = s.as<PublishedPort>();
                 return text(p.container_port, &p.from);
               }});
  f.push_back({"protocol", FieldType::String, "tcp, udp, sctp",
               [](const Scope& s) { return text(s.as<PublishedPort>().protocol); }});
  f.push_back({"publish_all", FieldType::Bool, "-P: every exposed port",
               [](const Scope& s) { return of(s.as<PublishedPort>().publish_all); }});
  f.push_back({"is_host_port", FieldType::Bool, "a Kubernetes hostPort",
               [](const Scope& s) { return of(s.as<PublishedPort>().is_host_port); }});
  f.push_back({"bound", FieldType::Bool,
               "the engine binds it: false under --network none/host/container:X on its path",
               [](const Scope& s) { return of(port_bound(*s.workload(), s.as<PublishedPort>())); },
               true});
  f.push_back({"mode_on_its_path", FieldType::Bool,
               "the network mode and the port are reached on one path of the script",
               [](const Scope& s) {
                 const Workload& w = *s.workload();
                 if (!w.network.mode) return Value{};
                 const Condition& mc = w.network.mode->from.condition();
                 const Condition& pc = s.as<PublishedPort>().from.condition();
                 return of(mc.always() || pc.always() || mc == pc);
               },
               true});
}

void gate_fields(std::vector<FieldDef>& f) {
  f.push_back({"kind", FieldType::Enum, "what the gate is",
               [](const Scope& s) {
                 const auto& g = s.as<EgressGate>();
                 return of(gate_kind_name(g.kind), &g.from);
               },
               false, false, names_of<GateKind>(gate_kind_name, 8)});
  f.push_back({"name", FieldType::String, "the policy, ruleset or proxy", [](const Scope& s) {
                 const auto& g = s.as<EgressGate>();
                 return text(g.name, &g.from);
               }});
  f.push_back({"denies_v4", FieldType::Bool, "drops IPv4 by default",
               [](const Scope& s) { return of(s.as<EgressGate>().denies_v4); }});
  f.push_back({"denies_v6", FieldType::Bool, "drops IPv6 by default",
               [](const Scope& s) { return of(s.as<EgressGate>().denies_v6); }});
  f.push_back({"removable_by_workload", FieldType::Bool,
               "the workload holds what removes it (NET_ADMIN, general sudo)",
               [](const Scope& s) { return of(s.as<EgressGate>().removable_by_workload); }});
  f.push_back({"hook", FieldType::Enum, "where a ruleset sits",
               [](const Scope& s) { return of(gate_hook_name(s.as<EgressGate>().hook)); }, false,
               false, names_of<GateHook>(gate_hook_name, 4)});
  f.push_back({"setup_caps_dropped", FieldType::Bool,
               "the loading script drops the bounding set before it hands over",
               [](const Scope& s) { return of(s.as<EgressGate>().setup_caps_dropped); }});
  f.push_back({"connect_restricted", FieldType::Bool,
               "squid: `http_access deny CONNECT !SSL_ports` before the allows",
               [](const Scope& s) { return of(s.as<EgressGate>().connect_restricted); }});
  f.push_back({"switched_deny", FieldType::Location,
               "a default deny written only on a non-default path of the script",
               [](const Scope& s) {
                 const auto& d = s.as<EgressGate>().switched_deny;
                 return d ? place(*d) : Value{};
               }});
  f.push_back({"exec_container", FieldType::String,
               "the container whose namespace holds rules loaded with `exec`",
               [](const Scope& s) { return text(s.as<EgressGate>().exec_container); }});
}

std::vector<std::string> port_texts(const EgressAllow& a) {
  std::vector<std::string> out;
  for (const PortRange& p : a.ports) {
    std::string range = p.from == p.to || p.to == 0 ? fmt::format("{}", p.from)
                                                    : fmt::format("{}-{}", p.from, p.to);
    out.push_back(p.protocol.empty() ? range : p.protocol + "/" + range);
  }
  return out;
}

void allow_fields(std::vector<FieldDef>& f) {
  f.push_back({"dest", FieldType::Enum, "the kind of destination",
               [](const Scope& s) {
                 const auto& a = s.as<EgressAllow>();
                 return of(dest_kind_name(a.dest), &a.from);
               },
               false, false, names_of<DestKind>(dest_kind_name, 6)});
  f.push_back(
      {"value", FieldType::Cidr, "the CIDR, FQDN pattern, selector or entity", [](const Scope& s) {
         const auto& a = s.as<EgressAllow>();
         return text(a.value, &a.from);
       }});
  f.push_back({"except", FieldType::List, "CIDR exceptions", [](const Scope& s) {
                 const auto& a = s.as<EgressAllow>();
                 return of(a.except, &a.from);
               }});
  f.push_back({"ports", FieldType::List, "`proto/port` or `proto/from-to`; empty: every port",
               [](const Scope& s) {
                 auto& c = s.cache.list;
                 if (!c) c = port_texts(s.as<EgressAllow>());
                 return of(*c, &s.as<EgressAllow>().from);
               },
               true});
  f.push_back({"host_subnet_from", FieldType::String,
               "what a symbolic destination was computed from (the default gateway...)",
               [](const Scope& s) { return text(s.as<EgressAllow>().host_subnet_from); }});
}

void grant_fields(std::vector<FieldDef>& f) {
  f.push_back(
      {"role", FieldType::String, "`ClusterRole/name` or `Role/ns/name`", [](const Scope& s) {
         const auto& g = s.as<RbacGrant>();
         return text(g.role, &g.rule_from);
       }});
  f.push_back({"verbs", FieldType::List, "the rule's verbs", [](const Scope& s) {
                 const auto& g = s.as<RbacGrant>();
                 return of(g.verbs, &g.rule_from);
               }});
  f.push_back(
      {"resources", FieldType::List, "the rule's resources (`pods/exec`, `*`)", [](const Scope& s) {
         const auto& g = s.as<RbacGrant>();
         return of(g.resources, &g.rule_from);
       }});
  f.push_back(
      {"api_groups", FieldType::List, "the rule's API groups (core: \"\")", [](const Scope& s) {
         const auto& g = s.as<RbacGrant>();
         return of(g.api_groups, &g.rule_from);
       }});
  f.push_back(
      {"resource_names", FieldType::List, "resourceNames; empty: every object", [](const Scope& s) {
         const auto& g = s.as<RbacGrant>();
         return of(g.resource_names, &g.rule_from);
       }});
  f.push_back({"subject_kind", FieldType::String, "ServiceAccount or Group",
               [](const Scope& s) { return text(s.as<RbacGrant>().subject_kind); }});
  f.push_back({"binding", FieldType::Location, "the subject entry of the binding",
               [](const Scope& s) { return place(s.as<RbacGrant>().binding_from); }});
}

}  // namespace

void add_network_kinds(std::vector<KindDef>& out) {
  KindDef port;
  port.name = "port";
  port.parent = "workload";
  port.model_path = "Workload::network.ports";
  port.doc = "A published port: -p, -P, compose ports, a Kubernetes hostPort.";
  port.key = "spec";
  port.each = [](const Scope& p, ChildVisitor v, void* u) {
    each_of<PublishedPort>(
        p, v, u, [](const Workload& w) -> auto& { return w.network.ports; });
  };
  port_fields(port.fields);
  out.push_back(std::move(port));

  KindDef gate;
  gate.name = "gate";
  gate.parent = "workload";
  gate.model_path = "Workload::network.egress";
  gate.doc = "A control on the workload's egress path (a NetworkPolicy, a ruleset, a proxy).";
  gate.key = "name";
  gate.each = [](const Scope& p, ChildVisitor v, void* u) {
    each_of<EgressGate>(
        p, v, u, [](const Workload& w) -> auto& { return w.network.egress; });
  };
  gate_fields(gate.fields);
  out.push_back(std::move(gate));

  KindDef allow;
  allow.name = "allow";
  allow.parent = "gate";
  allow.model_path = "EgressGate::allows";
  allow.doc = "What a gate lets through.";
  allow.key = "value";
  allow.each = [](const Scope& p, ChildVisitor v, void* u) {
    for (const EgressAllow& a : p.as<EgressGate>().allows) v(&a, u);
  };
  allow_fields(allow.fields);
  out.push_back(std::move(allow));

  KindDef exp;
  exp.name = "exposure";
  exp.parent = "workload";
  exp.model_path = "Workload::network.exposures";
  exp.doc = "A Service or Ingress that exposes the pod outside the cluster.";
  exp.key = "name";
  exp.each = [](const Scope& p, ChildVisitor v, void* u) {
    each_of<Exposure>(
        p, v, u, [](const Workload& w) -> auto& { return w.network.exposures; });
  };
  exp.fields.push_back({"kind", FieldType::Enum, "how it is exposed",
                        [](const Scope& s) {
                          const auto& e = s.as<Exposure>();
                          return of(exposure_kind_name(e.kind), &e.from);
                        },
                        false, false, names_of<ExposureKind>(exposure_kind_name, 4)});
  exp.fields.push_back({"name", FieldType::String, "the Service or Ingress", [](const Scope& s) {
                          const auto& e = s.as<Exposure>();
                          return text(e.name, &e.from);
                        }});
  out.push_back(std::move(exp));

  KindDef grant;
  grant.name = "grant";
  grant.parent = "workload";
  grant.model_path = "Workload::service.grants";
  grant.doc = "One RBAC rule bound to the workload's service account.";
  grant.key = "role";
  grant.each = [](const Scope& p, ChildVisitor v, void* u) {
    each_of<RbacGrant>(
        p, v, u, [](const Workload& w) -> auto& { return w.service.grants; });
  };
  grant_fields(grant.fields);
  out.push_back(std::move(grant));
}

}  // namespace sbr::match
