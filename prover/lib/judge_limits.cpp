// Invariant 6 from the cgroup the probe runs in (v1 or v2): memory, swap, pids and CPU.
#include <fmt/format.h>

#include "generated/rule_ids.h"
#include "prover/lib/judge.h"

namespace sbr::prove::detail {
namespace {

std::optional<RuntimeVerdict> no_cgroup(const Case& c) {
  if (c.runsc()) return unverifiable("gVisor shows no cgroup filesystem inside");
  if (c.r.cgroup_version == 0) return unverifiable("no cgroup filesystem inside");
  return std::nullopt;
}

RuntimeVerdict unlimited(const Case& c, const char* what, const std::string& raw) {
  auto v = cgroup_limit(raw);
  if (!v)
    return confirmed(fmt::format("no {} limit in the cgroup (v{})", what, c.r.cgroup_version));
  return refuted(fmt::format("cgroup v{} {} limit {}", c.r.cgroup_version, what, *v));
}

RuntimeVerdict pids(const Case& c) {
  if (c.kube()) {
    return unverifiable("podman kube play sets no pids limit; the kubelet's podPidsLimit decides");
  }
  RuntimeVerdict v = unlimited(c, "pids", c.r.pids);
  const bool docker = (c.w.engine == Engine::Docker || c.w.engine == Engine::Compose ||
                       c.w.engine == Engine::Devcontainer) &&
                      !c.w.engine_unresolved;
  if (v.verdict == Verdict::Refuted && !c.w.resources.pids_limit) {
    // The limit seen is podman's default: it refutes the finding only where podman may be the
    // engine; docker sets none.
    if (docker)
      return unverifiable("docker sets no default pids limit; podman's applied here", v.observed);
    v.reason = "podman's default pids limit applies";
  }
  return v;
}

}  // namespace

std::optional<RuntimeVerdict> judge_limits(const Case& c) {
  const RuleId id = c.f.rule_id;
  if (id == rule::no_memory_limit) {
    if (auto n = no_cgroup(c)) return n;
    return unlimited(c, "memory", c.r.memory);
  }
  if (id == rule::unlimited_swap) {
    if (auto n = no_cgroup(c)) return n;
    if (c.r.memory_swap.empty()) return unverifiable("this kernel does not account swap");
    return unlimited(c, "memory+swap", c.r.memory_swap);
  }
  if (id == rule::no_pids_limit) {
    if (auto n = no_cgroup(c)) return n;
    return pids(c);
  }
  if (id == rule::pids_limit_not_declared) {
    return unverifiable("podman kube play sets no pids limit; the kubelet's podPidsLimit decides");
  }
  if (id == rule::no_cpu_limit) {
    if (auto n = no_cgroup(c)) return n;
    auto cpus = cgroup_cpus(c.r.cpu);
    std::string seen = cpus ? fmt::format("CPU quota {:.2f} CPUs", *cpus) : "no CPU quota";
    return cpus ? refuted(seen) : confirmed(seen);
  }
  if (id == rule::no_ephemeral_storage_limit || id == rule::burstable_qos_with_limits) {
    return unverifiable("the kubelet's storage and QoS accounting is not podman's");
  }
  if (id == rule::no_wall_clock)
    return unverifiable("the probe exits by itself: a wall clock is not measured");
  return std::nullopt;
}

}  // namespace sbr::prove::detail
