// Runs an external program as a sealed child: argv without a shell, a private empty HOME, no
// inherited configuration or proxies, its own process group (killed at the limits) and, where
// the machine allows it, its own empty network namespace.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <mutex>

#include "analyzer/render/sealed_run.h"

namespace sbr::render {
namespace {

// A fresh private directory, removed with its contents when this goes.
struct PrivateHome {
  std::string path;
  PrivateHome() {
    const char* tmp = std::getenv("TMPDIR");
    std::string tmpl =
        std::string(tmp != nullptr && *tmp == '/' ? tmp : "/tmp") + "/sbr-home-XXXXXX";
    if (mkdtemp(tmpl.data()) != nullptr) path = tmpl;
  }
  ~PrivateHome() {
    std::error_code ec;
    if (!path.empty()) std::filesystem::remove_all(path, ec);
  }
  PrivateHome(const PrivateHome&) = delete;
  PrivateHome& operator=(const PrivateHome&) = delete;
};

struct Pipe {
  int fd[2] = {-1, -1};
  Pipe() {
    if (pipe2(fd, O_CLOEXEC) != 0) fd[0] = fd[1] = -1;
  }
  ~Pipe() {
    for (int f : fd) {
      if (f >= 0) close(f);
    }
  }
  Pipe(const Pipe&) = delete;
  Pipe& operator=(const Pipe&) = delete;
  void close_write() {
    if (fd[1] >= 0) close(fd[1]);
    fd[1] = -1;
  }
};

const char* find_unshare() {
  for (const char* p : {"/usr/bin/unshare", "/bin/unshare"}) {
    if (access(p, X_OK) == 0) return p;
  }
  return nullptr;
}

std::vector<std::string> clean_environment(const std::string& home) {
  return {"PATH=/usr/bin:/bin",
          "LANG=C",
          "LC_ALL=C",
          "HOME=" + home,
          "XDG_CONFIG_HOME=" + home,
          "XDG_CACHE_HOME=" + home,
          "XDG_DATA_HOME=" + home};
}

std::vector<char*> c_strings(std::vector<std::string>& v) {
  std::vector<char*> out;
  out.reserve(v.size() + 1);
  for (std::string& s : v) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

pid_t spawn(std::vector<std::string> argv, std::vector<std::string> env, const std::string& workdir,
            const std::string& stdin_path, Pipe& out, Pipe& err) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(
      &actions, 0, stdin_path.empty() ? "/dev/null" : stdin_path.c_str(), O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out.fd[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err.fd[1], 2);
  if (!workdir.empty()) posix_spawn_file_actions_addchdir_np(&actions, workdir.c_str());
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t none, all;
  sigemptyset(&none);
  sigfillset(&all);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &all);
  posix_spawnattr_setpgroup(&attr, 0);  // its own group: the limits kill it and its children
  posix_spawnattr_setflags(&attr,
                           POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  std::vector<char*> args = c_strings(argv), envp = c_strings(env);
  pid_t pid = -1;
  if (posix_spawn(&pid, args[0], &actions, &attr, args.data(), envp.data()) != 0) pid = -1;
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  return pid;
}

// Reads both pipes until they close or a limit is hit; then the group is killed.
void collect(pid_t pid, Pipe& out, Pipe& err, const RunLimits& limits, RunResult& r) {
  using clock = std::chrono::steady_clock;
  const auto deadline = clock::now() + std::chrono::milliseconds(limits.timeout_ms);
  bool open_out = true, open_err = true;
  char buf[65536];
  while (open_out || open_err) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - clock::now());
    if (left.count() <= 0) {
      r.timed_out = true;
      break;
    }
    pollfd fds[2] = {{open_out ? out.fd[0] : -1, POLLIN, 0},
                     {open_err ? err.fd[0] : -1, POLLIN, 0}};
    int n = poll(fds, 2, static_cast<int>(std::min<long long>(left.count(), 1000)));
    if (n < 0 && errno != EINTR) break;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
      ssize_t got = read(fds[i].fd, buf, sizeof buf);
      if (got <= 0) {
        (i == 0 ? open_out : open_err) = false;
        continue;
      }
      (i == 0 ? r.out : r.err).append(buf, static_cast<size_t>(got));
    }
    if (r.out.size() + r.err.size() > limits.max_output_bytes) {
      r.too_large = true;
      break;
    }
  }
  // A child that closed its pipes may still not exit: it gets until the deadline too. It is
  // waited for without reaping, so its group id cannot be reused before the group is killed.
  bool exited = false;
  while (!r.timed_out && !r.too_large && !exited) {
    siginfo_t info{};
    int got = waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT);
    exited = (got == 0 && info.si_pid == pid) || (got < 0 && errno != EINTR);
    if (!exited && clock::now() >= deadline) r.timed_out = true;
    if (!exited && !r.timed_out) usleep(2'000);
  }
  kill(-pid, SIGKILL);  // nothing of the group outlives the run
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status) && !r.timed_out && !r.too_large) r.exit_code = WEXITSTATUS(status);
}

}  // namespace

RunResult run_isolated(const std::vector<std::string>& argv, const std::string& workdir,
                       const RunLimits& limits) {
  RunResult r;
  PrivateHome home;
  if (argv.empty() || home.path.empty()) return r;
  std::vector<std::string> full;
  const char* unshare = find_unshare();
  if (limits.no_network && unshare != nullptr && network_namespace_available()) {
    full = {unshare, "-r", "-n", "--"};
  }
  full.insert(full.end(), argv.begin(), argv.end());
  Pipe out, err;
  if (out.fd[0] < 0 || err.fd[0] < 0) return r;
  pid_t pid = spawn(full, clean_environment(home.path), workdir, limits.stdin_path, out, err);
  out.close_write();
  err.close_write();
  if (pid < 0) return r;
  r.started = true;
  collect(pid, out, err, limits, r);
  return r;
}

bool network_namespace_available() {
  static std::once_flag once;
  static bool available = false;
  std::call_once(once, [] {
    const char* unshare = find_unshare();
    if (unshare == nullptr) return;
    RunLimits probe;
    probe.timeout_ms = 5'000;
    probe.no_network = false;
    RunResult r = run_isolated({unshare, "-r", "-n", "--", "/bin/true"}, "", probe);
    available = r.exit_code == 0;
  });
  return available;
}

}  // namespace sbr::render
