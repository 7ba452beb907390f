#include "analyzer/engine/seccomp_default.h"

#include <array>

namespace sbr::engine {

namespace {
constexpr std::array<GatedSyscall, 17> kGated = {{
    {"acct", Capability::SysPacct},
    {"bpf", Capability::SysAdmin},  // CAP_BPF or CAP_SYS_ADMIN
    {"clock_settime", Capability::SysTime},
    {"delete_module", Capability::SysModule},
    {"finit_module", Capability::SysModule},
    {"init_module", Capability::SysModule},
    {"ioperm", Capability::SysRawio},
    {"iopl", Capability::SysRawio},
    {"kexec_file_load", Capability::SysBoot},
    {"kexec_load", Capability::SysBoot},
    {"lookup_dcookie", Capability::SysAdmin},
    {"open_by_handle_at", Capability::DacReadSearch},
    {"perf_event_open", Capability::SysAdmin},  // CAP_PERFMON or CAP_SYS_ADMIN
    {"quotactl", Capability::SysAdmin},
    {"settimeofday", Capability::SysTime},
    {"stime", Capability::SysTime},
    {"vhangup", Capability::SysTtyConfig},
}};
}  // namespace

std::span<const GatedSyscall> capability_gated_syscalls() {
  return kGated;
}

std::optional<Capability> gated_by(std::string_view syscall) {
  for (const auto& g : kGated) {
    if (g.name == syscall) return g.capability;
  }
  return std::nullopt;
}

bool default_action_allows(std::string_view a) {
  return a == "SCMP_ACT_ALLOW" || a == "SCMP_ACT_LOG";
}

}  // namespace sbr::engine
