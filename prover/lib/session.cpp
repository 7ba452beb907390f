#include "prover/lib/session.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <array>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "prover/lib/containers_conf.h"
#include "prover/lib/launch_plan.h"
#include "prover/lib/probe_binary.h"
#include "prover/lib/process.h"
#include "prover/lib/tar.h"

namespace sbr::prove {
namespace {

std::string random_id() {
  std::random_device rd;
  return fmt::format("sbrp-{:08x}", rd());
}

std::string first_line(const std::string& s) {
  std::string l = s.substr(0, s.find('\n'));
  return l.empty() ? "(no message)" : l;
}

bool write_file(const std::string& path, const std::string& bytes, mode_t mode) {
  int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
  if (fd < 0) return false;
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = write(fd, bytes.data() + done, bytes.size() - done);
    if (n <= 0) break;
    done += static_cast<size_t>(n);
  }
  fchmod(fd, mode);
  close(fd);
  return done == bytes.size();
}

std::string probe_rootfs(const std::string& probe) {
  std::vector<TarEntry> e;
  for (const char* d : {"dev", "etc", "proc", "run", "sys", "tmp"}) {
    e.push_back({d, true, std::string_view(d) == "tmp" ? 01777U : 0755U, {}});
  }
  e.push_back({"etc/passwd", false, 0644, "root:x:0:0:root:/:/probe\n"});
  e.push_back({"etc/group", false, 0644, "root:x:0:\n"});
  e.push_back({"probe", false, 0755, probe});
  return ustar(e);
}

std::string bridge_gateway(const Session& s) {
  ProcessResult r = podman(s, {"network", "inspect", "podman"});
  if (r.status != 0) return {};
  auto j = nlohmann::json::parse(r.out, nullptr, false);
  if (!j.is_array() || j.empty()) return {};
  for (const auto& sub : j[0].value("subnets", nlohmann::json::array())) {
    std::string gw = sub.value("gateway", "");
    if (!gw.empty() && gw.find(':') == std::string::npos) return gw;
  }
  return {};
}

// The configuration in force: the file $CONTAINERS_CONF names, else the system's ("" when
// there is none).
std::string machine_conf() {
  const char* conf = std::getenv("CONTAINERS_CONF");
  std::ifstream in(conf != nullptr ? conf : "/etc/containers/containers.conf");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

bool on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::stringstream ss(path != nullptr ? path : "/usr/bin:/bin");
  std::string dir;
  while (std::getline(ss, dir, ':')) {
    if (!dir.empty() && access((dir + "/" + name).c_str(), X_OK) == 0) return true;
  }
  return false;
}

std::vector<std::string> podman_env(const Session& s, const std::vector<std::string>& env) {
  std::vector<std::string> all = env;
  bool named = false;
  for (const auto& e : env) named = named || e.rfind("CONTAINERS_CONF=", 0) == 0;
  if (!named && !s.conf().empty()) all.push_back("CONTAINERS_CONF=" + s.conf());
  return all;
}

ProcessResult podman(const Session& s, const std::vector<std::string>& args,
                     const std::vector<std::string>& env) {
  std::vector<std::string> argv = {"podman"};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_process(argv, s.timeout_ms(), podman_env(s, env));
}

Result<std::unique_ptr<Session>> Session::open(const SessionOptions& options) {
  std::unique_ptr<Session> s(new Session());
  s->options_ = options;
  s->run_id_ = random_id();
  s->image_ = fmt::format("localhost/sbreview-probe-{}:latest", s->run_id_);
  auto ok = s->setup();
  if (!ok) {
    s->cleanup();
    return ok.error();
  }
  return s;
}

Result<bool> Session::setup() {
  if (!on_path("podman")) return Error{"podman is not installed (apt-get install podman runc)"};
  ProcessResult v = podman(*this, {"version", "--format", "{{.Client.Version}}"});
  if (v.timed_out) return Error{"podman does not answer (`podman version` timed out)"};
  if (v.status != 0) return Error{"podman does not work: " + first_line(v.err + v.error)};
  podman_version_ = first_line(v.out);
  auto probe = read_probe(self_executable());
  if (!probe) return probe.error();
  std::string parent = options_.runtime_dir;
  if (parent.empty()) parent = std::getenv("TMPDIR") != nullptr ? std::getenv("TMPDIR") : "/tmp";
  std::string tmpl = parent + "/sbreview-prove-" + run_id_ + "-XXXXXX";
  if (mkdtemp(tmpl.data()) == nullptr) return Error{"cannot create a directory under " + parent};
  dir_ = tmpl;
  runsc_ = on_path("runsc");
  if (runsc_) write_runsc_conf();
  std::string tar = dir_ + "/probe-rootfs.tar";
  if (!write_file(tar, probe_rootfs(*probe), 0600)) return Error{"cannot write " + tar};
  ProcessResult imp = podman(*this, {"import", "--quiet", "--change",
                                     fmt::format("LABEL {}={}", kRunLabel, run_id_), tar, image_});
  if (imp.status != 0) return Error{"podman import failed: " + first_line(imp.err + imp.error)};
  utsname u{};
  uname(&u);
  kernel_ = u.release;
  for (const char* ns : {"cgroup", "ipc", "mnt", "net", "pid", "user", "uts"}) {
    std::array<char, 128> buf{};
    ssize_t n = readlink((std::string("/proc/self/ns/") + ns).c_str(), buf.data(), buf.size() - 1);
    if (n > 0) host_ns_[ns] = std::string(buf.data(), static_cast<size_t>(n));
  }
  std::vector<std::pair<std::string, std::string>> where = {{"host-loopback", "127.0.0.1"}};
  if (std::string gw = bridge_gateway(*this); !gw.empty()) where.emplace_back("gateway", gw);
  canaries_ = std::make_unique<Canaries>(run_id_, where);
  return true;
}

void Session::write_runsc_conf() {
  // TOOLCHAIN.md: runsc runs here with its own network off; `podman kube play` has no
  // --runtime-flag, so the flag goes into a runtime wrapper that the configuration names.
  std::string wrapper = dir_ + "/runsc-network-none";
  std::string conf = dir_ + "/containers.conf";
  std::string runsc_conf = dir_ + "/containers-runsc.conf";
  std::string base = machine_conf();
  bool ok = write_file(wrapper, "#!/bin/sh\nexec runsc --network=none \"$@\"\n", 0700) &&
            write_file(conf, conf_with_runsc(base, wrapper, false), 0600) &&
            write_file(runsc_conf, conf_with_runsc(base, wrapper, true), 0600);
  if (ok) {
    conf_ = conf;
    runsc_conf_ = runsc_conf;
  }
}

void Session::defer(Child child) {
  std::lock_guard<std::mutex> lock(pending_mu_);
  pending_.push_back(std::move(child));
}

std::string Session::cleanup() {
  if (cleaned_) return {};
  cleaned_ = true;
  set_cleaning(true);
  {
    std::lock_guard<std::mutex> lock(pending_mu_);
    for (Child& c : pending_) {
      bool late = false;
      c.wait(10000, late);  // killed after that; the sweep below removes its container
    }
    pending_.clear();
  }
  canaries_.reset();
  std::string problems;
  std::string label = fmt::format("label={}={}", kRunLabel, run_id_);
  auto note = [&](const ProcessResult& r) {
    if (r.status != 0) problems += first_line(r.err + r.error) + "; ";
  };
  // Pods first (kube play): their containers go with them. `pod kill` first: measured here,
  // `pod rm -f -t 0` alone stops the pause container gracefully and takes seconds longer.
  ProcessResult pods = podman(*this, {"pod", "ps", "-q", "--filter", label});
  std::vector<std::string> kill_pods = {"pod", "kill"}, rm_pods = {"pod", "rm", "-f"};
  std::istringstream in(pods.out);
  for (std::string id; in >> id;) {
    kill_pods.push_back(id);
    rm_pods.push_back(id);
  }
  if (rm_pods.size() > 3) {
    podman(*this, kill_pods);  // fails for a pod that is not running: the removal decides
    note(podman(*this, rm_pods));
  }
  note(podman(*this, {"rm", "-f", "-t", "0", "--filter", label}));
  note(podman(*this, {"volume", "prune", "-f", "--filter", label}));
  note(podman(*this, {"rmi", "-f", "-i", image_}));
  if (!dir_.empty()) {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);  // never follows a link out of the directory
    if (ec) problems += dir_ + ": " + ec.message() + "; ";
  }
  set_cleaning(false);
  return problems;
}

Session::~Session() {
  cleanup();
}

}  // namespace sbr::prove
