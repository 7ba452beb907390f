// What the probe sees of itself: identity, kernel, namespaces, filesystem, cgroup limits and
// environment names. Each value is reported as read; the prover interprets it.
#include <fcntl.h>
#include <sys/klog.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>

#include "prover/probe/probe.h"
#include "prover/probe/probe_parse.h"

extern char** environ;

namespace sbr::probe {

std::string read_file(const std::string& path, size_t max) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0) return {};
  std::string out;
  std::array<char, 4096> buf{};
  while (out.size() < max) {
    ssize_t n = read(fd, buf.data(), buf.size());
    if (n <= 0) break;
    out.append(buf.data(), static_cast<size_t>(n));
  }
  close(fd);
  return out;
}

namespace {

Json optional_number(const std::optional<long long>& v) {
  return v ? Json(*v) : Json();
}
Json optional_int(const std::optional<int>& v) {
  return v ? Json(*v) : Json();
}

std::string trim(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ' || s.back() == '\0')) s.pop_back();
  return s;
}

std::string kernel_log() {
  // Readable under gVisor; under runc it usually needs CAP_SYSLOG, and then stays empty.
  std::string buf(16384, '\0');
  int n = klogctl(3, buf.data(), static_cast<int>(buf.size()));
  if (n <= 0) return {};
  buf.resize(static_cast<size_t>(n));
  return buf;
}

const char* kind_of(mode_t m) {
  if (S_ISSOCK(m)) return "socket";
  if (S_ISDIR(m)) return "directory";
  if (S_ISREG(m)) return "file";
  if (S_ISCHR(m)) return "char-device";
  if (S_ISBLK(m)) return "block-device";
  if (S_ISLNK(m)) return "symlink";
  return "other";
}

bool unix_connects(const std::string& path) {
  sockaddr_un a{};
  if (path.size() >= sizeof a.sun_path) return false;
  a.sun_family = AF_UNIX;
  std::memcpy(a.sun_path, path.c_str(), path.size());
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  bool ok = connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
  close(fd);
  return ok;
}

Json mount_json(const std::vector<MountInfo>& mounts, const std::string& target) {
  Json j;
  j["target"] = target;
  const MountInfo* m = mount_for(mounts, target);
  bool own = m != nullptr && m->mount_point == target;
  j["mounted"] = own;
  struct stat st {};
  j["exists"] = lstat(target.c_str(), &st) == 0;
  if (m != nullptr) {
    j["mount_point"] = m->mount_point;
    j["fstype"] = m->fstype;
    j["read_only_flag"] = has_option(*m, "ro");
    j["propagation"] = propagation_of(*m);
  }
  // access(2) answers for the probe's own user and honours a read-only mount (EROFS).
  j["writable"] = access(target.c_str(), W_OK) == 0;
  j["readable"] = access(target.c_str(), R_OK) == 0;
  return j;
}

// Paths a runtime masks from containers; unmasked, they disclose the host kernel's state.
constexpr std::array<const char*, 5> kMaskedPaths = {
    "/proc/kcore", "/proc/keys", "/proc/timer_list", "/sys/firmware", "/proc/scsi"};

// One cgroup file: v2 at the cgroup root; v1 under the controller, at the process's own path
// first (host cgroup namespace) and then at the mount's root (a private one).
std::string cgroup_value(const std::string& controller, const std::string& rel,
                         const std::string& file) {
  std::string v = trim(read_file("/sys/fs/cgroup/" + controller + rel + "/" + file, 256));
  if (v.empty()) v = trim(read_file("/sys/fs/cgroup/" + controller + "/" + file, 256));
  return v;
}

std::string v1_path(const std::string& self_cgroup, const std::string& controller) {
  size_t start = 0;
  while (start < self_cgroup.size()) {
    size_t end = self_cgroup.find('\n', start);
    if (end == std::string::npos) end = self_cgroup.size();
    std::string line = self_cgroup.substr(start, end - start);
    size_t a = line.find(':'), b = line.find(':', a + 1);
    if (a != std::string::npos && b != std::string::npos) {
      std::string ctrls = "," + line.substr(a + 1, b - a - 1) + ",";
      if (ctrls.find("," + controller + ",") != std::string::npos) {
        std::string p = line.substr(b + 1);
        return p == "/" ? "" : p;
      }
    }
    start = end + 1;
  }
  return {};
}

}  // namespace

Json identity() {
  Status s = parse_status(read_file("/proc/self/status"));
  Json j;
  j["uid"] = optional_number(s.uid);
  j["euid"] = optional_number(s.euid);
  j["gid"] = optional_number(s.gid);
  j["egid"] = optional_number(s.egid);
  j["groups"] = s.groups;
  j["cap_eff"] = s.cap_eff;
  j["cap_prm"] = s.cap_prm;
  j["cap_bnd"] = s.cap_bnd;
  j["cap_amb"] = s.cap_amb;
  j["no_new_privs"] = optional_int(s.no_new_privs);
  j["seccomp"] = optional_int(s.seccomp);
  j["lsm_label"] = printable(trim(read_file("/proc/self/attr/current", 512)), 200);
  return j;
}

Json kernel() {
  utsname u{};
  uname(&u);
  std::string version = trim(read_file("/proc/version", 4096));
  Json j;
  j["release"] = printable(u.release, 100);
  j["version"] = printable(u.version, 200);
  j["hostname"] = printable(u.nodename, 100);
  j["gvisor"] = looks_like_gvisor(version, kernel_log());
  j["pid"] = getpid();
  return j;
}

Json namespaces() {
  Json j = Json::object();
  for (const char* ns : {"cgroup", "ipc", "mnt", "net", "pid", "user", "uts"}) {
    std::array<char, 128> buf{};
    std::string link = std::string("/proc/self/ns/") + ns;
    ssize_t n = readlink(link.c_str(), buf.data(), buf.size() - 1);
    j[ns] = n > 0 ? std::string(buf.data(), static_cast<size_t>(n)) : std::string();
  }
  return j;
}

Json filesystem(const Request& r) {
  auto mounts = parse_mountinfo(read_file("/proc/self/mountinfo"));
  Json j;
  j["root"] = mount_json(mounts, "/");
  Json list = Json::array();
  for (const auto& t : r.mounts) list.push_back(mount_json(mounts, t));
  j["mounts"] = std::move(list);
  Json masked = Json::array();
  for (const char* p : kMaskedPaths) {
    const MountInfo* m = mount_for(mounts, p);
    struct stat st {};
    bool exists = stat(p, &st) == 0;
    // Masked: hidden by a mount of its own (/dev/null or an empty tmpfs), or absent.
    bool over = m != nullptr && m->mount_point == p;
    masked.push_back({{"path", p}, {"exists", exists}, {"masked", over || !exists}});
  }
  j["masked"] = std::move(masked);
  const MountInfo* sys = mount_for(mounts, "/proc/sys");
  j["proc_sys_read_only"] = sys != nullptr && has_option(*sys, "ro");
  return j;
}

Json paths(const Request& r) {
  Json list = Json::array();
  for (const auto& p : r.paths) {
    Json j;
    j["path"] = p;
    struct stat st {};
    bool exists = lstat(p.c_str(), &st) == 0;
    j["exists"] = exists;
    if (exists) {
      j["type"] = kind_of(st.st_mode);
      j["readable"] = access(p.c_str(), R_OK) == 0;
      j["writable"] = access(p.c_str(), W_OK) == 0;
      if (S_ISSOCK(st.st_mode)) j["connects"] = unix_connects(p);
    }
    list.push_back(std::move(j));
  }
  return list;
}

Json cgroup() {
  Json j;
  if (access("/sys/fs/cgroup/cgroup.controllers", F_OK) == 0) {
    j["version"] = 2;
    j["memory"] = trim(read_file("/sys/fs/cgroup/memory.max", 256));
    j["memory_swap"] = trim(read_file("/sys/fs/cgroup/memory.swap.max", 256));
    j["pids"] = trim(read_file("/sys/fs/cgroup/pids.max", 256));
    j["cpu"] = trim(read_file("/sys/fs/cgroup/cpu.max", 256));
    return j;
  }
  std::string self = read_file("/proc/self/cgroup", 65536);
  if (access("/sys/fs/cgroup/memory", F_OK) != 0 && access("/sys/fs/cgroup/pids", F_OK) != 0) {
    j["version"] = 0;  // no cgroup filesystem inside (gVisor)
    return j;
  }
  j["version"] = 1;
  j["memory"] = cgroup_value("memory", v1_path(self, "memory"), "memory.limit_in_bytes");
  j["memory_swap"] = cgroup_value("memory", v1_path(self, "memory"), "memory.memsw.limit_in_bytes");
  j["pids"] = cgroup_value("pids", v1_path(self, "pids"), "pids.max");
  std::string quota = cgroup_value("cpu", v1_path(self, "cpu"), "cpu.cfs_quota_us");
  std::string period = cgroup_value("cpu", v1_path(self, "cpu"), "cpu.cfs_period_us");
  j["cpu"] = quota.empty() ? std::string() : quota + " " + period;
  return j;
}

Json environment_names() {
  std::vector<std::string> names;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    std::string_view kv(*e);
    names.push_back(printable(kv.substr(0, kv.find('=')), 128));
  }
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace sbr::probe
