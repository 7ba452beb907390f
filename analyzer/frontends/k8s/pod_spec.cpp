// A pod spec into one Workload per container: the pod-level context (host namespaces, service
// account, runtime class, pod securityContext) is inherited by each container, which may
// override it. Provenance always points at the node that decided the effective value.
#include <fmt/format.h>

#include "analyzer/frontends/k8s/reader.h"

namespace sbr::k8s {
namespace {

Seccomp seccomp_of_type(std::string_view type, std::string_view profile) {
  if (type == "Unconfined") return {SeccompKind::Unconfined, ""};
  if (type == "Localhost") return {SeccompKind::Localhost, std::string(profile)};
  return {SeccompKind::RuntimeDefault, ""};
}

// The legacy annotation form: runtime/default, docker/default, unconfined, localhost/<path>.
Seccomp seccomp_of_annotation(std::string_view v) {
  if (v == "unconfined") return {SeccompKind::Unconfined, ""};
  if (v.rfind("localhost/", 0) == 0) return {SeccompKind::Localhost, std::string(v.substr(10))};
  return {SeccompKind::RuntimeDefault, ""};
}

// Fields that exist at both pod and container level; the container's value wins.
void read_shared_security(const Reader& r, const Node* sc, Identity& id) {
  if (sc == nullptr || !sc->is_map()) return;
  if (auto v = r.integer(sc, "runAsUser")) id.run_as_user = v;
  if (auto v = r.integer(sc, "runAsGroup")) id.run_as_group = v;
  if (auto v = r.boolean(sc, "runAsNonRoot")) id.run_as_non_root = v;
  if (const Node* sp = sc->get("seccompProfile"); sp && sp->is_map()) {
    const Node* type = sp->get("type");
    const Node* lp = sp->get("localhostProfile");
    if (type && type->is_scalar()) {
      id.seccomp = fact(seccomp_of_type(type->scalar, lp ? lp->scalar : ""), r.prov(type));
    }
  }
  if (const Node* ap = sc->get("appArmorProfile"); ap && ap->is_map()) {
    if (const Node* type = ap->get("type"); type && type->is_scalar()) {
      id.apparmor = fact(type->scalar, r.prov(type));
    }
  }
  if (const Node* se = sc->get("seLinuxOptions"); se && se->is_map()) {
    if (auto t = r.string(se, "type")) id.selinux_type = t;
  }
}

void read_container_security(const Reader& r, const Node* sc, Identity& id) {
  if (sc == nullptr || !sc->is_map()) return;
  read_shared_security(r, sc, id);
  if (auto v = r.boolean(sc, "privileged")) id.privileged = v;
  if (auto v = r.boolean(sc, "allowPrivilegeEscalation")) id.allow_privilege_escalation = v;
  if (auto v = r.boolean(sc, "readOnlyRootFilesystem")) id.read_only_root = v;
  if (auto v = r.string(sc, "procMount")) id.proc_mount = v;
  if (const Node* caps = sc->get("capabilities"); caps && caps->is_map()) {
    for (auto [key, list] : {std::pair{"add", &id.cap_add}, {"drop", &id.cap_drop}}) {
      const Node* items = caps->get(key);
      if (items == nullptr || !items->is_seq()) continue;
      for (const Node* c : items->items) {
        if (c->is_scalar()) list->push_back(fact(parse_capability(c->scalar), r.prov(c)));
      }
    }
  }
}

// Annotations that predate the securityContext fields; the fields win when both are set.
void read_legacy_annotations(const Reader& r, const Node* meta, const std::string& container,
                             Identity& id) {
  const Node* ann = meta ? meta->get("annotations") : nullptr;
  if (ann == nullptr || !ann->is_map()) return;
  if (!id.seccomp) {
    const Node* v = ann->get("container.seccomp.security.alpha.kubernetes.io/" + container);
    if (v == nullptr) v = ann->get("seccomp.security.alpha.kubernetes.io/pod");
    if (v && v->is_scalar()) id.seccomp = fact(seccomp_of_annotation(v->scalar), r.prov(v));
  }
  if (!id.apparmor) {
    const Node* v = ann->get("container.apparmor.security.beta.kubernetes.io/" + container);
    if (v && v->is_scalar()) {
      std::string p = v->scalar == "unconfined"        ? "Unconfined"
                      : v->scalar == "runtime/default" ? "RuntimeDefault"
                                                       : v->scalar;
      id.apparmor = fact(p, r.prov(v));
    }
  }
}

void read_env(const Reader& r, const Node* c, Workload& w) {
  if (const Node* env = c->get("env"); env && env->is_seq()) {
    for (const Node* e : env->items) {
      if (!e->is_map()) continue;
      EnvVar v;
      if (const Node* n = e->get("name")) v.name = n->scalar;
      v.from = r.prov(e);
      if (const Node* val = e->get("value")) {
        v.value = val->scalar;
        v.from = r.prov(val);
        // A Template parameter without a value: what `oc process -p` passes is not written.
        if (is_unknown_parameter(v.value)) v.source = EnvSource::Symbolic;
      } else if (const Node* vf = e->get("valueFrom"); vf && vf->is_map()) {
        // The reference is the fact: it is located at its own key (`secretKeyRef:`), not at
        // the entry's `- name:`, so that two references of one entry stay apart.
        v.from = r.key_prov(e, "valueFrom", e);
        if (const Node* s = vf->get("secretKeyRef")) {
          v.source = EnvSource::SecretRef;
          v.from = r.key_prov(vf, "secretKeyRef", e);
          if (const Node* n = s->get("name")) v.ref = n->scalar;
        } else if (const Node* cm = vf->get("configMapKeyRef")) {
          v.source = EnvSource::ConfigMapRef;
          v.from = r.key_prov(vf, "configMapKeyRef", e);
          if (const Node* n = cm->get("name")) v.ref = n->scalar;
        } else {
          v.source = EnvSource::FieldRef;
        }
      }
      w.env.push_back(std::move(v));
    }
  }
  if (const Node* ef = c->get("envFrom"); ef && ef->is_seq()) {
    for (const Node* e : ef->items) {
      EnvBulk b;
      b.from = r.prov(e);
      if (const Node* s = e->get("secretRef")) {
        b.kind = EnvBulkKind::SecretEnvFrom;
        b.from = r.key_prov(e, "secretRef", e);  // not `- prefix:` written before it
        if (const Node* n = s->get("name")) b.name = n->scalar;
      } else if (const Node* cm = e->get("configMapRef")) {
        b.kind = EnvBulkKind::ConfigMapEnvFrom;
        b.from = r.key_prov(e, "configMapRef", e);
        if (const Node* n = cm->get("name")) b.name = n->scalar;
      } else {
        continue;
      }
      w.env_bulk.push_back(std::move(b));
    }
  }
}

void read_resources(const Reader& r, const Node* c, Resources& res) {
  const Node* rs = c->get("resources");
  if (rs == nullptr || !rs->is_map()) return;
  const Node* limits = rs->get("limits");
  const Node* requests = rs->get("requests");
  res.memory_limit = r.string(limits, "memory");
  res.cpu_limit = r.string(limits, "cpu");
  res.ephemeral_limit = r.string(limits, "ephemeral-storage");
  res.memory_request = r.string(requests, "memory");
  res.cpu_request = r.string(requests, "cpu");
  if (limits && limits->is_map()) {
    for (const auto& [k, v] : limits->entries) {
      if (k->scalar.find("gpu") != std::string::npos) {
        res.gpus.push_back(fact(k->scalar + "=" + v->scalar, r.prov(k)));
      }
    }
  }
}

MountKind volume_kind(const Node* vol, const Node*& detail) {
  static const std::pair<const char*, MountKind> kinds[] = {
      {"hostPath", MountKind::HostPath},
      {"emptyDir", MountKind::EmptyDir},
      {"secret", MountKind::Secret},
      {"configMap", MountKind::ConfigMap},
      {"projected", MountKind::Projected},
      {"downwardAPI", MountKind::DownwardAPI},
      {"persistentVolumeClaim", MountKind::PersistentVolumeClaim},
      {"ephemeral", MountKind::Ephemeral},
      {"image", MountKind::Image}};
  for (const auto& [key, kind] : kinds) {
    if ((detail = vol->get(key)) != nullptr) return kind;
  }
  detail = nullptr;
  return MountKind::Other;
}

void fill_volume(const Reader& r, const Node* vol, Mount& m) {
  const Node* d = nullptr;
  m.kind = volume_kind(vol, d);
  m.source_from = r.prov(vol);
  if (d == nullptr) return;
  switch (m.kind) {
    case MountKind::HostPath:
      if (const Node* p = d->get("path")) {
        m.source = p->scalar;
        m.source_from = r.prov(p);
      }
      if (const Node* t = d->get("type")) m.host_path_type = t->scalar;
      break;
    case MountKind::EmptyDir:
      if (const Node* s = d->get("sizeLimit"); s && s->is_scalar()) {
        m.size_limit = fact(s->scalar, r.prov(s));
      }
      break;
    case MountKind::Secret:
      m.holds_secret = true;
      if (const Node* n = d->get("secretName")) m.source = n->scalar;
      break;
    case MountKind::ConfigMap:
      if (const Node* n = d->get("name")) m.source = n->scalar;
      break;
    case MountKind::PersistentVolumeClaim:
      if (const Node* n = d->get("claimName")) m.source = n->scalar;
      if (auto ro = r.boolean(d, "readOnly")) m.read_only = ro;
      break;
    case MountKind::Projected:
      if (const Node* srcs = d->get("sources"); srcs && srcs->is_seq()) {
        for (const Node* s : srcs->items) {
          if (s->get("serviceAccountToken")) {
            m.projects_sa_token = true;
            m.source_from = r.prov(s);
          }
          if (s->get("secret")) m.holds_secret = true;
        }
      }
      break;
    default:
      break;
  }
}

void read_mounts(const Reader& r, const Node* c, const Node* volumes, const Node* claim_templates,
                 Workload& w) {
  const Node* vms = c->get("volumeMounts");
  if (vms == nullptr || !vms->is_seq()) return;
  for (const Node* vm : vms->items) {
    if (!vm->is_map()) continue;
    Mount m;
    if (const Node* n = vm->get("name")) m.volume_name = n->scalar;
    if (const Node* p = vm->get("mountPath")) m.target = p->scalar;
    m.mount_from = r.prov(vm);
    m.source_from = m.mount_from;
    const Node* vol = nullptr;
    if (volumes && volumes->is_seq()) {
      for (const Node* v : volumes->items) {
        const Node* n = v->get("name");
        if (n && n->scalar == m.volume_name) vol = v;
      }
    }
    if (vol) {
      fill_volume(r, vol, m);
    } else if (claim_templates && claim_templates->is_seq()) {
      // agent-sandbox: a mount may name one of the sandbox's volumeClaimTemplates.
      for (const Node* t : claim_templates->items) {
        const Node* meta = t->get("metadata");
        const Node* n = meta ? meta->get("name") : nullptr;
        if (n && n->scalar == m.volume_name) {
          m.kind = MountKind::PersistentVolumeClaim;
          m.source = n->scalar;
          m.source_from = r.prov(t);
        }
      }
    }
    if (auto ro = r.boolean(vm, "readOnly")) m.read_only = ro;
    if (const Node* p = vm->get("mountPropagation"); p && p->is_scalar()) {
      Propagation prop = p->scalar == "Bidirectional"     ? Propagation::Bidirectional
                         : p->scalar == "HostToContainer" ? Propagation::HostToContainer
                                                          : Propagation::Private;
      m.propagation = fact(prop, r.prov(p));
    }
    w.mounts.push_back(std::move(m));
  }
}

void read_ports(const Reader& r, const Node* c, Network& net) {
  const Node* ports = c->get("ports");
  if (ports == nullptr || !ports->is_seq()) return;
  for (const Node* p : ports->items) {
    const Node* hp = p->get("hostPort");
    if (hp == nullptr || !hp->is_scalar()) continue;
    PublishedPort pp;
    pp.is_host_port = true;
    pp.host_port = hp->scalar;
    if (const Node* cp = p->get("containerPort")) pp.container_port = cp->scalar;
    if (const Node* ip = p->get("hostIP")) pp.host_ip = ip->scalar;
    pp.protocol = p->get("protocol") ? p->get("protocol")->scalar : "TCP";
    pp.spec = "hostPort " + pp.host_port;
    pp.from = r.prov(hp);
    net.ports.push_back(std::move(pp));
  }
}

// What every container of the pod inherits: identity, pod-level security and namespaces, the
// service account, the runtime class, lifecycle fields.
Workload pod_base(const Reader& r, const ObjectInfo& obj, Controller controller,
                  const Node* pod_meta, const Node* pod_spec, const Node* spec_key) {
  Workload base;
  base.id = {obj.kind, obj.api_group, obj.ns, obj.name, "", r.path, ""};
  base.engine = Engine::Kubelet;
  base.object_from = r.prov(obj.kind_node);
  base.pod_spec_from = r.prov(spec_key ? spec_key : pod_spec);
  base.lifecycle.controller = controller;
  // Only sbreview's own annotations (`sbreview.dev/ignore`, `sbreview.dev/threat-class`) are
  // read from a workload: the others are not copied into each container's workload (a 50 MB
  // pod of 100 containers made 5 GB of copies).
  auto keep_own = [&base](const std::map<std::string, std::string>& from) {
    for (auto it = from.lower_bound("sbreview.dev/");
         it != from.end() && it->first.rfind("sbreview.dev/", 0) == 0; ++it)
      base.annotations.emplace(it->first, it->second);
  };
  keep_own(obj.annotations);
  if (pod_meta) {
    keep_own(r.string_map(pod_meta->get("annotations")));
    base.pod_labels = r.string_map(pod_meta->get("labels"));
  }
  if (obj.kind == "Pod")
    base.pod_labels = r.string_map(
        obj.root->get("metadata") ? obj.root->get("metadata")->get("labels") : nullptr);
  read_shared_security(r, pod_spec->get("securityContext"), base.identity);
  if (const Node* k = pod_spec->key_node("securityContext")) {
    base.pod_security_context_from = r.prov(k);
  } else if (auto guard = r.omitted(pod_spec, "securityContext")) {
    base.pod_security_context_from = *guard;
  }
  for (const char* field : {"runtimeClassName", "automountServiceAccountToken"}) {
    if (auto guard = r.omitted(pod_spec, field))
      base.omitted.push_back({std::string("pod.") + field, *guard});
  }
  base.identity.host_users = r.boolean(pod_spec, "hostUsers");
  base.network.host_network = r.boolean(pod_spec, "hostNetwork");
  base.network.host_pid = r.boolean(pod_spec, "hostPID");
  base.network.host_ipc = r.boolean(pod_spec, "hostIPC");
  base.network.dns_policy = r.string(pod_spec, "dnsPolicy");
  base.network.mode =
      fact(base.network.host_network && base.network.host_network->value ? NetMode::Host
                                                                         : NetMode::PodNetwork,
           base.pod_spec_from);
  base.network.policies_apply = !(base.network.host_network && base.network.host_network->value);
  base.share_process_namespace = r.boolean(pod_spec, "shareProcessNamespace");
  base.runtime_class = r.string(pod_spec, "runtimeClassName");
  base.lifecycle.active_deadline = r.integer(pod_spec, "activeDeadlineSeconds");
  base.lifecycle.restart = r.string(pod_spec, "restartPolicy");
  base.service.pod_automount = r.boolean(pod_spec, "automountServiceAccountToken");
  if (auto sa = r.string(pod_spec, "serviceAccountName")) {
    base.service.account = sa->value;
  } else if (auto old = r.string(pod_spec, "serviceAccount")) {
    base.service.account = old->value;
  } else {
    base.service.account = "default";
  }
  return base;
}

// A pod spec without containers: one workload stands for the pod, carrying its pod-level
// fields and every volume it declares, unmounted (target ""), so that a hostPath or a host
// namespace is still reported on the invalid object.
void read_pod_only(const Reader& r, Workload base, const Node* volumes) {
  base.pod_only = true;
  base.container_from = base.pod_spec_from;
  if (volumes && volumes->is_seq()) {
    for (const Node* v : volumes->items) {
      if (!v->is_map()) continue;
      Mount m;
      if (const Node* n = v->get("name")) m.volume_name = n->scalar;
      fill_volume(r, v, m);
      base.mounts.push_back(std::move(m));
    }
  }
  r.out.workloads.push_back(std::move(base));
}

struct Entry {
  const Node* node;
  ContainerRole role;
};

void read_container(const Reader& r, const ObjectInfo& obj, const Node* pod_meta,
                    const Node* pod_spec, const Entry& e, Workload w) {
  w.role = e.role;
  const Node* name = e.node->get("name");
  w.id.container = name && name->is_scalar() ? name->scalar : "";
  w.container_from = r.prov(e.node);
  if (w.id.container.empty()) {
    r.problem(ProblemKind::InvalidObject,
              fmt::format("{} {}: a container has no name", obj.kind, obj.name), e.node);
  }
  if (const Node* img = e.node->get("image"); img && img->is_scalar()) {
    w.image = img->scalar;
  } else if (e.role != ContainerRole::Ephemeral) {
    r.problem(ProblemKind::InvalidObject,
              fmt::format("{} {}: container {} has no image", obj.kind, obj.name, w.id.container),
              e.node);
  }
  for (const char* key : {"command", "args"}) {
    if (const Node* list = e.node->get(key); list && list->is_seq()) {
      for (const Node* a : list->items) w.command.push_back(fact(a->scalar, r.prov(a)));
    }
  }
  if (const Node* wd = e.node->get("workingDir"); wd && wd->is_scalar()) {
    w.working_dir = fact(wd->scalar, r.prov(wd));
  }
  read_container_security(r, e.node->get("securityContext"), w.identity);
  if (const Node* k = e.node->key_node("securityContext")) {
    w.security_context_from = r.prov(k);
  } else if (auto guard = r.omitted(e.node, "securityContext")) {
    w.security_context_from = *guard;  // where the missing fields would have been written
  }
  if (auto guard = r.omitted(e.node, "resources")) w.omitted.push_back({"resources", *guard});
  read_legacy_annotations(r, pod_meta ? pod_meta : obj.root->get("metadata"), w.id.container,
                          w.identity);
  read_env(r, e.node, w);
  read_resources(r, e.node, w.resources);
  const Node* spec = obj.root->get("spec");
  read_mounts(r, e.node, pod_spec->get("volumes"),
              spec ? spec->get("volumeClaimTemplates") : nullptr, w);
  read_ports(r, e.node, w.network);
  r.out.workloads.push_back(std::move(w));
}

// Containers of one pod share its network namespace (and processes when asked): each one
// knows the others, so a check can tell an agent sharing a namespace with a proxy.
void link_siblings(const Reader& r, const std::vector<Entry>& entries, size_t first) {
  for (size_t i = first; i < r.out.workloads.size(); ++i) {
    Workload& w = r.out.workloads[i];
    for (size_t j = first; j < r.out.workloads.size(); ++j) {
      const Workload& o = r.out.workloads[j];
      if (i == j) continue;
      bool sidecar_init = o.role == ContainerRole::Init &&
                          entries[j - first].node->get("restartPolicy") &&
                          entries[j - first].node->get("restartPolicy")->scalar == "Always";
      if (o.role == ContainerRole::Init && !sidecar_init) continue;
      Sibling s;
      s.name = o.id.container;
      s.image = o.image;
      s.shares_processes = w.share_process_namespace && w.share_process_namespace->value;
      s.from = o.container_from;
      w.siblings.push_back(std::move(s));
    }
  }
}

}  // namespace

void read_pod_spec(const Reader& r, const ObjectInfo& obj, Controller controller,
                   const Node* pod_meta, const Node* pod_spec, const Node* spec_key) {
  if (pod_spec == nullptr || !pod_spec->is_map()) {
    r.problem(ProblemKind::InvalidObject,
              fmt::format("{} {}: pod spec is not a mapping", obj.kind, obj.name), obj.kind_node);
    return;
  }
  const Node* containers = pod_spec->get("containers");
  if (containers == nullptr || !containers->is_seq() || containers->items.empty()) {
    // Reported, and not the end of the review: the pod's own fields (host namespaces, its
    // service account, runtime class, volumes) are still judged.
    r.problem(ProblemKind::InvalidObject,
              fmt::format("{} {}: the pod spec has no containers", obj.kind, obj.name),
              spec_key ? spec_key : obj.kind_node);
  }
  Workload base = pod_base(r, obj, controller, pod_meta, pod_spec, spec_key);
  std::vector<Entry> entries;
  for (auto [key, role] : {std::pair{"initContainers", ContainerRole::Init},
                           {"containers", ContainerRole::Main},
                           {"ephemeralContainers", ContainerRole::Ephemeral}}) {
    const Node* list = pod_spec->get(key);
    if (list == nullptr || !list->is_seq()) continue;
    for (const Node* c : list->items) {
      if (c->is_map()) entries.push_back({c, role});
    }
  }
  if (entries.empty()) {
    read_pod_only(r, std::move(base), pod_spec->get("volumes"));
    return;
  }
  size_t first = r.out.workloads.size();
  for (const Entry& e : entries) read_container(r, obj, pod_meta, pod_spec, e, base);
  link_siblings(r, entries, first);
}

}  // namespace sbr::k8s
