// Invariant 2: least privilege inside the boundary. See docs/invariants/2-privilege.md.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "analyzer/engine/defaults.h"
#include "analyzer/support/strings.h"
#include "generated/rule_ids.h"
#include "invariants/common.h"
#include "invariants/modules.h"
#include "invariants/workload_facts.h"

namespace sbr::inv {
namespace {

bool is_dangerous(Capability c) {
  return c == Capability::SysAdmin || c == Capability::SysModule ||
         c == Capability::DacReadSearch || c == Capability::Bpf || c == Capability::All;
}

// Capabilities Pod Security "baseline" lets a pod add; anything else is rejected there.
bool baseline_allows(Capability c) {
  switch (c) {
    case Capability::AuditWrite:
    case Capability::Chown:
    case Capability::DacOverride:
    case Capability::Fowner:
    case Capability::Fsetid:
    case Capability::Kill:
    case Capability::Mknod:
    case Capability::NetBindService:
    case Capability::Setfcap:
    case Capability::Setgid:
    case Capability::Setpcap:
    case Capability::Setuid:
    case Capability::SysChroot:
      return true;
    default:
      return false;
  }
}

std::string_view capability_risk(Capability c) {
  switch (c) {
    case Capability::SysAdmin:
      return "mount, namespace and device administration";
    case Capability::SysModule:
      return "loading kernel modules";
    case Capability::DacReadSearch:
      return "open_by_handle_at, which read host files in the past";
    case Capability::Bpf:
      return "loading eBPF programs into the kernel";
    case Capability::All:
      return "every capability";
    case Capability::NetAdmin:
      return "rewriting its network configuration and egress filters";
    case Capability::NetRaw:
      return "raw sockets: spoofing and sniffing on the pod network";
    case Capability::SysPtrace:
      return "tracing and injecting into other processes";
    default:
      return "a wider kernel surface than the task needs";
  }
}

void check_capabilities(const Model& model, const Workload& w, FactFindings& out) {
  bool drops_all = std::any_of(w.identity.cap_drop.begin(), w.identity.cap_drop.end(),
                               [](const auto& c) { return c.value == Capability::All; });
  // privileged ignores the capability lists; SB1001 already reports it.
  if (!drops_all && !is_privileged(w)) {
    UserState u = user_state(w);
    bool rootish = u == UserState::Root || u == UserState::Unknown;
    std::string what =
        fmt::format("does not drop all capabilities (no {})",
                    spell(w, "capabilities.drop: [ALL]", "--cap-drop=ALL", "cap_drop: [ALL]"));
    if (engine::keeps_net_raw_by_default(w.engine)) {
      what += w.engine_unresolved
                  ? "; the engine is unresolved and judged as docker, whose default set keeps "
                    "NET_RAW among others"
                  : "; the engine's default set keeps NET_RAW among others";
    } else {
      what += "; the engine's default set still holds CHOWN, DAC_OVERRIDE, SETUID and others";
    }
    if (rootish) {
      what += u == UserState::Root ? ", and it runs as root"
                                   : ", and nothing shows it runs as a non-root user";
    }
    std::vector<Related> related;
    for (const auto& d : w.identity.cap_drop) {
      related.push_back({d.from.at, fmt::format("drops {}", capability_name(d.value))});
    }
    out.add(w, rootish ? rule::capabilities_not_dropped_as_root : rule::capabilities_not_dropped,
            what + admission_note(w, PsaLevel::Restricted),
            // A drop list without ALL is the field to change; with none, the place to add one.
            w.identity.cap_drop.empty() ? container_security_anchor(w)
                                        : w.identity.cap_drop.front().from,
            "capabilities.drop", std::move(related));
  }

  if (w.identity.cap_add.empty()) return;
  ResolvedRuntime r = resolve_runtime(model, w);
  for (const auto& c : w.identity.cap_add) {
    std::string name(capability_name(c.value));
    std::string note =
        admission_note(w, baseline_allows(c.value) ? PsaLevel::Restricted : PsaLevel::Baseline);
    std::vector<Related> related;
    if (r.handler_line) related.push_back(*r.handler_line);
    if (is_dangerous(c.value) && r.rt.kind == engine::RuntimeKind::Runc) {
      out.add(w, rule::dangerous_capability_under_runc,
              fmt::format("adds capability {} under a runc-class runtime{}: {} on the host's "
                          "own kernel is a short path out of the container{}",
                          name, r.rt.handler.empty() ? "" : " (handler " + r.rt.handler + ")",
                          capability_risk(c.value), note),
              c.from, "capabilities.add/" + name, std::move(related));
      continue;
    }
    std::string where = is_dangerous(c.value)
                            ? fmt::format(" (contained by {}, still full power inside it)",
                                          runtime_kind_name(r.rt.kind))
                            : "";
    out.add(w, rule::capability_added,
            fmt::format("adds capability {}{}: {}{}", name, where, capability_risk(c.value), note),
            c.from, "capabilities.add/" + name, std::move(related));
  }
}

void check_escalation(const Workload& w, FactFindings& out) {
  if (is_privileged(w) || !engine::privilege_escalation_allowed(w)) return;
  std::string note = admission_note(w, PsaLevel::Restricted);
  if (w.identity.allow_privilege_escalation) {
    out.add(w, rule::privilege_escalation_allowed,
            MessageArgs{{"setting", "allows privilege escalation (allowPrivilegeEscalation: true)"},
                        {"admission", note}},
            w.identity.allow_privilege_escalation->from, "allowPrivilegeEscalation");
    return;
  }
  std::string unset =
      spell(w, "allowPrivilegeEscalation: false", "--security-opt no-new-privileges",
            "security_opt: [no-new-privileges:true]");
  out.add(w, rule::privilege_escalation_allowed,
          MessageArgs{{"setting", fmt::format("does not set {} (unset allows escalation)", unset)},
                      {"admission", note}},
          container_security_anchor(w), "allowPrivilegeEscalation");
}

// How the image decides a root user: `USER root` written in its Dockerfile, or no USER in the
// final stage. "" when the user is the workload's own setting.
std::string image_root(const Model& model, const Workload& w) {
  const Provenance& from = w.identity.run_as_user->from;
  if (from.frontend != Frontend::Dockerfile) return "";
  for (const ImageBuild& b : model.images) {
    if (b.path != w.dockerfile) continue;
    if (b.final_user && b.final_user->from.at == from.at)
      return fmt::format("USER {} in {}", b.final_user->value, b.path);
    return fmt::format(
        "{} sets no USER in its final stage: the base image's user, root for "
        "the usual base images",
        b.path);
  }
  return "";
}

void check_user(const Model& model, const Workload& w, FactFindings& out) {
  const Identity& id = w.identity;
  std::string note = admission_note(w, PsaLevel::Restricted);
  switch (user_state(w)) {
    case UserState::NonRoot:
      return;
    case UserState::Root:
      if (id.run_as_user) {
        std::string how = image_root(model, w);
        if (how.empty()) how = spell(w, "runAsUser: 0", "--user 0", "user: 0");
        out.add(w, rule::runs_as_root,
                fmt::format("runs as root ({}): every file the image owns and every kernel path "
                            "gated on uid 0 is open to it{}",
                            how, note),
                id.run_as_user->from, "user");
      } else {
        out.add(w, rule::runs_as_root,
                "runs as root (user root): every file the image owns and every kernel path "
                "gated on uid 0 is open to it" +
                    note,
                id.user_name->from, "user");
      }
      return;
    case UserState::Unknown:
      if (id.run_as_non_root) {
        // A written `runAsNonRoot: false` is the field to change: reported there.
        out.add(w, rule::runs_as_root,
                "sets runAsNonRoot: false and no runAsUser: the image decides the user, and most "
                "images run as root" +
                    note,
                id.run_as_non_root->from, "user");
        return;
      }
      out.add(
          w, rule::runs_as_root,
          fmt::format("sets no {}: the image decides the user, and most images run as "
                      "root{}",
                      spell(w, "runAsUser and no runAsNonRoot: true", "--user", "`user`"), note),
          container_security_anchor(w), "user");
      return;
    case UserState::Named:
      out.add(w, rule::user_name_unverifiable,
              fmt::format("runs as user name {}, which cannot be verified to be non-root here "
                          "(the image's /etc/passwd decides); a numeric uid can",
                          id.user_name->value),
              id.user_name->from, "user");
      return;
  }
}

void check_root_fs(const Workload& w, FactFindings& out) {
  const auto& ro = w.identity.read_only_root;
  if (ro && ro->value) return;
  if (ro) {
    out.add(w, rule::writable_root_filesystem,
            MessageArgs{{"setting", "readOnlyRootFilesystem: false"}}, ro->from,
            "readOnlyRootFilesystem");
    return;
  }
  std::string unset =
      "no " + spell(w, "readOnlyRootFilesystem: true", "--read-only", "read_only: true");
  out.add(w, rule::writable_root_filesystem, MessageArgs{{"setting", unset}},
          container_security_anchor(w), "readOnlyRootFilesystem");
}

void check_seccomp(const Model& model, const Workload& w, FactFindings& out) {
  const auto& s = w.identity.seccomp;
  if (s && s->value.kind == SeccompKind::Unconfined) {
    out.add(w, rule::seccomp_unconfined,
            fmt::format("runs seccomp Unconfined ({} is written): every system call reaches the "
                        "host kernel{}",
                        spell(w, "seccompProfile type Unconfined", "seccomp=unconfined",
                              "seccomp:unconfined"),
                        admission_note(w, PsaLevel::Baseline)),
            s->from, "seccomp");
    return;
  }
  if (s || is_privileged(w)) return;
  if (engine::effective_seccomp(w, model.cluster_facts) != SeccompKind::Unconfined) return;
  out.add(w, rule::seccomp_unconfined,
          "sets no seccompProfile and the kubelet's seccompDefault is not declared "
          "(.sbreview.yaml cluster.seccomp_default): Kubernetes runs it Unconfined, so every "
          "system call reaches the host kernel" +
              admission_note(w, PsaLevel::Restricted),
          pod_security_anchor(w), "seccomp");
}

void check_lsm(const Workload& w, FactFindings& out) {
  const Identity& id = w.identity;
  std::string note = admission_note(w, PsaLevel::Baseline);
  if (id.apparmor && lower(id.apparmor->value) == "unconfined") {
    out.add(w, rule::lsm_disabled,
            fmt::format("disables AppArmor ({}): the mandatory access control layer that blocks "
                        "mounts and writes to /proc and /sys is off{}",
                        spell(w, "AppArmor profile Unconfined", "apparmor=unconfined"), note),
            id.apparmor->from, "apparmor");
  }
  if (id.selinux_type && id.selinux_type->value == "spc_t") {
    out.add(w, rule::lsm_disabled,
            fmt::format("runs as SELinux type spc_t ({}): the super-privileged container type "
                        "is not confined by the container policy{}",
                        spell(w, "seLinuxOptions.type: spc_t", "label=type:spc_t"), note),
            id.selinux_type->from, "selinux");
  }
  if (id.selinux_disabled && id.selinux_disabled->value) {
    out.add(w, rule::lsm_disabled,
            "disables SELinux separation (--security-opt label=disable): host files the "
            "container reaches are no longer kept apart by label",
            id.selinux_disabled->from, "selinux.disable");
  }
}

bool strong_level(const std::string& v) {
  return v == "baseline" || v == "restricted";
}

void check_admission(const Model& model, Findings& out) {
  for (const NamespaceObject& ns : model.cluster.namespaces) {
    const PodSecurityLabels& l = ns.labels;
    if (strong_level(l.enforce)) continue;
    if (l.audit.empty() && l.warn.empty()) continue;
    std::vector<std::string> modes;
    if (!l.audit.empty()) modes.push_back("audit=" + l.audit);
    if (!l.warn.empty()) modes.push_back("warn=" + l.warn);
    Finding f;
    f.rule_id = rule::pod_security_admission_not_enforced;
    f.message = rule_message(
        f.rule_id, {{"namespace", ns.ref.name},
                    {"modes", fmt::format("{}", fmt::join(modes, ", "))},
                    {"enforce", l.enforce.empty() ? "no enforce label" : "enforce=" + l.enforce}});
    const Provenance& at = l.from.at.valid() ? l.from : ns.ref.from;
    f.at = at.at;
    f.subject = "Namespace//" + ns.ref.name;
    f.fact_path = "pod-security.enforce";
    out.add(std::move(f));
  }
}

}  // namespace

void check_privilege(const Model& model, Findings& out) {
  {
    FactFindings facts(out);
    for (const Workload& w : model.workloads) {
      check_seccomp(model, w, facts);  // the pod's seccompProfile
      // A pod spec without containers: nothing container-level exists to judge (SB0005 says so).
      if (w.pod_only) continue;
      check_capabilities(model, w, facts);
      check_escalation(w, facts);
      check_user(model, w, facts);
      check_root_fs(w, facts);
      check_lsm(w, facts);
    }
  }
  check_admission(model, out);
  check_script_privilege(model, out);  // SB2050, invariants/inv2_script.cpp
  check_seccomp_profiles(model, out);  // SB2051, SB2052: invariants/inv2_seccomp_profile.cpp
  check_image_grants(model, out);      // SB2060-SB2063: invariants/inv2_image.cpp
}

}  // namespace sbr::inv
