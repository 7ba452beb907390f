// Invariant 5, explicit ingress: a server inside the sandbox that gives whoever connects a shell
// or code execution (code-server, Jupyter, ttyd), started with its authentication off, listening
// beyond loopback, and reachable from outside: its port published on a host interface, the host
// network shared, or the pod exposed by a Service or Ingress.
#include <fmt/format.h>

#include "analyzer/engine/servers.h"
#include "generated/rule_ids.h"
#include "invariants/common.h"
#include "invariants/modules.h"

namespace sbr::inv {
namespace {

bool loopback(const std::string& ip) {
  return ip.rfind("127.", 0) == 0 || ip == "::1" || ip == "[::1]" || ip == "localhost";
}

// What makes the server's port reachable from outside the sandbox, as a reader would put it;
// "" when nothing does.
std::string reached_by(const Workload& w, const engine::ServerStart& s, Provenance& at) {
  const char* on_host = "the host network is shared, so it listens on the host's own interfaces";
  if (w.network.host_network && w.network.host_network->value) {
    at = w.network.host_network->from;
    return on_host;
  }
  if (w.network.mode && w.network.mode->value == NetMode::Host) {
    at = w.network.mode->from;
    return on_host;
  }
  for (const PublishedPort& p : w.network.ports) {
    if (loopback(p.host_ip)) continue;
    if (!p.publish_all && p.container_port != s.port) continue;
    at = p.from;
    return fmt::format("its port is published on every host interface (`{}`)", p.spec);
  }
  for (const Exposure& e : w.network.exposures) {
    at = e.from;
    return fmt::format("the pod is exposed by {} {}",
                       e.kind == ExposureKind::Ingress ? "Ingress" : "Service", e.name);
  }
  return "";
}

}  // namespace

void check_servers(const Model& model, Findings& out) {
  for (const Workload& w : model.workloads) {
    for (const engine::ServerStart& s : engine::servers_started(w)) {
      if (!s.unauthenticated || !s.all_interfaces) continue;
      Provenance exposed_at;
      std::string reach = reached_by(w, s, exposed_at);
      if (reach.empty()) continue;
      Finding f = make(w, rule::unauthenticated_server_exposed,
                       fmt::format("{}: {} runs with authentication off ({}) on every "
                                   "interface, port {}, and {}: whoever reaches it gets a shell "
                                   "in the sandbox",
                                   describe(w), s.name, s.how, s.port, reach),
                       s.from, "server." + s.name + ":" + s.port);
      f.related.push_back({exposed_at.at, "reachable from outside here"});
      out.add(std::move(f));
    }
  }
}

}  // namespace sbr::inv
