#include "prover/lib/probe_report.h"

#include <nlohmann/json.hpp>

#include <charconv>

namespace sbr::prove {
namespace {

using Json = nlohmann::json;

constexpr std::string_view kPrefix = "SBREVIEW-PROBE-REPORT ";

std::string str(const Json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}
bool flag(const Json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_boolean() && it->get<bool>();
}
std::optional<std::int64_t> num(const Json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_number_integer()) return std::nullopt;
  return it->get<std::int64_t>();
}
const Json& sub(const Json& j, const char* key) {
  static const Json empty = Json::object();
  auto it = j.find(key);
  return it != j.end() && (it->is_object() || it->is_array()) ? *it : empty;
}

MountView mount_view(const Json& m) {
  MountView v;
  v.target = str(m, "target");
  v.mounted = flag(m, "mounted");
  v.exists = flag(m, "exists");
  v.read_only_flag = flag(m, "read_only_flag");
  v.writable = flag(m, "writable");
  v.readable = flag(m, "readable");
  v.propagation = str(m, "propagation");
  v.fstype = str(m, "fstype");
  return v;
}

void read_identity(const Json& id, ProbeReport& r) {
  r.uid = num(id, "uid");
  r.gid = num(id, "gid");
  for (const Json& g : sub(id, "groups")) {
    if (g.is_number_integer()) r.groups.push_back(g.get<std::int64_t>());
  }
  r.cap_eff = str(id, "cap_eff");
  r.cap_bnd = str(id, "cap_bnd");
  r.cap_amb = str(id, "cap_amb");
  if (auto v = num(id, "no_new_privs")) r.no_new_privs = static_cast<int>(*v);
  if (auto v = num(id, "seccomp")) r.seccomp = static_cast<int>(*v);
  r.lsm_label = str(id, "lsm_label");
}

void read_filesystem(const Json& fs, ProbeReport& r) {
  r.root = mount_view(sub(fs, "root"));
  for (const Json& m : sub(fs, "mounts")) r.mounts.push_back(mount_view(m));
  for (const Json& m : sub(fs, "masked")) r.masked.emplace_back(str(m, "path"), flag(m, "masked"));
}

void read_network(const Json& net, ProbeReport& r) {
  for (const Json& i : sub(net, "interfaces")) {
    std::vector<std::string> addrs;
    for (const Json& a : sub(i, "addresses")) {
      if (a.is_string()) addrs.push_back(a.get<std::string>());
    }
    r.interfaces.emplace_back(str(i, "name"), std::move(addrs));
  }
  for (const Json& n : sub(sub(net, "resolver"), "nameservers")) {
    if (n.is_string()) r.nameservers.push_back(n.get<std::string>());
  }
  for (const Json& c : sub(net, "canaries")) {
    r.canaries.push_back({str(c, "name"), str(c, "address"), flag(c, "reachable"),
                          flag(c, "banner_ok"), str(c, "error")});
  }
}

}  // namespace

Result<ProbeReport> parse_probe_report(const std::string& line) {
  if (line.compare(0, kPrefix.size(), kPrefix) != 0) {
    return Error{"the probe printed no report line"};
  }
  Json j = Json::parse(line.substr(kPrefix.size()), nullptr, false);
  if (j.is_discarded() || !j.is_object()) return Error{"the probe's report is not JSON"};
  if (num(j, "probe") != 1) return Error{"the probe's report has an unknown version"};
  ProbeReport r;
  r.token = str(j, "token");
  read_identity(sub(j, "identity"), r);
  const Json& k = sub(j, "kernel");
  r.kernel_release = str(k, "release");
  r.gvisor = flag(k, "gvisor");
  r.pid = num(k, "pid").value_or(0);
  for (const auto& [name, v] : sub(j, "namespaces").items()) {
    if (v.is_string()) r.namespaces[name] = v.get<std::string>();
  }
  read_filesystem(sub(j, "filesystem"), r);
  for (const Json& p : sub(j, "paths")) {
    r.paths.push_back({str(p, "path"), flag(p, "exists"), str(p, "type"), flag(p, "readable"),
                       flag(p, "writable"), flag(p, "connects")});
  }
  const Json& cg = sub(j, "cgroup");
  r.cgroup_version = static_cast<int>(num(cg, "version").value_or(0));
  r.memory = str(cg, "memory");
  r.memory_swap = str(cg, "memory_swap");
  r.pids = str(cg, "pids");
  r.cpu = str(cg, "cpu");
  read_network(sub(j, "network"), r);
  for (const Json& l : sub(j, "listen")) {
    r.listening.emplace_back(static_cast<int>(num(l, "port").value_or(0)), flag(l, "ok"));
  }
  for (const Json& e : sub(j, "env")) {
    if (e.is_string()) r.env_names.push_back(e.get<std::string>());
  }
  return r;
}

std::vector<int> capability_bits(const std::string& hex) {
  std::uint64_t v = 0;
  auto [p, ec] = std::from_chars(hex.data(), hex.data() + hex.size(), v, 16);
  std::vector<int> out;
  if (ec != std::errc()) return out;
  for (int b = 0; b < 64; ++b) {
    if ((v >> b) & 1U) out.push_back(b);
  }
  return out;
}

std::optional<std::int64_t> cgroup_limit(const std::string& value) {
  if (value.empty() || value == "max") return std::nullopt;
  std::int64_t v = 0;
  auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
  if (ec != std::errc()) return std::nullopt;
  // cgroup v1 prints "no limit" as 2^63-1 rounded down to a page: anything that large is none.
  if (v >= (std::int64_t{1} << 62) || v < 0) return std::nullopt;
  return v;
}

std::optional<double> cgroup_cpus(const std::string& value) {
  size_t space = value.find(' ');
  if (space == std::string::npos) return std::nullopt;
  std::string quota = value.substr(0, space), period = value.substr(space + 1);
  if (quota == "max" || quota.empty() || quota[0] == '-') return std::nullopt;
  double q = std::strtod(quota.c_str(), nullptr), p = std::strtod(period.c_str(), nullptr);
  if (q <= 0 || p <= 0) return std::nullopt;
  return q / p;
}

const MountView* find_mount(const ProbeReport& r, const std::string& target) {
  for (const auto& m : r.mounts) {
    if (m.target == target) return &m;
  }
  return nullptr;
}

const PathView* find_path(const ProbeReport& r, const std::string& path) {
  for (const auto& p : r.paths) {
    if (p.path == path) return &p;
  }
  return nullptr;
}

const CanaryView* find_canary(const ProbeReport& r, const std::string& name) {
  for (const auto& c : r.canaries) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

bool has_network_interface(const ProbeReport& r) {
  for (const auto& [name, addrs] : r.interfaces) {
    if (name != "lo") return true;
  }
  return false;
}

}  // namespace sbr::prove
