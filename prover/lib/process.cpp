#include "prover/lib/process.h"

#include "prover/lib/interrupt.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <set>
#include <utility>

extern char** environ;

namespace sbr::prove {
namespace {

std::mutex g_children_mu;
std::set<pid_t> g_children;
std::atomic<bool> g_cleaning{false};

long long now_ms() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<long long>(ts.tv_sec) * 1000 + ts.tv_nsec / 1000000;
}

void close_fd(int& fd) {
  if (fd >= 0) close(fd);
  fd = -1;
}

// Reads what is available from `fd` into `into`; false at end of file.
bool read_some(int fd, std::string& into) {
  std::array<char, 8192> buf{};
  ssize_t n = read(fd, buf.data(), buf.size());
  if (n > 0) into.append(buf.data(), static_cast<size_t>(n));
  return n > 0 || (n < 0 && (errno == EINTR || errno == EAGAIN));
}

// The prover's environment with `extra` NAME=value entries added or replacing.
std::vector<std::string> merged_environment(const std::vector<std::string>& extra) {
  std::vector<std::string> out;
  auto name_of = [](const std::string& kv) { return kv.substr(0, kv.find('=')); };
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    std::string kv = *e;
    bool replaced = false;
    for (const auto& x : extra) replaced = replaced || name_of(x) == name_of(kv);
    if (!replaced) out.push_back(std::move(kv));
  }
  out.insert(out.end(), extra.begin(), extra.end());
  return out;
}

int decode(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return -1;
}

}  // namespace

Child::Child(Child&& o) noexcept {
  *this = std::move(o);
}

Child& Child::operator=(Child&& o) noexcept {
  std::swap(pid_, o.pid_);
  std::swap(in_, o.in_);
  std::swap(out_, o.out_);
  std::swap(errfd_, o.errfd_);
  std::swap(buf_, o.buf_);
  std::swap(err_, o.err_);
  return *this;
}

Child::~Child() {
  close_fd(in_);
  if (pid_ > 0) {
    bool ignored = false;
    wait(0, ignored);
  }
  close_fd(out_);
  close_fd(errfd_);
}

std::optional<Child> Child::spawn(const std::vector<std::string>& argv, std::string& error,
                                  const std::vector<std::string>& env) {
  int in[2], out[2], err[2];
  if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0 || pipe2(err, O_CLOEXEC) != 0) {
    error = std::strerror(errno);
    return std::nullopt;
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, in[0], 0);
  posix_spawn_file_actions_adddup2(&fa, out[1], 1);
  posix_spawn_file_actions_adddup2(&fa, err[1], 2);
  posix_spawnattr_t at;
  posix_spawnattr_init(&at);
  sigset_t none, defaults;
  sigemptyset(&none);
  sigemptyset(&defaults);
  for (int s : {SIGINT, SIGTERM, SIGPIPE, SIGHUP}) sigaddset(&defaults, s);
  posix_spawnattr_setsigmask(&at, &none);
  posix_spawnattr_setsigdefault(&at, &defaults);
  posix_spawnattr_setpgroup(&at, 0);  // its own group: a timeout kills podman and its children
  posix_spawnattr_setflags(&at,
                           POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP);
  std::vector<char*> args;
  args.reserve(argv.size() + 1);
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  std::vector<std::string> envs = merged_environment(env);
  std::vector<char*> envp;
  envp.reserve(envs.size() + 1);
  for (auto& e : envs) envp.push_back(e.data());
  envp.push_back(nullptr);
  pid_t pid = -1;
  int rc;
  {
    std::lock_guard<std::mutex> lock(g_children_mu);
    rc = posix_spawnp(&pid, args[0], &fa, &at, args.data(), envp.data());
    if (rc == 0) g_children.insert(pid);
    // A signal that came in just before the spawn must not leave this child running.
    if (rc == 0 && interrupted() != 0 && !g_cleaning.load()) kill(-pid, SIGKILL);
  }
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&at);
  close(in[0]);
  close(out[1]);
  close(err[1]);
  Child c;
  c.in_ = in[1];
  c.out_ = out[0];
  c.errfd_ = err[0];
  if (rc != 0) {
    error = std::string(argv[0]) + ": " + std::strerror(rc);
    return std::nullopt;
  }
  c.pid_ = pid;
  return c;
}

std::optional<std::string> Child::read_line(int timeout_ms, bool& timed_out) {
  timed_out = false;
  const long long deadline = now_ms() + timeout_ms;
  for (;;) {
    if (size_t nl = buf_.find('\n'); nl != std::string::npos) {
      std::string line = buf_.substr(0, nl);
      buf_.erase(0, nl + 1);
      return line;
    }
    if (out_ < 0) {
      if (buf_.empty()) return std::nullopt;
      return std::exchange(buf_, std::string());
    }
    long long left = deadline - now_ms();
    if (left <= 0) {
      timed_out = true;
      return std::nullopt;
    }
    // stderr is drained too, so that a chatty engine never blocks on a full pipe.
    std::array<pollfd, 2> fds = {pollfd{out_, POLLIN, 0}, pollfd{errfd_, POLLIN, 0}};
    int n = poll(fds.data(), errfd_ >= 0 ? 2 : 1, static_cast<int>(left));
    if (n < 0 && errno != EINTR) return std::nullopt;
    if (fds[1].revents != 0 && !read_some(errfd_, err_)) close_fd(errfd_);
    if (fds[0].revents != 0 && !read_some(out_, buf_)) close_fd(out_);
  }
}

void Child::close_stdin() {
  close_fd(in_);
}

void Child::drain_err() {
  while (errfd_ >= 0) {
    pollfd p{errfd_, POLLIN, 0};
    if (poll(&p, 1, 0) <= 0 || !read_some(errfd_, err_)) break;
  }
}

int Child::wait(int timeout_ms, bool& timed_out) {
  timed_out = false;
  if (pid_ <= 0) return -1;
  const long long deadline = now_ms() + timeout_ms;
  int status = 0;
  for (;;) {
    drain_err();
    pid_t r = waitpid(pid_, &status, WNOHANG);
    if (r == pid_) break;
    if (now_ms() >= deadline) {
      timed_out = timeout_ms > 0;
      kill(-pid_, SIGKILL);
      waitpid(pid_, &status, 0);
      break;
    }
    std::array<pollfd, 2> fds = {pollfd{out_, POLLIN, 0}, pollfd{errfd_, POLLIN, 0}};
    int n = poll(fds.data(), 2, 20);
    if (n > 0) {
      if (fds[0].revents != 0 && !read_some(out_, buf_)) close_fd(out_);
      if (fds[1].revents != 0 && !read_some(errfd_, err_)) close_fd(errfd_);
    }
  }
  drain_err();
  {
    std::lock_guard<std::mutex> lock(g_children_mu);
    g_children.erase(pid_);
  }
  pid_ = -1;
  return decode(status);
}

ProcessResult run_process(const std::vector<std::string>& argv, int timeout_ms,
                          const std::vector<std::string>& env) {
  ProcessResult r;
  auto child = Child::spawn(argv, r.error, env);
  if (!child) return r;
  child->close_stdin();
  bool timed_out = false;
  const long long deadline = now_ms() + timeout_ms;
  while (auto line =
             child->read_line(static_cast<int>(std::max(1LL, deadline - now_ms())), timed_out)) {
    r.out += *line + "\n";
  }
  r.status = child->wait(timed_out ? 0 : static_cast<int>(std::max(1LL, deadline - now_ms())),
                         r.timed_out);
  r.timed_out = r.timed_out || timed_out;
  r.err = child->err();
  return r;
}

void kill_all_children() {
  if (g_cleaning.load()) return;
  std::lock_guard<std::mutex> lock(g_children_mu);
  for (pid_t p : g_children) kill(-p, SIGKILL);
}

}  // namespace sbr::prove

namespace sbr::prove {
void set_cleaning(bool on) {
  g_cleaning.store(on);
}
}  // namespace sbr::prove
