// Servers a container's command starts that hand out a shell or code execution to whoever
// connects (code-server, Jupyter, ttyd), read from the command words as they would run: how
// each authenticates and where it listens. Derived facts; whether that is a weakness depends on
// what reaches the port, which the check decides.
#pragma once

#include <string>
#include <vector>

#include "analyzer/model/workload.h"

namespace sbr::engine {

struct ServerStart {
  std::string name;  // "code-server", "jupyter", "ttyd"
  std::string how;   // the words that switch authentication off, as written
  bool unauthenticated = false;
  bool all_interfaces = false;  // listens beyond loopback
  std::string port;             // the port it listens on ("8080")
  Provenance from;              // the command word that starts it
};

// Every such server in the workload's command (also inside `sh -c "..."` strings).
std::vector<ServerStart> servers_started(const Workload& w);

}  // namespace sbr::engine
