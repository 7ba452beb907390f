#include "prover/lib/judge.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <utility>

#include "generated/rule_ids.h"

namespace sbr::prove {
namespace {

// Capability bits, as <linux/capability.h> numbers them.
constexpr std::array<std::pair<Capability, int>, 41> kBits = {{
    {Capability::Chown, 0},
    {Capability::DacOverride, 1},
    {Capability::DacReadSearch, 2},
    {Capability::Fowner, 3},
    {Capability::Fsetid, 4},
    {Capability::Kill, 5},
    {Capability::Setgid, 6},
    {Capability::Setuid, 7},
    {Capability::Setpcap, 8},
    {Capability::LinuxImmutable, 9},
    {Capability::NetBindService, 10},
    {Capability::NetBroadcast, 11},
    {Capability::NetAdmin, 12},
    {Capability::NetRaw, 13},
    {Capability::IpcLock, 14},
    {Capability::IpcOwner, 15},
    {Capability::SysModule, 16},
    {Capability::SysRawio, 17},
    {Capability::SysChroot, 18},
    {Capability::SysPtrace, 19},
    {Capability::SysPacct, 20},
    {Capability::SysAdmin, 21},
    {Capability::SysBoot, 22},
    {Capability::SysNice, 23},
    {Capability::SysResource, 24},
    {Capability::SysTime, 25},
    {Capability::SysTtyConfig, 26},
    {Capability::Mknod, 27},
    {Capability::Lease, 28},
    {Capability::AuditWrite, 29},
    {Capability::AuditControl, 30},
    {Capability::Setfcap, 31},
    {Capability::MacOverride, 32},
    {Capability::MacAdmin, 33},
    {Capability::Syslog, 34},
    {Capability::WakeAlarm, 35},
    {Capability::BlockSuspend, 36},
    {Capability::AuditRead, 37},
    {Capability::Perfmon, 38},
    {Capability::Bpf, 39},
    {Capability::CheckpointRestore, 40},
}};

// Why a rule the runtime cannot decide stays open, by what it is about.
std::string open_reason(const Finding& f) {
  const RuleId id = f.rule_id;
  for (RuleId r :
       {rule::image_passwordless_sudo, rule::passwordless_sudo_with_network_admin,
        rule::image_privileged_group, rule::image_setuid_bit, rule::entrypoint_regains_root,
        rule::unauthenticated_server_exposed, rule::capability_kept_across_exec}) {
    if (id == r) {
      return "about the image or its entrypoint, which the probe replaces";
    }
  }
  if (f.invariant == 0) return "about the analysis itself, not the running container";
  if (f.invariant == 5) {
    return "egress gates (rulesets, proxies, network policies) and cluster objects are not "
           "loaded by the prover";
  }
  if (f.invariant == 7 || f.invariant == 4) {
    return "about the launcher script, the controller or the cluster, not the running "
           "container";
  }
  return "not a property the probe observes in the running container";
}

}  // namespace

int capability_bit(Capability c) {
  for (const auto& [cap, bit] : kBits) {
    if (cap == c) return bit;
  }
  return -1;
}

std::string capability_names(const std::string& hex) {
  std::vector<std::string> names;
  for (int bit : capability_bits(hex)) {
    auto it =
        std::find_if(kBits.begin(), kBits.end(), [&](const auto& p) { return p.second == bit; });
    names.push_back(it != kBits.end() ? std::string(capability_name(it->first))
                                      : fmt::format("cap{}", bit));
  }
  if (names.empty()) return "none";
  if (names.size() <= 16) return fmt::format("{}", fmt::join(names, ", "));
  // A privileged set: its size and the capabilities that make it one.
  std::vector<std::string> worst;
  for (const char* n :
       {"SYS_ADMIN", "SYS_MODULE", "SYS_PTRACE", "DAC_READ_SEARCH", "BPF", "NET_ADMIN"}) {
    if (std::find(names.begin(), names.end(), n) != names.end()) worst.emplace_back(n);
  }
  return fmt::format("{} capabilities, among them {}", names.size(), fmt::join(worst, ", "));
}

RuntimeVerdict judge_finding(const Finding& f, const Workload* w, const LaunchPlan* plan,
                             const Observation* obs) {
  if (w == nullptr || plan == nullptr || obs == nullptr) {
    return unverifiable("not about a workload the prover launches");
  }
  RuntimeVerdict v;
  if (plan->kind == LaunchKind::None) {
    v = unverifiable("not launched: " + plan->why_not);
  } else if (!obs->launched || !obs->probe) {
    v = unverifiable(obs->timed_out ? "the launch timed out" : "the launch failed: " + obs->error);
  } else {
    detail::Case c{f, *w, *plan, *obs, *obs->probe};
    std::optional<RuntimeVerdict> got;
    for (auto judge : {detail::judge_boundary, detail::judge_privilege, detail::judge_mounts,
                       detail::judge_network, detail::judge_limits}) {
      if (!got) got = judge(c);
    }
    v = got ? *got : unverifiable(open_reason(f));
  }
  v.runtime = obs->runtime;
  return v;
}

namespace detail {

const NotPassed* Case::skipped(std::string_view what) const {
  for (const auto& n : plan.not_passed) {
    if (n.what.compare(0, what.size(), what) == 0) return &n;
  }
  return nullptr;
}

const Mount* mount_of(const Finding& f, const Workload& w) {
  for (const Mount& m : w.mounts) {
    if (m.source_from.at == f.at || m.mount_from.at == f.at) return &m;
  }
  // "mount:/etc->/host-etc", "mount:..->/x#inside", "mounts.home:/home/agent".
  const std::string& path = f.fact_path;
  std::string target;
  if (size_t arrow = path.find("->"); arrow != std::string::npos) {
    target = path.substr(arrow + 2);
  } else if (path.rfind("mounts.", 0) == 0) {
    target = path.substr(path.find(':') + 1);
  }
  target = target.substr(0, target.find('#'));
  for (const Mount& m : w.mounts) {
    if (!target.empty() && m.target == target) return &m;
  }
  return nullptr;
}

int publish_of(const Finding& f, const Workload& w, const LaunchPlan& plan) {
  std::string spec;
  for (const PublishedPort& p : w.network.ports) {
    if (p.from.at == f.at) spec = p.spec;
  }
  if (spec.empty() && f.fact_path.view().starts_with("ports/")) spec = f.fact_path.str().substr(6);
  for (size_t i = 0; i < plan.publishes.size(); ++i) {
    if (plan.publishes[i].spec == spec) return static_cast<int>(i);
  }
  return -1;
}

}  // namespace detail
}  // namespace sbr::prove
