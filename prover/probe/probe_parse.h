// What the probe reads from the kernel's text files, parsed without I/O so that tests run on
// captured text. The probe reports what it read; judging it is the prover's job
// (prover/lib/judge.h), never the probe's.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sbr::probe {

// The lines of /proc/self/status the prover asks about. A field the kernel does not print
// (gVisor has no NoNewPrivs line) stays empty rather than becoming 0.
struct Status {
  std::optional<long long> uid, euid, gid, egid;
  std::vector<long long> groups;
  std::string cap_eff, cap_bnd, cap_amb, cap_prm;  // hex, as printed
  std::optional<int> no_new_privs;
  std::optional<int> seccomp;
};
Status parse_status(std::string_view text);

// One line of /proc/self/mountinfo (proc(5)).
struct MountInfo {
  std::string mount_point;
  std::vector<std::string> options;   // per-mount options: rw/ro, nosuid...
  std::vector<std::string> optional;  // shared:N, master:N, propagate_from:N, unbindable
  std::string fstype;
  std::string source;
};
std::vector<MountInfo> parse_mountinfo(std::string_view text);

// "shared", "slave" (master:N without shared), "shared+slave", "unbindable" or "private".
std::string propagation_of(const MountInfo& m);
bool has_option(const MountInfo& m, std::string_view option);
// The mount that holds `path`: the last mounted entry whose mount point is `path` or a parent
// of it (later mounts hide earlier ones at the same point). nullptr when none does.
const MountInfo* mount_for(const std::vector<MountInfo>& mounts, std::string_view path);

struct Resolver {
  std::vector<std::string> nameservers;
  std::vector<std::string> search;
};
Resolver parse_resolv_conf(std::string_view text);

// gVisor's kernel identifies itself in the log it shows (`Starting gVisor...`) and prints a
// fixed fake /proc/version; either is enough.
bool looks_like_gvisor(std::string_view proc_version, std::string_view kernel_log);

// Printable ASCII only, at most `max` bytes: text from outside (a banner, a label) never
// breaks the report.
std::string printable(std::string_view s, size_t max);

}  // namespace sbr::probe
