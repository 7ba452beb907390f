// An external program run as a sealed child: the Kustomize renderer, and bash as the reference
// parser of shell scripts (`bash -n` reads, never runs). No shell, a private empty HOME, a clean
// environment, its own process group killed at the limits, and its own empty network namespace
// where the machine allows it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace sbr::render {

struct RunLimits {
  std::uint32_t timeout_ms = 30'000;
  std::uint64_t max_output_bytes = 64ull << 20;
  bool no_network = true;  // in a network namespace of its own when the machine allows it
  std::string stdin_path;  // read as its standard input; empty: /dev/null
};

struct RunResult {
  bool started = false;
  bool timed_out = false;
  bool too_large = false;
  int exit_code = -1;  // -1 unless it exited normally
  std::string out, err;
  std::string not_run;  // why the caller did not start it (a budget of the run), or ""
};

// Runs argv[0] (an absolute path) with argv, no shell, in its own process group, with an
// environment of PATH, LANG and HOME/XDG dirs set to a fresh empty private directory; stdout
// and stderr are read together (no deadlock), the group is killed at the time or size limit.
RunResult run_isolated(const std::vector<std::string>& argv, const std::string& workdir,
                       const RunLimits& limits);

// Whether `unshare -rn` gives a process a network namespace here (checked once per process).
bool network_namespace_available();

}  // namespace sbr::render
