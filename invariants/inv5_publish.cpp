// Invariant 5 for launched containers: published ports must bind loopback, and the host's own
// loopback services must not be reachable from inside.
#include <fmt/format.h>

#include "generated/rule_ids.h"
#include "invariants/common.h"
#include "invariants/modules.h"

namespace sbr::inv {
namespace {

bool loopback(std::string_view ip) {
  if (!ip.empty() && ip.front() == '[' && ip.back() == ']') ip = ip.substr(1, ip.size() - 2);
  return ip.rfind("127.", 0) == 0 || ip == "::1" || ip == "localhost";
}

// Ports are not bound at all under these modes (--network none: discarded or refused; host:
// the container already shares every host port, reported as a host namespace) -- when the mode
// applies on the port's path (a script may set them on different branches).
bool port_bound(const Workload& w, const PublishedPort& p) {
  if (!w.network.mode) return true;
  NetMode m = w.network.mode->value;
  const Condition& mc = w.network.mode->from.condition;
  bool same_path = mc.always() || mc == p.from.condition;
  return !same_path || (m != NetMode::None && m != NetMode::Host && m != NetMode::Container);
}

}  // namespace

void check_publish(const Model& model, Findings& out) {
  for (const Workload& w : model.workloads) {
    if (is_kubernetes(w)) continue;  // hostPort and Services are judged by their own rules
    {
      for (const PublishedPort& p : w.network.ports) {
        if (p.is_host_port || !port_bound(w, p)) continue;
        if (p.publish_all) {
          out.add(make(w, rule::publish_binds_all_interfaces,
                       fmt::format("{}: `{}` publishes every exposed port of the image on every "
                                   "host interface; publish single ports bound to 127.0.0.1",
                                   describe(w), p.spec),
                       p.from, "ports/" + p.spec));
        } else if (p.host_ip.empty() && !p.container_port.empty()) {
          out.add(make(w, rule::publish_binds_all_interfaces,
                       fmt::format("{}: port `{}` is published without an address, so it binds "
                                   "every host interface; write `127.0.0.1:{}`",
                                   describe(w), p.spec, p.spec),
                       p.from, "ports/" + p.spec));
        } else if (!p.host_ip.empty() && !loopback(p.host_ip)) {
          out.add(make(w, rule::publish_non_loopback_address,
                       MessageArgs{{"spec", p.spec}, {"address", p.host_ip}}, p.from,
                       "ports/" + p.spec));
        }
      }
    }
    for (const auto& h : w.network.host_loopback) {
      out.add(make(w, rule::host_loopback_reachable, MessageArgs{{"how", h.value}}, h.from,
                   "network/host-loopback/" + h.value));
    }
  }
}

}  // namespace sbr::inv
