// The host side of the network proofs, all on this machine: the prover's canary listeners (on
// loopback and on the podman bridge's gateway, never a public address), the host's listening
// sockets at a published port (/proc/net/tcp and tcp6), and a connection over loopback to see
// whether a published port reaches the probe. Nothing connects off the machine.
#pragma once

#include <atomic>
#include <string>
#include <thread>
#include <vector>

namespace sbr::prove {

// The addresses listening on TCP `port`, from the text of /proc/net/tcp or /proc/net/tcp6.
std::vector<std::string> listening_addresses(const std::string& proc_net_tcp, bool v6, int port);
// Both files of this machine's network namespace.
std::vector<std::string> host_listening_addresses(int port);

// Connects to `port` on loopback (IPv4, else IPv6) and reads one line; true when it is the
// probe's banner with `token`.
bool reaches_probe(int port, const std::string& token, bool v6);

// A free TCP port on this machine (bound and released).
int free_port();

// Canary listeners: each answers every connection with "SBREVIEW-CANARY <token>\n".
class Canaries {
 public:
  struct Endpoint {
    std::string name;     // "host-loopback", "gateway"
    std::string address;  // numeric
    int port = 0;
  };
  Canaries(std::string token, const std::vector<std::pair<std::string, std::string>>& where);
  ~Canaries();
  Canaries(const Canaries&) = delete;
  Canaries& operator=(const Canaries&) = delete;
  const std::vector<Endpoint>& endpoints() const { return endpoints_; }
  // NAME=ADDR:PORT for the probe's command line.
  std::vector<std::string> probe_args() const;

 private:
  void serve();
  std::string token_;
  std::vector<Endpoint> endpoints_;
  std::vector<int> fds_;
  int stop_[2] = {-1, -1};
  std::thread thread_;
};

}  // namespace sbr::prove
