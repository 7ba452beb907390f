// The `workload` kind: one container as it would run (model/workload.h), with the engine's
// conclusions about it as derived fields.
#include <algorithm>

#include "analyzer/check/fields.h"
#include "analyzer/check/fields_util.h"
#include "analyzer/engine/defaults.h"
#include "analyzer/engine/secrets_inside.h"
#include "analyzer/model/enum_names.h"
#include "invariants/common.h"
#include "invariants/workload_facts.h"

namespace sbr::match {
namespace {

const Workload& W(const Scope& s) {
  return s.as<Workload>();
}

// Cache slots of a workload scope (Cache::number).
enum Slot : size_t { kRuntimeKind = 0 };

std::string_view runtime_kind_text(engine::RuntimeKind k) {
  switch (k) {
    case engine::RuntimeKind::Runc:
      return "runc";
    case engine::RuntimeKind::GVisor:
      return "gvisor";
    case engine::RuntimeKind::MicroVm:
      return "microvm";
  }
  return "runc";
}

std::string_view user_state_text(inv::UserState u) {
  switch (u) {
    case inv::UserState::Root:
      return "root";
    case inv::UserState::NonRoot:
      return "non-root";
    case inv::UserState::Named:
      return "named";
    case inv::UserState::Unknown:
      return "unknown";
  }
  return "unknown";
}

Value runtime_kind(const Scope& s) {
  auto& c = s.cache.number[kRuntimeKind];
  if (!c) c = static_cast<std::int64_t>(inv::resolve_runtime(*s.model, W(s)).rt.kind);
  return of(runtime_kind_text(static_cast<engine::RuntimeKind>(*c)));
}

Value pod_security(const Scope& s, std::string PodSecurityLabels::*field) {
  const auto& ps = W(s).pod_security;
  if (!ps) return {};
  return text((*ps).*field, &ps->from);
}

void id_fields(std::vector<FieldDef>& f) {
  f.push_back({"kind", FieldType::String,
               "Kubernetes kind, or `launcher`, `compose`, `devcontainer`",
               [](const Scope& s) { return text(W(s).id.kind); }});
  f.push_back({"api_group", FieldType::String, "API group of the Kubernetes object (core: unset)",
               [](const Scope& s) { return text(W(s).id.api_group); }});
  f.push_back({"namespace", FieldType::String, "Kubernetes namespace as written",
               [](const Scope& s) { return text(W(s).id.ns); }});
  f.push_back({"name", FieldType::String, "object name, script path or compose service",
               [](const Scope& s) { return text(W(s).id.name); }});
  f.push_back({"container", FieldType::String, "container name, or `launch N` for a launcher",
               [](const Scope& s) { return text(W(s).id.container); }});
  f.push_back({"render_root", FieldType::String, "the file or chart the object was rendered from",
               [](const Scope& s) { return text(W(s).id.render_root); }});
  f.push_back({"engine", FieldType::Enum, "what runs it",
               [](const Scope& s) { return of(engine_name(W(s).engine)); }, false, false,
               names_of<Engine>(engine_name, 6)});
  f.push_back({"engine_category",
               FieldType::Enum,
               "the catalog's `applies_to` name of the engine",
               [](const Scope& s) { return of(engine_category(W(s))); },
               true,
               false,
               {"kubernetes", "launcher", "compose", "devcontainer"}});
  f.push_back({"engine_unresolved", FieldType::Bool,
               "a launcher's engine could not be resolved (`\"$ENGINE\" run`): judged as docker",
               [](const Scope& s) { return of(W(s).engine_unresolved); }});
  f.push_back({"rootful", FieldType::Bool, "the engine runs as root on the host",
               [](const Scope& s) { return of(W(s).rootful); }});
  f.push_back({"role", FieldType::Enum, "main, init or ephemeral container",
               [](const Scope& s) { return of(container_role_name(W(s).role)); }, false, false,
               names_of<ContainerRole>(container_role_name, 3)});
  f.push_back({"threat", FieldType::Enum, "the threat class (configuration and annotations win)",
               [](const Scope& s) { return of(threat_class_name(W(s).threat), &W(s).threat_from); },
               false, false, names_of<ThreatClass>(threat_class_name, 4)});
  f.push_back({"threat_source", FieldType::Enum, "where the threat class came from",
               [](const Scope& s) { return of(threat_source_name(W(s).threat_source)); }, false,
               false, names_of<ThreatSource>(threat_source_name, 3)});
  f.push_back({"threat_reason", FieldType::String, "why the workload has its class, in words",
               [](const Scope& s) { return text(W(s).threat_reason); }});
  f.push_back({"image", FieldType::String, "the image reference as written",
               [](const Scope& s) { return text(W(s).image); }});
  f.push_back({"pod_only", FieldType::Bool,
               "a pod spec without containers: only pod-level fields are judged",
               [](const Scope& s) { return of(W(s).pod_only); }});
}

void runtime_fields(std::vector<FieldDef>& f) {
  f.push_back({"runtime_class", FieldType::String, "runtimeClassName / --runtime / `runtime:`",
               [](const Scope& s) { return of(W(s).runtime_class); }});
  f.push_back({"runtime_handler", FieldType::String,
               "the handler of a RuntimeClass object in the input", [](const Scope& s) {
                 const auto& h = W(s).runtime_handler;
                 return h ? of(std::string_view(h->value), &h->from) : Value{};
               }});
  f.push_back({"runtime_kind",
               FieldType::Enum,
               "the runtime it really gets (RuntimeClass handler, class name, cluster default)",
               &runtime_kind,
               true,
               false,
               {"runc", "gvisor", "microvm"}});
}

void identity_fields(std::vector<FieldDef>& f) {
  f.push_back({"identity.privileged", FieldType::Bool, "privileged: true / --privileged",
               [](const Scope& s) { return of(W(s).identity.privileged); }});
  f.push_back({"identity.allow_privilege_escalation", FieldType::Bool,
               "allowPrivilegeEscalation; --security-opt no-new-privileges is stored as false",
               [](const Scope& s) { return of(W(s).identity.allow_privilege_escalation); }});
  f.push_back({"identity.run_as_user", FieldType::Int, "runAsUser / numeric --user / USER",
               [](const Scope& s) { return of(W(s).identity.run_as_user); }});
  f.push_back({"identity.run_as_group", FieldType::Int, "runAsGroup / --user UID:GID",
               [](const Scope& s) { return of(W(s).identity.run_as_group); }});
  f.push_back({"identity.run_as_non_root", FieldType::Bool, "runAsNonRoot",
               [](const Scope& s) { return of(W(s).identity.run_as_non_root); }});
  f.push_back({"identity.user_name", FieldType::String, "a non-numeric user (--user agent)",
               [](const Scope& s) { return of(W(s).identity.user_name); }});
  f.push_back({"identity.read_only_root", FieldType::Bool,
               "readOnlyRootFilesystem / --read-only / read_only",
               [](const Scope& s) { return of(W(s).identity.read_only_root); }});
  f.push_back({"identity.seccomp", FieldType::Enum, "the seccomp profile as written",
               [](const Scope& s) {
                 const auto& sc = W(s).identity.seccomp;
                 return sc ? of(seccomp_kind_name(sc->value.kind), &sc->from) : Value{};
               },
               false, false, names_of<SeccompKind>(seccomp_kind_name, 4)});
  f.push_back({"identity.seccomp_profile", FieldType::String,
               "the Localhost profile or custom file", [](const Scope& s) {
                 const auto& sc = W(s).identity.seccomp;
                 return sc ? text(sc->value.profile, &sc->from) : Value{};
               }});
  f.push_back({"identity.apparmor", FieldType::String,
               "AppArmor profile (`Unconfined`, `RuntimeDefault`, `localhost/x`)",
               [](const Scope& s) { return of(W(s).identity.apparmor); }});
  f.push_back({"identity.selinux_type", FieldType::String, "seLinuxOptions.type / label=type:",
               [](const Scope& s) { return of(W(s).identity.selinux_type); }});
  f.push_back({"identity.selinux_disabled", FieldType::Bool, "--security-opt label=disable",
               [](const Scope& s) { return of(W(s).identity.selinux_disabled); }});
  f.push_back({"identity.proc_mount", FieldType::String, "procMount (`Default`, `Unmasked`)",
               [](const Scope& s) { return of(W(s).identity.proc_mount); }});
  f.push_back({"identity.systempaths_unconfined", FieldType::Bool,
               "--security-opt systempaths=unconfined",
               [](const Scope& s) { return of(W(s).identity.systempaths_unconfined); }});
  f.push_back({"identity.host_users", FieldType::Bool,
               "Kubernetes hostUsers (false: user namespace)",
               [](const Scope& s) { return of(W(s).identity.host_users); }});
  f.push_back({"identity.userns", FieldType::String, "--userns value",
               [](const Scope& s) { return of(W(s).identity.userns); }});
  f.push_back({"identity.drops_all_capabilities", FieldType::Bool,
               "the drop list holds ALL (capabilities.drop: [ALL], --cap-drop=ALL)",
               [](const Scope& s) {
                 const auto& d = W(s).identity.cap_drop;
                 return of(std::any_of(d.begin(), d.end(),
                                       [](const auto& c) { return c.value == Capability::All; }));
               },
               true});
}

void effective_fields(std::vector<FieldDef>& f) {
  f.push_back({"effective.seccomp", FieldType::Enum,
               "seccomp as it applies: Kubernetes leaves it Unconfined unless the kubelet's "
               "seccompDefault is declared; podman and docker apply their default",
               [](const Scope& s) {
                 return of(
                     seccomp_kind_name(engine::effective_seccomp(W(s), s.model->cluster_facts)));
               },
               true, false, names_of<SeccompKind>(seccomp_kind_name, 4)});
  f.push_back({"effective.uid", FieldType::Int, "the uid when the input fixes it",
               [](const Scope& s) {
                 auto u = engine::effective_uid(W(s));
                 return u ? of(*u) : Value{};
               },
               true});
  f.push_back(
      {"effective.user",
       FieldType::Enum,
       "root, non-root, a user name that cannot be verified, or unknown (the image decides)",
       [](const Scope& s) { return of(user_state_text(inv::user_state(W(s)))); },
       true,
       false,
       {"root", "non-root", "named", "unknown"}});
  f.push_back({"effective.privilege_escalation_allowed", FieldType::Bool,
               "unset allowPrivilegeEscalation / no no-new-privileges allows escalation",
               [](const Scope& s) { return of(engine::privilege_escalation_allowed(W(s))); },
               true});
  f.push_back({"effective.keeps_net_raw", FieldType::Bool,
               "the engine's default capability set keeps NET_RAW (docker)",
               [](const Scope& s) { return of(engine::keeps_net_raw_by_default(W(s).engine)); },
               true});
  f.push_back({"effective.default_pids_limit", FieldType::Int,
               "the engine's pids limit when none is set (podman 2048; the declared kubelet "
               "podPidsLimit)",
               [](const Scope& s) {
                 auto p = engine::default_pids_limit(W(s).engine, s.model->cluster_facts);
                 return p ? of(*p) : Value{};
               },
               true});
  f.push_back({"effective.token_automounted", FieldType::Bool,
               "the kubelet mounts a service-account token (pod setting, then the account's)",
               [](const Scope& s) { return of(engine::automounts_service_account_token(W(s))); },
               true});
  f.push_back({"effective.token_reaches", FieldType::Bool,
               "a service-account token reaches the pod (automount or a projected volume)",
               [](const Scope& s) { return of(engine::service_account_token_reaches(W(s))); },
               true});
}

void network_fields(std::vector<FieldDef>& f) {
  f.push_back({"network.mode", FieldType::Enum, "the network mode as written",
               [](const Scope& s) {
                 const auto& m = W(s).network.mode;
                 return m ? of(net_mode_name(m->value), &m->from) : Value{};
               },
               false, false, names_of<NetMode>(net_mode_name, 10)});
  f.push_back({"network.mode_arg", FieldType::String, "network or container name of the mode",
               [](const Scope& s) { return text(W(s).network.mode_arg); }});
  f.push_back({"network.host_network", FieldType::Bool, "hostNetwork",
               [](const Scope& s) { return of(W(s).network.host_network); }});
  f.push_back({"network.host_pid", FieldType::Bool, "hostPID / --pid=host",
               [](const Scope& s) { return of(W(s).network.host_pid); }});
  f.push_back({"network.host_ipc", FieldType::Bool, "hostIPC / --ipc=host",
               [](const Scope& s) { return of(W(s).network.host_ipc); }});
  f.push_back({"network.host_uts", FieldType::Bool, "--uts=host",
               [](const Scope& s) { return of(W(s).network.host_uts); }});
  f.push_back({"network.dns_policy", FieldType::String, "dnsPolicy",
               [](const Scope& s) { return of(W(s).network.dns_policy); }});
  f.push_back({"network.policies_apply", FieldType::Bool,
               "NetworkPolicies apply (false for hostNetwork pods)",
               [](const Scope& s) { return of(W(s).network.policies_apply); }});
  f.push_back({"network.ingress_default_deny", FieldType::Bool,
               "a NetworkPolicy denies ingress to the pod by default",
               [](const Scope& s) { return of(W(s).network.ingress_default_deny); }});
  f.push_back({"share_process_namespace", FieldType::Bool, "shareProcessNamespace",
               [](const Scope& s) { return of(W(s).share_process_namespace); }});
}

void resource_fields(std::vector<FieldDef>& f) {
  f.push_back({"resources.memory_limit", FieldType::String, "limits.memory / --memory",
               [](const Scope& s) { return of(W(s).resources.memory_limit); }});
  f.push_back({"resources.memory_request", FieldType::String, "requests.memory",
               [](const Scope& s) { return of(W(s).resources.memory_request); }});
  f.push_back({"resources.cpu_limit", FieldType::String, "limits.cpu / --cpus",
               [](const Scope& s) { return of(W(s).resources.cpu_limit); }});
  f.push_back({"resources.cpu_request", FieldType::String, "requests.cpu",
               [](const Scope& s) { return of(W(s).resources.cpu_request); }});
  f.push_back({"resources.ephemeral_limit", FieldType::String,
               "limits.ephemeral-storage / --storage-opt size=", [](const Scope& s) {
                 return of(W(s).resources.ephemeral_limit);
               }});
  f.push_back({"resources.memory_swap", FieldType::String, "--memory-swap",
               [](const Scope& s) { return of(W(s).resources.memory_swap); }});
  f.push_back({"resources.pids_limit", FieldType::Int, "--pids-limit / pids_limit",
               [](const Scope& s) { return of(W(s).resources.pids_limit); }});
  f.push_back({"resources.qos", FieldType::Enum, "the pod's QoS class as the kubelet computes it",
               [](const Scope& s) {
                 const auto& q = W(s).resources.qos;
                 return q ? of(qos_name(*q)) : Value{};
               },
               true, false, names_of<QosClass>(qos_name, 3)});
}

void lifecycle_fields(std::vector<FieldDef>& f) {
  f.push_back({"lifecycle.controller", FieldType::Enum, "what created the workload",
               [](const Scope& s) { return of(controller_name(W(s).lifecycle.controller)); }, false,
               false, names_of<Controller>(controller_name, 14)});
  f.push_back({"lifecycle.ttl_after_finished", FieldType::Int, "ttlSecondsAfterFinished",
               [](const Scope& s) { return of(W(s).lifecycle.ttl_after_finished); }});
  f.push_back({"lifecycle.active_deadline", FieldType::Int, "activeDeadlineSeconds",
               [](const Scope& s) { return of(W(s).lifecycle.active_deadline); }});
  f.push_back({"lifecycle.timeout", FieldType::Int, "podman --timeout, a timeout(1) wrapper",
               [](const Scope& s) { return of(W(s).lifecycle.timeout); }});
  f.push_back({"lifecycle.shutdown_time", FieldType::String, "Sandbox spec.lifecycle.shutdownTime",
               [](const Scope& s) { return of(W(s).lifecycle.shutdown_time); }});
  f.push_back({"lifecycle.remove_on_exit", FieldType::Bool, "--rm",
               [](const Scope& s) { return of(W(s).lifecycle.remove_on_exit); }});
  f.push_back({"lifecycle.restart", FieldType::String, "restartPolicy / --restart / restart:",
               [](const Scope& s) { return of(W(s).lifecycle.restart); }});
  f.push_back({"init", FieldType::Bool, "--init: a reaper as PID 1",
               [](const Scope& s) { return of(W(s).init); }});
}

void service_fields(std::vector<FieldDef>& f) {
  f.push_back({"service.account", FieldType::String, "the effective service account name",
               [](const Scope& s) { return text(W(s).service.account); }});
  f.push_back({"service.pod_automount", FieldType::Bool, "automountServiceAccountToken on the pod",
               [](const Scope& s) { return of(W(s).service.pod_automount); }});
  f.push_back({"service.account_automount", FieldType::Bool,
               "automountServiceAccountToken on the ServiceAccount",
               [](const Scope& s) { return of(W(s).service.account_automount); }});
  f.push_back({"service.account_in_input", FieldType::Bool, "the ServiceAccount is in the input",
               [](const Scope& s) {
                 return of(W(s).service.account_in_input, &W(s).service.account_from);
               }});
  f.push_back({"pod_security.enforce", FieldType::String,
               "the namespace's Pod Security Admission enforce label",
               [](const Scope& s) { return pod_security(s, &PodSecurityLabels::enforce); }});
  f.push_back({"pod_security.audit", FieldType::String, "the audit label",
               [](const Scope& s) { return pod_security(s, &PodSecurityLabels::audit); }});
  f.push_back({"pod_security.warn", FieldType::String, "the warn label",
               [](const Scope& s) { return pod_security(s, &PodSecurityLabels::warn); }});
  f.push_back({"dockerfile", FieldType::String, "the Dockerfile its image is built from",
               [](const Scope& s) { return text(W(s).dockerfile); }});
  f.push_back({"build_context", FieldType::String, "the image's build context directory",
               [](const Scope& s) { return text(W(s).build_context); }});
  f.push_back({"runs_devcontainer", FieldType::String,
               "the devcontainer.json this container builds and runs (envbuilder)",
               [](const Scope& s) { return of(W(s).runs_devcontainer); }});
  f.push_back({"compose_service", FieldType::String, "a devcontainer's compose service",
               [](const Scope& s) { return of(W(s).compose_service); }});
  f.push_back({"working_dir", FieldType::String,
               "the directory the container starts in (workingDir, working_dir, -w)",
               [](const Scope& s) { return of(W(s).working_dir); }});
  f.push_back({"example_of", FieldType::String,
               "the document whose fenced example this workload was read from",
               [](const Scope& s) { return text(W(s).example_of); }});
}

// Places a finding can point at when the field it is about is missing (INVARIANTS.md,
// "Locations"): the container entry, the pod spec, the object, the securityContext mappings.
void anchor_fields(std::vector<FieldDef>& f) {
  f.push_back({"object_from", FieldType::Location, "the object's `kind:` line / the invocation",
               [](const Scope& s) { return place(W(s).object_from); }});
  f.push_back({"pod_spec_from", FieldType::Location, "the pod spec's `spec:` line",
               [](const Scope& s) { return place(W(s).pod_spec_from); }});
  f.push_back({"container_from", FieldType::Location, "the container's `- name:` line",
               [](const Scope& s) { return place(W(s).container_from); }});
  f.push_back({"anchor.object", FieldType::Location, "where an object field is added",
               [](const Scope& s) { return place(inv::object_anchor(W(s))); }, true});
  f.push_back({"anchor.pod", FieldType::Location,
               "where a pod field is added: the pod spec, else the object",
               [](const Scope& s) { return place(inv::pod_anchor(W(s))); }, true});
  f.push_back({"anchor.container", FieldType::Location,
               "where a container field is added: the container entry, else the object",
               [](const Scope& s) { return place(inv::container_anchor(W(s))); }, true});
  f.push_back({"anchor.container_security", FieldType::Location,
               "the container's `securityContext:`, else the container entry",
               [](const Scope& s) { return place(inv::container_security_anchor(W(s))); }, true});
  // A chart's guard that left the field out (`{{- with .Values.resources }}`) is where a reader
  // adds it; without a guard, the entry it belongs to.
  f.push_back({"anchor.resources", FieldType::Location,
               "the chart guard that left out `resources`, else the container entry",
               [](const Scope& s) {
                 const Workload& w = W(s);
                 return place(inv::omitted_anchor(w, "resources", inv::container_anchor(w)));
               },
               true});
  f.push_back({"anchor.automount", FieldType::Location,
               "the chart guard that left out automountServiceAccountToken, else the pod spec",
               [](const Scope& s) {
                 const Workload& w = W(s);
                 return place(inv::omitted_anchor(w, "pod.automountServiceAccountToken",
                                                  inv::pod_anchor(w)));
               },
               true});
  f.push_back({"anchor.pod_security", FieldType::Location,
               "the pod's `securityContext:`, else the pod spec",
               [](const Scope& s) { return place(inv::pod_security_anchor(W(s))); }, true});
}

}  // namespace

std::string_view engine_category(const Workload& w) {
  return is_kubernetes(w)                   ? "kubernetes"
         : w.engine == Engine::Compose      ? "compose"
         : w.engine == Engine::Devcontainer ? "devcontainer"
                                            : "launcher";
}

void add_workload_kinds(std::vector<KindDef>& out) {
  KindDef k;
  k.name = "workload";
  k.model_path = "Model::workloads";
  k.doc =
      "One container as it would run: a Kubernetes container, a podman/docker launch, a "
      "compose service or a devcontainer.";
  k.key = "container";
  k.each = [](const Scope& root, ChildVisitor visit, void* user) {
    for (const Workload& w : root.model->workloads) visit(&w, user);
  };
  id_fields(k.fields);
  runtime_fields(k.fields);
  identity_fields(k.fields);
  effective_fields(k.fields);
  network_fields(k.fields);
  resource_fields(k.fields);
  lifecycle_fields(k.fields);
  service_fields(k.fields);
  anchor_fields(k.fields);
  out.push_back(std::move(k));
}

}  // namespace sbr::match
