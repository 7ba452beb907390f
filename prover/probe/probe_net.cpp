// The probe's network view: its interfaces and resolver, whether each canary the prover runs
// on this machine answers, and listeners on the published container ports. It connects only to
// the addresses it is given (the prover's canaries), never anywhere else.
#include <arpa/inet.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <map>

#include "prover/probe/probe.h"
#include "prover/probe/probe_parse.h"

namespace sbr::probe {
namespace {

constexpr int kConnectMs = 400;

long long now_ms() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<long long>(ts.tv_sec) * 1000 + ts.tv_nsec / 1000000;
}

Json interfaces() {
  std::map<std::string, std::vector<std::string>> by_name;
  ifaddrs* list = nullptr;
  if (getifaddrs(&list) != 0) return Json::array();
  for (ifaddrs* a = list; a != nullptr; a = a->ifa_next) {
    auto& addrs = by_name[a->ifa_name];
    if (a->ifa_addr == nullptr) continue;
    std::array<char, INET6_ADDRSTRLEN> buf{};
    int family = a->ifa_addr->sa_family;
    const void* src = nullptr;
    if (family == AF_INET) src = &reinterpret_cast<sockaddr_in*>(a->ifa_addr)->sin_addr;
    if (family == AF_INET6) src = &reinterpret_cast<sockaddr_in6*>(a->ifa_addr)->sin6_addr;
    if (src != nullptr && inet_ntop(family, src, buf.data(), buf.size()) != nullptr) {
      addrs.emplace_back(buf.data());
    }
  }
  freeifaddrs(list);
  Json out = Json::array();
  for (auto& [name, addrs] : by_name) {
    out.push_back({{"name", printable(name, 32)}, {"addresses", addrs}});
  }
  return out;
}

// Connects with a time limit and reads the canary's one-line banner.
Json reach(const Canary& c, const std::string& token) {
  Json j{{"name", c.name}, {"address", c.host + ":" + std::to_string(c.port)}};
  sockaddr_storage ss{};
  socklen_t len = 0;
  auto* v4 = reinterpret_cast<sockaddr_in*>(&ss);
  auto* v6 = reinterpret_cast<sockaddr_in6*>(&ss);
  if (inet_pton(AF_INET, c.host.c_str(), &v4->sin_addr) == 1) {
    v4->sin_family = AF_INET;
    v4->sin_port = htons(static_cast<uint16_t>(c.port));
    len = sizeof *v4;
  } else if (inet_pton(AF_INET6, c.host.c_str(), &v6->sin6_addr) == 1) {
    v6->sin6_family = AF_INET6;
    v6->sin6_port = htons(static_cast<uint16_t>(c.port));
    len = sizeof *v6;
  } else {
    j["reachable"] = false;
    j["error"] = "not a numeric address";
    return j;
  }
  int fd = socket(ss.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    j["reachable"] = false;
    j["error"] = std::strerror(errno);
    return j;
  }
  int rc = connect(fd, reinterpret_cast<sockaddr*>(&ss), len);
  int err = rc == 0 ? 0 : errno;
  if (err == EINPROGRESS) {
    pollfd p{fd, POLLOUT, 0};
    if (poll(&p, 1, kConnectMs) == 1) {
      socklen_t el = sizeof err;
      getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &el);
    } else {
      err = ETIMEDOUT;
    }
  }
  j["reachable"] = err == 0;
  if (err != 0) j["error"] = std::strerror(err);
  if (err == 0) {
    std::array<char, 128> buf{};
    pollfd p{fd, POLLIN, 0};
    ssize_t n = poll(&p, 1, kConnectMs) == 1 ? read(fd, buf.data(), buf.size()) : 0;
    std::string banner = n > 0 ? std::string(buf.data(), static_cast<size_t>(n)) : "";
    j["banner_ok"] = banner == "SBREVIEW-CANARY " + token + "\n";
  }
  close(fd);
  return j;
}

}  // namespace

Json network(const Request& r) {
  Json j;
  j["interfaces"] = interfaces();
  Resolver res = parse_resolv_conf(read_file("/etc/resolv.conf", 65536));
  j["resolver"] = {{"nameservers", res.nameservers}, {"search", res.search}};
  Json canaries = Json::array();
  for (const auto& c : r.canaries) canaries.push_back(reach(c, r.token));
  j["canaries"] = std::move(canaries);
  return j;
}

Listeners open_listeners(const Request& r) {
  Listeners l;
  for (int port : r.listen) {
    Json j{{"port", port}};
    int fd = socket(AF_INET6, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    int off = 0, on = 1;
    if (fd >= 0) {
      // One dual-stack socket answers the engine's IPv4 and IPv6 forwarding alike.
      setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &off, sizeof off);
      setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    }
    sockaddr_in6 a{};
    a.sin6_family = AF_INET6;
    a.sin6_addr = in6addr_any;
    a.sin6_port = htons(static_cast<uint16_t>(port));
    if (fd < 0 || bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || listen(fd, 8) != 0) {
      // No IPv6 inside (a runtime without it): fall back to IPv4.
      if (fd >= 0) close(fd);
      fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
      sockaddr_in b{};
      b.sin_family = AF_INET;
      b.sin_port = htons(static_cast<uint16_t>(port));
      if (fd >= 0) setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
      if (fd < 0 || bind(fd, reinterpret_cast<sockaddr*>(&b), sizeof b) != 0 ||
          listen(fd, 8) != 0) {
        j["ok"] = false;
        j["error"] = std::strerror(errno);
        if (fd >= 0) close(fd);
        l.report.push_back(std::move(j));
        continue;
      }
    }
    j["ok"] = true;
    l.fds.push_back(fd);
    l.report.push_back(std::move(j));
  }
  return l;
}

void serve(const Request& r, Listeners& l) {
  if (l.fds.empty() && !r.until_stdin_eof) return;
  const long long deadline = now_ms() + r.linger_ms;
  const std::string banner = "SBREVIEW-PROBE " + r.token + "\n";
  // The prover connects once to each published port: when every listener has answered, the
  // probe is done (a pod's probe has no stdin to wait for).
  std::vector<bool> served(l.fds.size(), false);
  size_t left_to_serve = l.fds.size();
  for (;;) {
    if (!l.fds.empty() && left_to_serve == 0) return;
    long long left = deadline - now_ms();
    if (left <= 0) return;
    std::vector<pollfd> fds;
    for (int fd : l.fds) fds.push_back({fd, POLLIN, 0});
    if (r.until_stdin_eof) fds.push_back({STDIN_FILENO, POLLIN, 0});
    int n = poll(fds.data(), fds.size(), static_cast<int>(left));
    if (n < 0 && errno != EINTR) return;
    for (size_t i = 0; i < fds.size(); ++i) {
      if (fds[i].revents == 0) continue;
      if (fds[i].fd == STDIN_FILENO && r.until_stdin_eof) {
        std::array<char, 64> buf{};
        if (read(STDIN_FILENO, buf.data(), buf.size()) <= 0) return;  // the prover is done
        continue;
      }
      int c = accept4(fds[i].fd, nullptr, nullptr, SOCK_CLOEXEC);
      if (c < 0) continue;
      if (i < served.size() && !served[i]) {
        served[i] = true;
        --left_to_serve;
      }
      ssize_t ignored = write(c, banner.data(), banner.size());
      (void)ignored;
      close(c);
    }
  }
}

}  // namespace sbr::probe
