// Doc-claim predicates about the process inside the boundary: runtime, privileges, user, root
// file system, profiles, token and budgets.
#include <fmt/format.h>

#include <algorithm>

#include "analyzer/engine/defaults.h"
#include "analyzer/engine/secrets_inside.h"
#include "analyzer/support/strings.h"
#include "invariants/common.h"
#include "invariants/doc_claims_parts.h"
#include "invariants/workload_facts.h"

namespace sbr::inv::claims {

const Provenance& lacks_at(const Workload& w) {
  return container_anchor(w);
}

namespace {

// A boolean control set to `want` where the claim looks.
template <class T>
bool set_to(const Maybe<T>& f, const T& want, const ClaimContext& c) {
  return f && f->value == want && present_on_path(f->from, c);
}

// Capabilities whose return under runc is critical (INVARIANTS.md 2).
bool critical_capability(Capability cap) {
  return cap == Capability::SysAdmin || cap == Capability::SysModule ||
         cap == Capability::DacReadSearch || cap == Capability::Bpf || cap == Capability::All;
}

Judgement missing(const Workload& w, std::string_view k8s, std::string_view cli,
                  std::string_view compose = {}) {
  std::string setting = spell(w, k8s, cli, compose);
  return contradicted(fmt::format("runs without {}", setting), lacks_at(w),
                      fmt::format("{} is not set for this container", setting));
}

}  // namespace

Judgement hardened_runtime(const ClaimContext& c, const Workload& w, const Claim& claim) {
  ResolvedRuntime r = resolve_runtime(c.model, w);
  engine::RuntimeKind want =
      claim.value == "microvm" ? engine::RuntimeKind::MicroVm : engine::RuntimeKind::GVisor;
  bool on_path = !w.runtime_class || present_on_path(w.runtime_class->from, c);
  if (r.rt.kind == want && on_path) return holds();
  std::string got = on_path ? std::string(runtime_kind_name(r.rt.kind)) : "runc";
  const Provenance& at = r.rt.from.at.valid() && on_path ? r.rt.from : lacks_at(w);
  return contradicted(fmt::format("runs under {}, not {}", got,
                                  want == engine::RuntimeKind::MicroVm ? "a microVM" : "gVisor"),
                      at, on_path && w.runtime_class ? "the runtime it gets" : "no runtime is set");
}

Judgement not_privileged(const ClaimContext& c, const Workload& w, const Claim&) {
  if (!is_privileged(w) || !reached_on_path(w.identity.privileged->from, c)) return holds();
  return contradicted("runs privileged", w.identity.privileged->from, "privileged here", true);
}

Judgement cap_drop_all(const ClaimContext& c, const Workload& w, const Claim&) {
  bool all = std::any_of(w.identity.cap_drop.begin(), w.identity.cap_drop.end(), [&](auto& f) {
    return f.value == Capability::All && present_on_path(f.from, c);
  });
  if (!all) return missing(w, "capabilities.drop: [ALL]", "--cap-drop=ALL", "cap_drop: [ALL]");
  for (const Fact<Capability>& add : w.identity.cap_add) {
    if (!reached_on_path(add.from, c)) continue;
    bool runc = resolve_runtime(c.model, w).rt.kind == engine::RuntimeKind::Runc;
    return contradicted(fmt::format("adds {} back", capability_name(add.value)), add.from,
                        "the capability is added here", runc && critical_capability(add.value));
  }
  return holds();
}

Judgement no_new_privileges(const ClaimContext& c, const Workload& w, const Claim&) {
  if (set_to(w.identity.allow_privilege_escalation, false, c)) return holds();
  const auto& f = w.identity.allow_privilege_escalation;
  if (f && f->value && reached_on_path(f->from, c))
    return contradicted("allows privilege escalation", f->from, "set here");
  return missing(w, "allowPrivilegeEscalation: false", "--security-opt no-new-privileges",
                 "security_opt: [no-new-privileges]");
}

Judgement non_root_user(const ClaimContext& c, const Workload& w, const Claim&) {
  switch (user_state(w)) {
    case UserState::NonRoot:
      if (w.identity.run_as_user && !present_on_path(w.identity.run_as_user->from, c))
        return missing(w, "runAsUser", "--user");
      return holds();
    case UserState::Root: {
      const Provenance& at = w.identity.run_as_user ? w.identity.run_as_user->from
                             : w.identity.user_name ? w.identity.user_name->from
                                                    : lacks_at(w);
      return contradicted("runs as root (uid 0)", at, "the user is set here");
    }
    case UserState::Named:
      return not_checkable(fmt::format("the user `{}` is a name; its uid is not in the input",
                                       w.identity.user_name->value));
    case UserState::Unknown:
      break;
  }
  return not_checkable("no user is set; the image decides, and its user is not in the input");
}

Judgement read_only_root(const ClaimContext& c, const Workload& w, const Claim&) {
  if (set_to(w.identity.read_only_root, true, c)) return holds();
  return missing(w, "readOnlyRootFilesystem: true", "--read-only", "read_only: true");
}

Judgement seccomp_profile(const ClaimContext& c, const Workload& w, const Claim& claim) {
  SeccompKind kind = engine::effective_seccomp(w, c.model.cluster_facts);
  const auto& s = w.identity.seccomp;
  if (kind == SeccompKind::Unconfined) {
    return contradicted("runs without seccomp (Unconfined)", s ? s->from : lacks_at(w),
                        s ? "seccomp is turned off here" : "no profile is set");
  }
  if (claim.value.empty()) return holds();
  std::string want = base_name(claim.value);
  if (s && (base_name(s->value.profile) == want) && present_on_path(s->from, c)) return holds();
  return contradicted(fmt::format("does not use the profile `{}` ({})", want,
                                  s && !s->value.profile.empty() ? "it names " + s->value.profile
                                                                 : "the engine default applies"),
                      s ? s->from : lacks_at(w), "the seccomp setting");
}

Judgement apparmor_profile(const ClaimContext& c, const Workload& w, const Claim& claim) {
  const auto& a = w.identity.apparmor;
  if (a && present_on_path(a->from, c)) {
    std::string got = a->value;
    if (got.rfind("localhost/", 0) == 0) got = got.substr(10);
    if (got == claim.value) return holds();
    return contradicted(fmt::format("uses the AppArmor profile `{}`", a->value), a->from,
                        "the profile is set here");
  }
  return contradicted("sets no AppArmor profile", lacks_at(w), "no profile is set");
}

Judgement no_token_automount(const ClaimContext&, const Workload& w, const Claim&) {
  if (!is_kubernetes(w)) return not_applicable("not a Kubernetes pod");
  if (!engine::service_account_token_reaches(w)) return holds();
  const Provenance& at = w.service.pod_automount ? w.service.pod_automount->from : pod_anchor(w);
  return contradicted("mounts a service-account token", at, "the pod's token setting");
}

namespace {

// A limit the claim names: present on its path, with the value the claim states if any.
Judgement limit(const ClaimContext& c, const Workload& w, const Claim& claim,
                const Maybe<std::string>& f, std::string_view k8s, std::string_view cli) {
  if (!f || !present_on_path(f->from, c)) return missing(w, k8s, cli);
  if (!claim.value.empty() && lower(f->value) != lower(claim.value)) {
    return contradicted(
        fmt::format("sets {} to {}, not {}", spell(w, k8s, cli), f->value, claim.value), f->from,
        "the limit is set here");
  }
  return holds();
}

}  // namespace

Judgement memory_limit(const ClaimContext& c, const Workload& w, const Claim& claim) {
  return limit(c, w, claim, w.resources.memory_limit, "resources.limits.memory", "--memory");
}

Judgement cpu_limit(const ClaimContext& c, const Workload& w, const Claim& claim) {
  return limit(c, w, claim, w.resources.cpu_limit, "resources.limits.cpu", "--cpus");
}

Judgement pids_limit(const ClaimContext& c, const Workload& w, const Claim& claim) {
  const auto& p = w.resources.pids_limit;
  if (p && present_on_path(p->from, c)) {
    if (p->value <= 0) {
      return contradicted(fmt::format("sets no process limit (--pids-limit {})", p->value), p->from,
                          "the limit is turned off here");
    }
    if (!claim.value.empty() && claim.value != std::to_string(p->value)) {
      return contradicted(fmt::format("limits processes to {}, not {}", p->value, claim.value),
                          p->from, "the limit is set here");
    }
    return holds();
  }
  // The claim's purpose holds when the engine limits processes by default (podman 2048), unless
  // the document names a value the default is not.
  if (auto d = engine::default_pids_limit(w.engine, c.model.cluster_facts);
      d && claim.value.empty()) {
    return holds(fmt::format("the engine's default limit of {} applies", *d));
  }
  return missing(w, "the kubelet's podPidsLimit", "--pids-limit");
}

Judgement wall_clock(const ClaimContext& c, const Workload& w, const Claim&) {
  for (const auto* f : {&w.lifecycle.timeout, &w.lifecycle.active_deadline}) {
    if (*f && present_on_path((*f)->from, c)) return holds();
  }
  return missing(w, "activeDeadlineSeconds", "--timeout");
}

}  // namespace sbr::inv::claims
