// Invariant 2: a custom seccomp profile in the input is judged against the engines' default
// profile. A profile that allows by default, or allows unconditionally a syscall the default
// allows only with a capability, is weaker than using no custom profile at all.
#include <fmt/format.h>

#include "analyzer/engine/seccomp_default.h"
#include "generated/rule_ids.h"
#include "invariants/common.h"
#include "invariants/modules.h"

namespace sbr::inv {
namespace {

bool ends_with(std::string_view s, std::string_view tail) {
  return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
}

// Workloads whose seccomp option names this profile (by path suffix: launchers write paths
// relative to where they run).
std::vector<Related> users_of(const Model& model, const SeccompProfile& p) {
  std::vector<Related> out;
  for (const Workload& w : model.workloads) {
    if (!w.identity.seccomp) continue;
    const Seccomp& s = w.identity.seccomp->value;
    if (s.kind != SeccompKind::CustomFile && s.kind != SeccompKind::Localhost) continue;
    std::string ref = s.profile;
    while (ref.rfind("./", 0) == 0) ref.erase(0, 2);
    if (ref.empty()) continue;
    if (ends_with(p.path, ref) || ends_with(ref, p.path)) {
      out.push_back({w.identity.seccomp->from.at, "used by " + describe(w)});
    }
  }
  return out;
}

Finding profile_finding(const Model& model, const SeccompProfile& p, RuleId rule,
                        std::string message, const Provenance& at, std::string fact_path) {
  Finding f;
  f.rule_id = rule;
  f.message = std::move(message);
  f.at = at.at;
  f.subject = "seccomp " + p.path;
  f.fact_path = std::move(fact_path);
  f.related = users_of(model, p);
  return f;
}

}  // namespace

void check_seccomp_profiles(const Model& model, Findings& out) {
  for (const SeccompProfile& p : model.seccomp_profiles) {
    if (p.default_action && engine::default_action_allows(p.default_action->value)) {
      out.add(profile_finding(model, p, rule::seccomp_profile_default_allows,
                              fmt::format("seccomp profile {}: defaultAction `{}` lets every "
                                          "syscall the profile does not list through; deny by "
                                          "default (SCMP_ACT_ERRNO) and list what is allowed",
                                          p.path, p.default_action->value),
                              p.default_action->from, "defaultAction"));
      continue;  // everything is allowed: listing single syscalls would add nothing
    }
    for (const SeccompRule& a : p.rules) {
      if (!a.unconditional || !engine::default_action_allows(a.action)) continue;
      auto cap = engine::gated_by(a.syscall);
      if (!cap) continue;
      out.add(profile_finding(
          model, p, rule::seccomp_profile_allows_privileged_syscall,
          fmt::format("seccomp profile {}: `{}` is allowed unconditionally; the engines' default "
                      "profile allows it only to a container holding CAP_{}",
                      p.path, a.syscall, capability_name(*cap)),
          a.from, "syscalls/" + a.syscall));
    }
  }
}

}  // namespace sbr::inv
