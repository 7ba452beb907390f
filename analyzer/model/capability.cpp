#include "analyzer/model/capability.h"

#include <array>
#include <cctype>

namespace sbr {
namespace {

constexpr std::array<std::string_view, static_cast<size_t>(Capability::Unknown) + 1> kNames = {
    "ALL",
    "AUDIT_CONTROL",
    "AUDIT_READ",
    "AUDIT_WRITE",
    "BLOCK_SUSPEND",
    "BPF",
    "CHECKPOINT_RESTORE",
    "CHOWN",
    "DAC_OVERRIDE",
    "DAC_READ_SEARCH",
    "FOWNER",
    "FSETID",
    "IPC_LOCK",
    "IPC_OWNER",
    "KILL",
    "LEASE",
    "LINUX_IMMUTABLE",
    "MAC_ADMIN",
    "MAC_OVERRIDE",
    "MKNOD",
    "NET_ADMIN",
    "NET_BIND_SERVICE",
    "NET_BROADCAST",
    "NET_RAW",
    "PERFMON",
    "SETFCAP",
    "SETGID",
    "SETPCAP",
    "SETUID",
    "SYS_ADMIN",
    "SYS_BOOT",
    "SYS_CHROOT",
    "SYS_MODULE",
    "SYS_NICE",
    "SYS_PACCT",
    "SYS_PTRACE",
    "SYS_RAWIO",
    "SYS_RESOURCE",
    "SYS_TIME",
    "SYS_TTY_CONFIG",
    "SYSLOG",
    "WAKE_ALARM",
    "UNKNOWN"};

}  // namespace

Capability parse_capability(std::string_view name) {
  std::string up;
  up.reserve(name.size());
  for (char c : name) up.push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(c))));
  std::string_view v = up;
  if (v.substr(0, 4) == "CAP_") v.remove_prefix(4);
  for (size_t i = 0; i + 1 < kNames.size(); ++i) {
    if (kNames[i] == v) return static_cast<Capability>(i);
  }
  return Capability::Unknown;
}

std::string_view capability_name(Capability c) {
  return kNames[static_cast<size_t>(c)];
}

}  // namespace sbr
