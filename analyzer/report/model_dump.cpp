// A stable, line-oriented dump of the model for debugging and golden tests. Every fact prints
// with its location; secret values are redacted like in every other output.
#include <fmt/format.h>

#include "analyzer/config/config.h"
#include "analyzer/report/claims_dump.h"
#include "analyzer/report/redact.h"
#include "analyzer/report/report.h"
#include "analyzer/report/script_dump.h"
#include "analyzer/support/secrets.h"

#include <sstream>

namespace sbr {
namespace {

struct Dump {
  const Model& m;
  std::ostream& out;

  std::string at(const Provenance& p) const {
    if (!p.at.valid()) return "-";
    std::string s = fmt::format("{}:{}:{}", m.files.path(p.at.file), p.at.line, p.at.column);
    if (!p.condition.always()) {
      s += fmt::format(" [if {}{}]", p.condition.text, p.condition.needs_switch ? ", switch" : "");
    }
    return s;
  }
  template <class T>
  void field(const char* name, const Maybe<T>& v) const {
    if (!v) return;
    if constexpr (std::is_same_v<T, bool>) {
      out << fmt::format("    {}: {} @ {}\n", name, v->value ? "true" : "false", at(v->from));
    } else {
      out << fmt::format("    {}: {} @ {}\n", name, v->value, at(v->from));
    }
  }
  void list(const char* name, const std::vector<Fact<std::string>>& v) const {
    for (const auto& f : v) out << fmt::format("    {}: {} @ {}\n", name, f.value, at(f.from));
  }
};

std::string env_value(const EnvVar& e) {
  if (e.source != EnvSource::Literal) {
    static const char* const src[] = {"literal",  "secretKeyRef", "configMapKeyRef",
                                      "fieldRef", "host",         "symbolic"};
    return fmt::format("<{}{}>", src[static_cast<int>(e.source)], e.ref.empty() ? "" : " " + e.ref);
  }
  if (secrets::is_secret_name(e.name) || !secrets::key_format(e.value).empty()) {
    return std::string(secrets::kRedacted);
  }
  return fmt::format("\"{}\"", e.value);
}

// The workload line, its threat class and evidence, where it was read, image and runtime.
void dump_header(const Dump& d, const Workload& w) {
  std::ostream& out = d.out;
  out << fmt::format("workload {}/{}/{}/{} engine={} role={} threat={}\n", w.id.kind, w.id.ns,
                     w.id.name, w.id.container, engine_name(w.engine),
                     w.role == ContainerRole::Main   ? "main"
                     : w.role == ContainerRole::Init ? "init"
                                                     : "ephemeral",
                     threat_class_name(w.threat));
  if (!w.example_of.empty()) out << fmt::format("    example in {}\n", w.example_of);
  static const char* const sources[] = {"inferred", "annotation", "config"};
  out << fmt::format("    threat {} ({}): {}\n", threat_class_name(w.threat),
                     sources[static_cast<int>(w.threat_source)], w.threat_reason);
  for (const ThreatEvidence& e : w.threat_evidence) {
    out << fmt::format("    threat evidence {} {}: {} @ {}\n", threat_signal_name(e.signal),
                       threat_class_name(e.points_to), e.text, d.at(e.from));
  }
  out << fmt::format("    object @ {}  pod-spec @ {}  container @ {}\n", d.at(w.object_from),
                     d.at(w.pod_spec_from), d.at(w.container_from));
  if (!w.image.empty()) out << fmt::format("    image: {}\n", w.image);
  d.list("command", w.command);
  d.field("runtimeClassName", w.runtime_class);
  if (w.runtime_handler) {
    out << fmt::format("    runtime handler: {} @ {}\n", w.runtime_handler->value,
                       d.at(w.runtime_handler->from));
  }
}

// Who the container runs as and what confines it.
void dump_identity(const Dump& d, const Workload& w) {
  std::ostream& out = d.out;
  const Identity& id = w.identity;
  d.field("privileged", id.privileged);
  d.field("allowPrivilegeEscalation", id.allow_privilege_escalation);
  d.field("runAsUser", id.run_as_user);
  d.field("runAsGroup", id.run_as_group);
  d.field("runAsNonRoot", id.run_as_non_root);
  d.field("user", id.user_name);
  d.field("readOnlyRootFilesystem", id.read_only_root);
  for (const auto& c : id.cap_add)
    out << fmt::format("    cap add: {} @ {}\n", capability_name(c.value), d.at(c.from));
  for (const auto& c : id.cap_drop)
    out << fmt::format("    cap drop: {} @ {}\n", capability_name(c.value), d.at(c.from));
  if (id.seccomp) {
    static const char* const k[] = {"RuntimeDefault", "Unconfined", "Localhost", "file"};
    out << fmt::format("    seccomp: {} {} @ {}\n", k[static_cast<int>(id.seccomp->value.kind)],
                       id.seccomp->value.profile, d.at(id.seccomp->from));
  }
  d.field("apparmor", id.apparmor);
  d.field("selinux type", id.selinux_type);
  d.field("procMount", id.proc_mount);
  d.field("hostUsers", id.host_users);
  d.field("userns", id.userns);
  d.field("hostNetwork", w.network.host_network);
  d.field("hostPID", w.network.host_pid);
  d.field("hostIPC", w.network.host_ipc);
  d.field("dnsPolicy", w.network.dns_policy);
  d.field("shareProcessNamespace", w.share_process_namespace);
}

// Mounts, environment, service account, ports, egress gates and exposures.
void dump_reach(const Dump& d, const Workload& w) {
  std::ostream& out = d.out;
  for (const auto& m : w.mounts) {
    out << fmt::format("    mount {} {} -> {}{}{} @ {} (mounted @ {})\n", mount_kind_name(m.kind),
                       m.source, m.target, m.read_only ? (m.read_only->value ? " ro" : " rw") : "",
                       m.projects_sa_token ? " sa-token" : "", d.at(m.source_from),
                       d.at(m.mount_from));
  }
  for (const auto& e : w.env) {
    out << fmt::format("    env {}={}{} @ {}\n", e.name, env_value(e), e.on_argv ? " argv" : "",
                       d.at(e.from));
  }
  for (const auto& b : w.env_bulk) {
    static const char* const kinds[] = {"secret", "configMap", "host-environment", "env-file"};
    out << fmt::format("    envFrom {} {} @ {}\n", kinds[static_cast<int>(b.kind)], b.name,
                       d.at(b.from));
  }
  out << fmt::format("    serviceAccount: {}{}{} grants={}\n", w.service.account,
                     w.service.pod_automount
                         ? fmt::format(" pod-automount={}", w.service.pod_automount->value)
                         : "",
                     w.service.account_automount
                         ? fmt::format(" sa-automount={}", w.service.account_automount->value)
                         : "",
                     w.service.grants.size());
  for (const auto& p : w.network.ports) {
    out << fmt::format("    port {} ip={} host={} ctr={} @ {}\n", p.spec, p.host_ip, p.host_port,
                       p.container_port, d.at(p.from));
  }
  for (const auto& g : w.network.egress) {
    out << fmt::format("    egress gate {} deny4={} deny6={} @ {}\n", g.name, g.denies_v4,
                       g.denies_v6, d.at(g.from));
    for (const auto& a : g.allows) {
      std::string ports;
      for (const auto& p : a.ports)
        ports += fmt::format(" {}{}", p.protocol.empty() ? "" : p.protocol + "/", p.from);
      out << fmt::format(
          "      allow {} {}{}{} @ {}\n", dest_kind_name(a.dest), a.value,
          a.except.empty() ? "" : " except " + fmt::format("{}", fmt::join(a.except, ",")), ports,
          d.at(a.from));
    }
  }
  if (w.network.ingress_default_deny) out << "    ingress default-deny\n";
  for (const auto& x : w.network.exposures) {
    static const char* const kinds[] = {"NodePort", "LoadBalancer", "externalIPs", "Ingress"};
    out << fmt::format("    exposed via {} {} @ {}\n", kinds[static_cast<int>(x.kind)], x.name,
                       d.at(x.from));
  }
}

// Resource limits, QoS and lifecycle.
void dump_budget(const Dump& d, const Workload& w) {
  std::ostream& out = d.out;
  const Resources& r = w.resources;
  d.field("limits.memory", r.memory_limit);
  d.field("limits.cpu", r.cpu_limit);
  d.field("limits.ephemeral-storage", r.ephemeral_limit);
  d.field("requests.memory", r.memory_request);
  d.field("requests.cpu", r.cpu_request);
  d.field("pids", r.pids_limit);
  if (r.qos) {
    out << fmt::format("    qos: {}{}\n", qos_name(*r.qos),
                       r.defaults_from_limit_range ? " (LimitRange defaults)" : "");
  }
  const Lifecycle& l = w.lifecycle;
  d.field("ttlSecondsAfterFinished", l.ttl_after_finished);
  d.field("activeDeadlineSeconds", l.active_deadline);
  d.field("timeout", l.timeout);
  d.field("shutdownTime", l.shutdown_time);
  d.field("rm", l.remove_on_exit);
  d.field("restart", l.restart);
  for (const auto& s : w.siblings) out << fmt::format("    sibling {} ({})\n", s.name, s.image);
}

// What the workload's image grants and which repository files it carries (Dockerfile COPY/ADD
// resolved against the build context), with the start scripts among them.
void dump_image_facts(const Dump& d, const Workload& w) {
  static const char* const kGrants[] = {"passwordless-sudo", "privileged-group", "setuid"};
  for (const ImageGrant& g : w.image_grants) {
    d.out << fmt::format("    image grant {} {}{} @ {}\n", kGrants[static_cast<int>(g.kind)],
                         g.detail, g.via.empty() ? "" : " via " + g.via, d.at(g.from));
  }
  for (const auto& f : w.image_files) {
    d.out << fmt::format("    image file {} <- {} @ {}\n", f.container_path, f.repo_path,
                         d.at(f.from));
  }
  for (const auto& f : w.start_scripts) {
    d.out << fmt::format("    start script {} <- {} @ {}\n", f.container_path, f.repo_path,
                         d.at(f.from));
  }
  if (w.working_dir) {
    d.out << fmt::format("    working dir {} @ {}\n", w.working_dir->value,
                         d.at(w.working_dir->from));
  }
  if (w.runs_devcontainer) {
    d.out << fmt::format("    runs devcontainer {} @ {}\n", w.runs_devcontainer->value,
                         d.at(w.runs_devcontainer->from));
  }
}

// Launcher, compose and devcontainer facts (Kubernetes dumps stay as they were).
void dump_launcher(const Dump& d, const Workload& w) {
  std::ostream& out = d.out;
  const Resources& r = w.resources;
  if (w.engine != Engine::Kubelet && w.engine != Engine::PodmanKubePlay) {
    if (w.network.mode) {
      static const char* const modes[] = {"pod",    "engine-default", "host",      "none",
                                          "bridge", "named",          "container", "ns",
                                          "pasta",  "slirp4netns"};
      out << fmt::format("    network: {}{} @ {}\n", modes[static_cast<int>(w.network.mode->value)],
                         w.network.mode_arg.empty() ? "" : " " + w.network.mode_arg,
                         d.at(w.network.mode->from));
    }
    for (const auto& alt : w.network.mode_alternatives) {
      static const char* const alts[] = {"pod",   "engine-default", "host", "none",  "bridge",
                                         "named", "container",      "ns",   "pasta", "slirp4netns"};
      out << fmt::format("    network on another path: {} @ {}\n",
                         alts[static_cast<int>(alt.value)], d.at(alt.from));
    }
    d.field("hostUTS", w.network.host_uts);
    d.list("host loopback", w.network.host_loopback);
    d.field("selinux disabled", w.identity.selinux_disabled);
    d.list("unmask", w.identity.unmasked_paths);
    d.field("systempaths unconfined", w.identity.systempaths_unconfined);
    d.field("memory-swap", r.memory_swap);
    d.list("gpus", r.gpus);
    d.list("device", r.devices);
    d.field("rootful", w.rootful);
    if (w.engine_unresolved) out << "    engine unresolved (judged as docker)\n";
    d.field("init", w.init);
    d.list("unknown option", w.unknown_options);
    d.list("setup command", w.setup_commands);
    d.list("host command", w.host_commands);
    for (const auto& f : w.features) {
      out << fmt::format("    feature: {}{} at {}\n", f.ref,
                         f.modelled ? "" : " (effect not modelled)", d.at(f.from));
    }
    if (!w.dockerfile.empty()) out << fmt::format("    dockerfile: {}\n", w.dockerfile);
    dump_image_facts(d, w);
    for (const auto& m : w.mounts) {
      if (m.propagation || m.relabel_shared || m.relabel_private || m.chown || m.overlay ||
          m.size_limit) {
        static const char* const prop[] = {"private", "slave", "shared"};
        out << fmt::format(
            "    mount {} options:{}{}{}{}{}{}\n", m.target,
            m.propagation
                ? fmt::format(" propagation={}", prop[static_cast<int>(m.propagation->value)])
                : "",
            m.relabel_shared ? " z" : "", m.relabel_private ? " Z" : "", m.chown ? " U" : "",
            m.overlay ? " O" : "", m.size_limit ? " size=" + m.size_limit->value : "");
      }
    }
  }
}

// The namespace's Pod Security Admission labels.
void dump_pod_security(const Dump& d, const Workload& w) {
  std::ostream& out = d.out;
  if (w.pod_security) {
    out << fmt::format("    pod-security enforce={} audit={} warn={}\n", w.pod_security->enforce,
                       w.pod_security->audit, w.pod_security->warn);
  }
}

void dump_images(const Dump& d, const Model& model) {
  std::ostream& out = d.out;
  for (const ImageBuild& b : model.images) {
    out << fmt::format("image build {}\n", model.files.path(b.file));
    for (const auto& base : b.bases) {
      out << fmt::format(
          "    from {}{} @ {}\n", base.reference,
          base.pinned ? " pinned" : (base.is_stage || base.is_scratch ? " stage" : ""),
          d.at(base.from));
    }
    d.field("user", b.final_user);
    for (const auto& e : b.env)
      out << fmt::format("    env {}={} @ {}\n", e.name, env_value(e), d.at(e.from));
    d.list("add url", b.added_urls);
    out << fmt::format("    run lines: {}\n", b.run_lines.size());
  }
}

void dump_seccomp_profiles(const Dump& d, const Model& model) {
  std::ostream& out = d.out;
  for (const SeccompProfile& p : model.seccomp_profiles) {
    out << fmt::format("seccomp profile {}\n", p.path);
    d.field("defaultAction", p.default_action);
    for (const auto& a : p.rules) {
      out << fmt::format("    syscall {} {}{} @ {}\n", a.syscall, a.action,
                         a.unconditional ? "" : " (conditional)", d.at(a.from));
    }
  }
}

}  // namespace

void write_model_dump(const Model& model, std::ostream& real_out) {
  // Everything is written to a buffer first and passes the same redactor as the findings, so
  // a secret in a command line, an image reference or a problem message never shows.
  std::ostringstream out;
  Dump d{model, out};
  for (const Workload& w : model.workloads) {
    dump_header(d, w);
    dump_identity(d, w);
    dump_reach(d, w);
    dump_budget(d, w);
    dump_launcher(d, w);
    dump_pod_security(d, w);
  }
  dump_images(d, model);
  dump_seccomp_profiles(d, model);
  for (const ScriptFacts& script : model.scripts) report::dump_script(model, script, out);
  report::dump_documents(model, out);
  for (const Problem& p : model.problems) {
    out << fmt::format("problem {} @ {}:{}:{}: {}\n", static_cast<int>(p.kind),
                       model.files.path(p.at.file), p.at.line, p.at.column, p.message);
  }
  out << fmt::format(
      "summary files={} kubernetes-documents={} other-yaml-documents={} scripts={}\n",
      model.summary.files_seen, model.summary.kubernetes_documents,
      model.summary.other_yaml_documents, model.summary.scripts);
  real_out << Redactor(model)(out.str());
}

}  // namespace sbr
