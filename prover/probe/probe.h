// The probe's observations, one function per area, each returning its part of the report. The
// probe only reads and connects where it is told: it never writes outside its own sockets, so
// a stand-in mount's writability is judged from the mount flags and access(2), not by writing.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace sbr::probe {

using Json = nlohmann::ordered_json;

struct Canary {
  std::string name;
  std::string host;
  int port = 0;
};

struct Request {
  std::string token;                // echoed by listeners, expected from canaries
  std::vector<int> listen;          // container ports published by the launch
  std::vector<Canary> canaries;     // the prover's own listeners on this machine
  std::vector<std::string> mounts;  // mount targets to report
  std::vector<std::string> paths;   // sockets and credential paths asked about
  int linger_ms = 0;                // serve listeners at most this long after reporting
  bool until_stdin_eof = false;     // also stop when the prover closes stdin
};

std::string read_file(const std::string& path, size_t max = 1 << 20);

Json identity();    // uid/gid/groups, capabilities, no_new_privs, seccomp, LSM label
Json kernel();      // uname, /proc/version, gVisor or not
Json namespaces();  // /proc/self/ns/* identities, for the prover to compare with the host's
Json filesystem(const Request& r);  // `/` and each asked mount, masked /proc paths
Json paths(const Request& r);       // existence and access of each asked path
Json cgroup();                      // memory, swap, pids and cpu limits, v1 or v2, as read
Json environment_names();           // names only, sorted; never a value
Json network(const Request& r);     // interfaces, resolver, canary reachability

// Opens the listeners (reported in the JSON), and after the report is out serves each
// connection with "SBREVIEW-PROBE <token>\n" until every listener has answered once, stdin
// closes or the linger time is over.
struct Listeners {
  std::vector<int> fds;
  Json report = Json::array();
};
Listeners open_listeners(const Request& r);
void serve(const Request& r, Listeners& l);

}  // namespace sbr::probe
