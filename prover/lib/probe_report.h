// The probe's JSON report as typed data (prover/probe/probe_main.cpp writes it). Values stay
// as the probe read them (cgroup files as text, capability sets as hex); the helpers below
// interpret them the same way for every judgment.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/support/result.h"

namespace sbr::prove {

struct MountView {
  std::string target;
  bool mounted = false;  // a mount of its own at the target
  bool exists = false;
  bool read_only_flag = false;
  bool writable = false;  // access(W_OK) for the probe's user
  bool readable = false;
  std::string propagation;  // shared, slave, private...
  std::string fstype;
};

struct PathView {
  std::string path;
  bool exists = false;
  std::string type;  // socket, directory, file...
  bool readable = false, writable = false, connects = false;
};

struct CanaryView {
  std::string name;
  std::string address;
  bool reachable = false;
  bool banner_ok = false;  // the prover's own canary answered, not something else
  std::string error;
};

struct ProbeReport {
  std::string token;
  std::optional<std::int64_t> uid, gid;
  std::vector<std::int64_t> groups;
  std::string cap_eff, cap_bnd, cap_amb;
  std::optional<int> no_new_privs;
  std::optional<int> seccomp;
  std::string lsm_label;
  std::string kernel_release;
  bool gvisor = false;
  std::int64_t pid = 0;
  std::map<std::string, std::string> namespaces;  // "net" -> "net:[4026532174]"
  MountView root;
  std::vector<MountView> mounts;
  std::vector<std::pair<std::string, bool>> masked;  // path, masked
  std::vector<PathView> paths;
  int cgroup_version = 0;  // 0: no cgroup filesystem inside
  std::string memory, memory_swap, pids, cpu;
  std::vector<std::pair<std::string, std::vector<std::string>>> interfaces;
  std::vector<std::string> nameservers;
  std::vector<CanaryView> canaries;
  std::vector<std::pair<int, bool>> listening;  // container port, listener opened
  std::vector<std::string> env_names;
};

// The line the probe prints: "SBREVIEW-PROBE-REPORT {json}". An error names what is wrong.
Result<ProbeReport> parse_probe_report(const std::string& line);

// Interpretations shared by every judgment.
// A capability set in hex: the capabilities it holds, by bit number.
std::vector<int> capability_bits(const std::string& hex);
// A cgroup limit as a number of bytes (memory) or processes (pids); nullopt = unlimited or
// unknown ("max", v1's page-rounded 2^63, empty).
std::optional<std::int64_t> cgroup_limit(const std::string& value);
// "quota period" (v1 cpu.cfs_*, v2 cpu.max): CPUs as a fraction; nullopt = unlimited.
std::optional<double> cgroup_cpus(const std::string& value);
const MountView* find_mount(const ProbeReport& r, const std::string& target);
const PathView* find_path(const ProbeReport& r, const std::string& path);
const CanaryView* find_canary(const ProbeReport& r, const std::string& name);
// Interfaces other than loopback.
bool has_network_interface(const ProbeReport& r);

}  // namespace sbr::prove
