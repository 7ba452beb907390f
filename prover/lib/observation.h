// What one launch showed: the probe's report from inside, and what the prover saw from the
// host (the bind address of each published port, the host's own namespaces, podman's words).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "prover/lib/probe_report.h"

namespace sbr::prove {

// One published port as the host shows it: the addresses a socket listens on at the host
// port (read from /proc/net/tcp and tcp6), and whether a connection over loopback reached
// the probe (its banner carried this run's token).
struct PortBinding {
  int host_port = 0;
  std::vector<std::string> addresses;  // "0.0.0.0", "127.0.0.1", "::"
  bool reached_probe = false;
};

struct Observation {
  bool launched = false;
  std::string error;  // why the launch or the probe failed
  bool timed_out = false;
  std::string runtime;  // "podman/runc", "podman/runsc"
  std::optional<ProbeReport> probe;
  std::map<std::string, std::string> host_namespaces;  // the prover's own, by kind
  std::string host_kernel_release;
  std::vector<PortBinding> bindings;  // parallel to the plan's passed publishes, in order
  std::string engine_stderr;          // podman's warnings ("Port mappings have been discarded")
};

}  // namespace sbr::prove
