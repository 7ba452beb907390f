// Invariant 2: least privilege inside the boundary. See docs/invariants/2-privilege.md.
// Capabilities (SB2001-SB2004: the runtime they are added under, the PSA level that admits each)
// and the user (SB2006: whether the image or the setting makes it root) stay here; escalation,
// the root filesystem, seccomp, LSMs, user names and PSA labels are data rules.
#include <fmt/format.h>

#include <algorithm>

#include "analyzer/engine/defaults.h"
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

// The engine's default capabilities that the workload names in its add list (never a
// host-escape one: those are judged by themselves whatever the default).
std::vector<const Fact<Capability>*> default_adds(const Workload& w) {
  std::vector<const Fact<Capability>*> out;
  for (const auto& c : w.identity.cap_add) {
    if (!is_dangerous(c.value) && engine::in_default_set(w.engine, c.value)) out.push_back(&c);
  }
  return out;
}

std::string capability_list(const std::vector<const Fact<Capability>*>& caps) {
  std::string out;
  for (const auto* c : caps) {
    if (!out.empty()) out += ", ";
    out += capability_name(c->value);
  }
  return out;
}

std::string root_note(UserState u) {
  if (u == UserState::Root) return ", and it runs as root";
  if (u == UserState::Unknown) return ", and nothing shows it runs as a non-root user";
  return "";
}

bool rootish(UserState u) {
  return u == UserState::Root || u == UserState::Unknown;
}

// The default set kept whole: no `drop: [ALL]`. Adding one of its capabilities changes
// nothing, so those adds are this finding's related places, not findings of their own.
void check_default_set_kept(const Workload& w, FactFindings& out) {
  UserState u = user_state(w);
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
  what += root_note(u);
  std::vector<Related> related;
  for (const auto& d : w.identity.cap_drop) {
    related.push_back({d.from.at, fmt::format("drops {}", capability_name(d.value))});
  }
  for (const auto* c : default_adds(w)) {
    related.push_back({c->from.at, fmt::format("adds {}, which the engine grants by default",
                                               capability_name(c->value))});
  }
  out.add(
      w, rootish(u) ? rule::capabilities_not_dropped_as_root : rule::capabilities_not_dropped,
      what + admission_note(w, PsaLevel::Restricted),
      // A drop list without ALL is the field to change; with none, the place to add one.
      w.identity.cap_drop.empty() ? container_security_anchor(w) : w.identity.cap_drop.front().from,
      "capabilities.drop", std::move(related));
}

// `drop: [ALL]` then some of the default set added back: a subset of what keeping the default
// set gives, so never judged worse than that (one finding of the same rule, not one per add).
void check_default_set_readded(const Workload& w, FactFindings& out) {
  auto adds = default_adds(w);
  if (adds.empty()) return;
  UserState u = user_state(w);
  std::vector<Related> related;
  for (size_t i = 1; i < adds.size(); ++i) {
    related.push_back({adds[i]->from.at, fmt::format("adds {}", capability_name(adds[i]->value))});
  }
  out.add(w, rootish(u) ? rule::capabilities_not_dropped_as_root : rule::capabilities_not_dropped,
          fmt::format("drops all capabilities, then adds back {} of the engine's default set{}{}",
                      capability_list(adds), root_note(u), admission_note(w, PsaLevel::Restricted)),
          adds.front()->from, "capabilities.drop", std::move(related));
}

void check_added(const Model& model, const Workload& w, FactFindings& out) {
  ResolvedRuntime r = resolve_runtime(model, w);
  for (const auto& c : w.identity.cap_add) {
    if (!is_dangerous(c.value) && engine::in_default_set(w.engine, c.value)) continue;
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

void check_capabilities(const Model& model, const Workload& w, FactFindings& out) {
  // privileged ignores the capability lists; SB1001 already reports it.
  if (is_privileged(w)) {
    if (!w.identity.cap_add.empty()) check_added(model, w, out);
    return;
  }
  bool drops_all = std::any_of(w.identity.cap_drop.begin(), w.identity.cap_drop.end(),
                               [](const auto& c) { return c.value == Capability::All; });
  if (drops_all) {
    check_default_set_readded(w, out);
  } else {
    check_default_set_kept(w, out);
  }
  if (!w.identity.cap_add.empty()) check_added(model, w, out);
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
    case UserState::Named:  // SB2007, a data rule
      return;
  }
}

}  // namespace

void check_privilege(const Model& model, Findings& out) {
  {
    FactFindings facts(out, model);
    for (const Workload& w : model.workloads) {
      // A pod spec without containers: nothing container-level exists to judge (SB0005 says so).
      if (w.pod_only) continue;
      check_capabilities(model, w, facts);
      check_user(model, w, facts);
    }
  }
  check_script_privilege(model, out);  // SB2050, invariants/inv2_script.cpp
  check_seccomp_profiles(model, out);  // SB2051, SB2052: invariants/inv2_seccomp_profile.cpp
  check_image_grants(model, out);      // SB2060-SB2063: invariants/inv2_image.cpp
}

}  // namespace sbr::inv
