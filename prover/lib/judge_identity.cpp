// Invariants 1 and 2 from the probe's identity: the kernel it runs on, its namespaces compared
// with the host's, its capability sets, no_new_privs, seccomp and uid.
#include <fmt/format.h>

#include "generated/rule_ids.h"
#include "prover/lib/judge.h"

namespace sbr::prove::detail {
namespace {

constexpr int kSysAdmin = 21;

bool has_bit(const std::string& hex, int bit) {
  for (int b : capability_bits(hex)) {
    if (b == bit) return true;
  }
  return false;
}

std::string caps_observed(const ProbeReport& r) {
  return "bounding set: " + capability_names(r.cap_bnd);
}

// A host namespace shared or not: the probe's namespace identity against the prover's own.
RuntimeVerdict same_namespace(const Case& c, const std::string& kind, const char* field) {
  if (const NotPassed* n = c.skipped(field)) return unverifiable(n->reason);
  auto in = c.r.namespaces.find(kind);
  auto host = c.obs.host_namespaces.find(kind);
  if (in == c.r.namespaces.end() || in->second.empty() || host == c.obs.host_namespaces.end()) {
    return unverifiable("the " + kind + " namespace could not be read");
  }
  // Namespace ids differ between runs: the output says whether it is the host's, not which.
  bool same = in->second == host->second;
  std::string seen = fmt::format("the {} namespace is {}", kind, same ? "the host's" : "its own");
  return same ? confirmed(seen) : refuted(seen);
}

// The uid a finding about root depends on is the workload's own only when it sets one.
bool uid_is_the_workloads(const Case& c) {
  return c.w.identity.run_as_user.has_value();
}

RuntimeVerdict host_root(const Case& c) {
  if (!uid_is_the_workloads(c)) {
    return unverifiable("the image's USER decides the uid, and the image is replaced");
  }
  auto in = c.r.namespaces.find("user");
  auto host = c.obs.host_namespaces.find("user");
  bool same = in != c.r.namespaces.end() && host != c.obs.host_namespaces.end() &&
              in->second == host->second;
  std::string seen = fmt::format("uid {} in {} user namespace", c.r.uid.value_or(-1),
                                 same ? "the host's" : "its own");
  return c.r.uid == 0 && same ? confirmed(seen) : refuted(seen);
}

RuntimeVerdict capability(const Case& c) {
  const std::string& path = c.f.fact_path;
  std::string name = path.substr(path.find('/') + 1);
  Capability cap = parse_capability(name);
  if (cap == Capability::All) {
    return has_bit(c.r.cap_bnd, kSysAdmin) ? confirmed(caps_observed(c.r))
                                           : refuted(caps_observed(c.r));
  }
  int bit = capability_bit(cap);
  if (bit < 0) return unverifiable("capability `" + name + "` has no kernel number");
  return has_bit(c.r.cap_bnd, bit) ? confirmed(caps_observed(c.r)) : refuted(caps_observed(c.r));
}

}  // namespace

std::optional<RuntimeVerdict> judge_boundary(const Case& c) {
  const RuleId id = c.f.rule_id;
  const ProbeReport& r = c.r;
  if (id == rule::runtime_not_hardened) {
    std::string seen = r.gvisor ? "gVisor kernel" : fmt::format("kernel {}", r.kernel_release);
    if (r.gvisor) return refuted(seen);
    if (r.kernel_release != c.obs.host_kernel_release) {
      return unverifiable("the kernel is neither gVisor's nor the host's", seen);
    }
    return confirmed(seen + ", the host's own: plain " + c.plan.runtime);
  }
  if (id == rule::privileged_container) {
    std::string seen = fmt::format("{}; seccomp mode {}", caps_observed(r), r.seccomp.value_or(-1));
    if (c.runsc()) return unverifiable("under gVisor the capability sets are gVisor's own", seen);
    return has_bit(r.cap_bnd, kSysAdmin) && r.seccomp == 0 ? confirmed(seen) : refuted(seen);
  }
  if (id == rule::host_pid_namespace) return same_namespace(c, "pid", "hostPID");
  if (id == rule::host_network_namespace) return same_namespace(c, "net", "hostNetwork");
  if (id == rule::host_ipc_or_uts_namespace) {
    bool uts = c.f.fact_path == "namespaces.uts";
    return same_namespace(c, uts ? "uts" : "ipc", uts ? "hostUTS" : "hostIPC");
  }
  if (id == rule::container_root_is_host_root) return host_root(c);
  if (id == rule::unmasked_proc) {
    if (const NotPassed* n = c.skipped("procMount")) return unverifiable(n->reason);
    std::string open;
    for (const auto& [path, masked] : r.masked) {
      if (!masked) open += (open.empty() ? "" : ", ") + path;
    }
    return open.empty() ? refuted("every masked /proc and /sys path is masked")
                        : confirmed("unmasked: " + open);
  }
  if (id == rule::shared_namespace_with_sidecar) {
    return unverifiable("the pod's or service's other containers are not launched");
  }
  if (id == rule::host_device_access) {
    return unverifiable("host devices are not passed to the launch (they reach host hardware)");
  }
  return std::nullopt;
}

std::optional<RuntimeVerdict> judge_privilege(const Case& c) {
  const RuleId id = c.f.rule_id;
  const ProbeReport& r = c.r;
  if (id == rule::capabilities_not_dropped || id == rule::capabilities_not_dropped_as_root) {
    return capability_bits(r.cap_bnd).empty() ? refuted(caps_observed(r))
                                              : confirmed(caps_observed(r));
  }
  if (id == rule::dangerous_capability_under_runc || id == rule::capability_added) {
    return capability(c);
  }
  if (id == rule::privilege_escalation_allowed) {
    if (!r.no_new_privs) return unverifiable("the kernel reports no NoNewPrivs (gVisor)");
    std::string seen = fmt::format("NoNewPrivs {}", *r.no_new_privs);
    return *r.no_new_privs == 0 ? confirmed(seen) : refuted(seen);
  }
  if (id == rule::runs_as_root) {
    if (!uid_is_the_workloads(c)) {
      return unverifiable("the image's USER decides the uid, and the image is replaced");
    }
    std::string seen = fmt::format("uid {}", r.uid.value_or(-1));
    return r.uid == 0 ? confirmed(seen) : refuted(seen);
  }
  if (id == rule::user_name_unverifiable) {
    return unverifiable("a user name is looked up in the image, which the probe replaces");
  }
  if (id == rule::writable_root_filesystem) {
    // By the mount's flags (what --read-only sets), not access(2): who owns / in the probe's
    // image is not the workload's image.
    bool ro = r.root.read_only_flag;
    std::string seen = ro ? "/ is mounted read-only" : "/ is mounted read-write";
    return ro ? refuted(seen) : confirmed(seen);
  }
  if (id == rule::seccomp_unconfined) {
    if (c.runsc()) return unverifiable("gVisor reports no seccomp mode");
    if (c.kube() && !c.w.identity.seccomp) {
      return unverifiable(
          "podman applies its default seccomp profile where the kubelet applies none");
    }
    std::string seen = fmt::format("seccomp mode {}", r.seccomp.value_or(-1));
    return r.seccomp == 0 ? confirmed(seen) : refuted(seen);
  }
  if (id == rule::lsm_disabled) {
    if (r.lsm_label.empty()) return unverifiable("this machine runs no LSM the probe can read");
    bool unconfined = r.lsm_label.find("unconfined") != std::string::npos;
    return unconfined ? confirmed("LSM label " + r.lsm_label) : refuted("LSM label " + r.lsm_label);
  }
  return std::nullopt;
}

}  // namespace sbr::prove::detail
