// Linux capabilities as an enum: checks compare enums, never spellings ("CAP_SYS_ADMIN",
// "sys_admin" and "SYS_ADMIN" are one value).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace sbr {

enum class Capability : std::uint8_t {
  All,
  AuditControl,
  AuditRead,
  AuditWrite,
  BlockSuspend,
  Bpf,
  CheckpointRestore,
  Chown,
  DacOverride,
  DacReadSearch,
  Fowner,
  Fsetid,
  IpcLock,
  IpcOwner,
  Kill,
  Lease,
  LinuxImmutable,
  MacAdmin,
  MacOverride,
  Mknod,
  NetAdmin,
  NetBindService,
  NetBroadcast,
  NetRaw,
  Perfmon,
  Setfcap,
  Setgid,
  Setpcap,
  Setuid,
  SysAdmin,
  SysBoot,
  SysChroot,
  SysModule,
  SysNice,
  SysPacct,
  SysPtrace,
  SysRawio,
  SysResource,
  SysTime,
  SysTtyConfig,
  Syslog,
  WakeAlarm,
  Unknown,  // a name that is not a capability: kept, reported by its spelling elsewhere
};

// Parses "ALL", "SYS_ADMIN", "CAP_SYS_ADMIN", "sys_admin". Unknown names give Unknown.
Capability parse_capability(std::string_view name);
// Canonical spelling without the CAP_ prefix ("SYS_ADMIN", "ALL").
std::string_view capability_name(Capability c);

}  // namespace sbr
