#include "prover/lib/host_net.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

namespace sbr::prove {
namespace {

// /proc/net/tcp prints addresses as the kernel holds them: 32-bit words in host order.
std::string address_of(const std::string& hex, bool v6) {
  std::array<unsigned char, 16> bytes{};
  const size_t words = v6 ? 4 : 1;
  if (hex.size() != words * 8) return {};
  for (size_t w = 0; w < words; ++w) {
    std::uint32_t v = static_cast<std::uint32_t>(std::stoul(hex.substr(w * 8, 8), nullptr, 16));
    std::memcpy(bytes.data() + w * 4, &v, 4);  // host order back to memory order
  }
  std::array<char, INET6_ADDRSTRLEN> out{};
  inet_ntop(v6 ? AF_INET6 : AF_INET, bytes.data(), out.data(), out.size());
  return out.data();
}

}  // namespace

std::vector<std::string> listening_addresses(const std::string& proc_net_tcp, bool v6, int port) {
  std::vector<std::string> out;
  std::istringstream in(proc_net_tcp);
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::istringstream f(line);
    std::string slot, local, remote, state;
    if (!(f >> slot >> local >> remote >> state) || state != "0A") continue;  // 0A: LISTEN
    size_t colon = local.find(':');
    if (colon == std::string::npos) continue;
    int p = static_cast<int>(std::stoul(local.substr(colon + 1), nullptr, 16));
    if (p != port) continue;
    std::string a = address_of(local.substr(0, colon), v6);
    if (!a.empty()) out.push_back(a);
  }
  return out;
}

std::vector<std::string> host_listening_addresses(int port) {
  std::vector<std::string> out;
  for (bool v6 : {false, true}) {
    std::ifstream f(v6 ? "/proc/net/tcp6" : "/proc/net/tcp");
    std::stringstream ss;
    ss << f.rdbuf();
    for (auto& a : listening_addresses(ss.str(), v6, port)) out.push_back(std::move(a));
  }
  return out;
}

bool reaches_probe(int port, const std::string& token, bool v6) {
  int fd = socket(v6 ? AF_INET6 : AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  timeval tv{1, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
  int rc;
  if (v6) {
    sockaddr_in6 a{};
    a.sin6_family = AF_INET6;
    a.sin6_addr = in6addr_loopback;
    a.sin6_port = htons(static_cast<uint16_t>(port));
    rc = connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
  } else {
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = htons(static_cast<uint16_t>(port));
    rc = connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
  }
  std::string got;
  if (rc == 0) {
    std::array<char, 128> buf{};
    ssize_t n = read(fd, buf.data(), buf.size());
    if (n > 0) got.assign(buf.data(), static_cast<size_t>(n));
  }
  close(fd);
  return got == "SBREVIEW-PROBE " + token + "\n";
}

int free_port() {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return 0;
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  int port = 0;
  if (bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
      getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0) {
    port = ntohs(a.sin_port);
  }
  close(fd);
  return port;
}

Canaries::Canaries(std::string token, const std::vector<std::pair<std::string, std::string>>& where)
    : token_(std::move(token)) {
  for (const auto& [name, addr] : where) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0) continue;
    int on = 1;
    // The bridge's gateway address exists only once podman has brought the bridge up:
    // IP_FREEBIND lets the canary bind it before.
    setsockopt(fd, IPPROTO_IP, IP_FREEBIND, &on, sizeof on);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    socklen_t len = sizeof a;
    if (inet_pton(AF_INET, addr.c_str(), &a.sin_addr) != 1 ||
        bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || listen(fd, 16) != 0 ||
        getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) != 0) {
      close(fd);
      continue;
    }
    endpoints_.push_back({name, addr, ntohs(a.sin_port)});
    fds_.push_back(fd);
  }
  if (pipe2(stop_, O_CLOEXEC) == 0) thread_ = std::thread([this] { serve(); });
}

Canaries::~Canaries() {
  if (stop_[1] >= 0) {
    char c = 0;
    ssize_t ignored = write(stop_[1], &c, 1);
    (void)ignored;
  }
  if (thread_.joinable()) thread_.join();
  for (int fd : fds_) close(fd);
  for (int fd : stop_) {
    if (fd >= 0) close(fd);
  }
}

std::vector<std::string> Canaries::probe_args() const {
  std::vector<std::string> out;
  for (const auto& e : endpoints_) {
    out.push_back(e.name + "=" + e.address + ":" + std::to_string(e.port));
  }
  return out;
}

void Canaries::serve() {
  const std::string banner = "SBREVIEW-CANARY " + token_ + "\n";
  for (;;) {
    std::vector<pollfd> fds;
    fds.push_back({stop_[0], POLLIN, 0});
    for (int fd : fds_) fds.push_back({fd, POLLIN, 0});
    if (poll(fds.data(), fds.size(), -1) < 0 && errno != EINTR) return;
    if (fds[0].revents != 0) return;
    for (size_t i = 1; i < fds.size(); ++i) {
      if (fds[i].revents == 0) continue;
      int c = accept4(fds[i].fd, nullptr, nullptr, SOCK_CLOEXEC);
      if (c < 0) continue;
      ssize_t ignored = write(c, banner.data(), banner.size());
      (void)ignored;
      close(c);
    }
  }
}

}  // namespace sbr::prove
