#include "analyzer/engine/boundary.h"

#include <fmt/format.h>

#include <algorithm>
#include <tuple>

#include "analyzer/engine/defaults.h"

namespace sbr::engine {
namespace {

std::string name_of(const Workload& w) {
  if (is_kubernetes(w)) {
    std::string ns = w.id.ns.empty() ? "" : w.id.ns + "/";
    return fmt::format("{} {}{}, container {}", w.id.kind, ns, w.id.name,
                       reader_name(w.id.container));
  }
  if (w.id.kind == "compose")
    return fmt::format("compose service {} ({})", reader_name(w.id.container), w.id.name);
  return fmt::format("{} {} ({})", w.id.kind, w.id.name, reader_name(w.id.container));
}

std::string runtime_text(const Workload& w, const ClusterFacts& cluster) {
  EffectiveRuntime r = effective_runtime(w, cluster);
  std::string kind = r.kind == RuntimeKind::GVisor    ? "gVisor"
                     : r.kind == RuntimeKind::MicroVm ? "microVM"
                                                      : "runc";
  if (r.name.empty()) return kind;
  if (r.from_cluster_default) return fmt::format("{} (cluster default {})", kind, r.name);
  std::string how = is_kubernetes(w) ? "runtimeClassName" : "--runtime";
  if (!r.handler.empty())
    return fmt::format("{} ({} {}, handler {})", kind, how, r.name, r.handler);
  return fmt::format("{} ({} {})", kind, how, r.name);
}

std::string userns_text(const Workload& w) {
  const Identity& id = w.identity;
  if (is_kubernetes(w)) {
    return id.host_users && !id.host_users->value ? "yes (hostUsers: false)" : "no";
  }
  if (id.userns && id.userns->value != "host") return "yes (--userns " + id.userns->value + ")";
  if (w.engine == Engine::Podman && w.rootful && !w.rootful->value) return "yes (rootless podman)";
  return "no";
}

std::string seccomp_text(const Workload& w, const ClusterFacts& cluster) {
  SeccompKind k = effective_seccomp(w, cluster);
  std::string profile = w.identity.seccomp ? w.identity.seccomp->value.profile : "";
  switch (k) {
    case SeccompKind::RuntimeDefault:
      return w.identity.seccomp ? "RuntimeDefault" : "RuntimeDefault (engine default)";
    case SeccompKind::Unconfined:
      return w.identity.seccomp ? "Unconfined" : "Unconfined (unset)";
    case SeccompKind::Localhost:
      return "Localhost " + profile;
    case SeccompKind::CustomFile:
      return "profile " + profile;
  }
  return "unknown";
}

std::string caps_text(const Workload& w) {
  const Identity& id = w.identity;
  bool drop_all = std::any_of(id.cap_drop.begin(), id.cap_drop.end(),
                              [](const auto& c) { return c.value == Capability::All; });
  std::string out = drop_all ? "drop ALL" : "engine default set";
  std::string added;
  for (const auto& c : id.cap_add) {
    added += (added.empty() ? "" : " ") + std::string(capability_name(c.value));
  }
  if (!added.empty()) out += ", add " + added;
  return out;
}

std::string user_text(const Workload& w) {
  if (auto uid = effective_uid(w)) {
    return *uid == 0 ? "uid 0 (root)" : fmt::format("uid {}", *uid);
  }
  if (w.identity.run_as_non_root && w.identity.run_as_non_root->value) return "non-root (enforced)";
  if (w.identity.user_name) return "user " + w.identity.user_name->value + " (unverified)";
  return "unknown (the image decides)";
}

bool non_root(const Workload& w) {
  if (auto uid = effective_uid(w)) return *uid != 0;
  return w.identity.run_as_non_root && w.identity.run_as_non_root->value;
}

std::string shortfall(const Workload& w, const ClusterFacts& cluster) {
  if (w.threat == ThreatClass::Trusted) return "";
  if (w.identity.privileged && w.identity.privileged->value) return "runs privileged";
  if (w.threat == ThreatClass::UntrustedInput) {
    std::vector<std::string> miss;
    if (effective_seccomp(w, cluster) == SeccompKind::Unconfined) miss.emplace_back("no seccomp");
    if (privilege_escalation_allowed(w)) miss.emplace_back("privilege escalation allowed");
    if (!non_root(w)) miss.emplace_back("not verifiably non-root");
    return fmt::format("{}", fmt::join(miss, ", "));
  }
  if (effective_runtime(w, cluster).kind == RuntimeKind::Runc) return "runs under runc";
  return "";
}

}  // namespace

std::string floor_of(ThreatClass t) {
  switch (t) {
    case ThreatClass::UntrustedCode:
      return "gVisor or a microVM";
    case ThreatClass::MultiTenant:
      return "gVisor or a microVM, one sandbox per tenant";
    case ThreatClass::UntrustedInput:
      return "a container with seccomp, no-new-privileges and a non-root user";
    case ThreatClass::Trusted:
      return "none";
  }
  return "";
}

std::vector<const Workload*> boundary_order(const Model& model) {
  std::vector<const Workload*> order;
  order.reserve(model.workloads.size());
  for (const Workload& w : model.workloads) {
    // What runs with the chart's values: a render with a switch flipped is not deployed.
    if (!from_render_switch(w.object_from.condition())) order.push_back(&w);
  }
  auto key = [&](const Workload* w) {
    return std::make_tuple(model.files.path(w->object_from.at.file), w->object_from.at.line,
                           w->container_from.at.line, w->id.container, identity_key(w->id));
  };
  std::stable_sort(order.begin(), order.end(),
                   [&](const Workload* a, const Workload* b) { return key(a) < key(b); });
  return order;
}

BoundaryRow boundary_row(const Model& model, const Workload& w) {
  BoundaryRow r;
  r.name = name_of(w);
  r.subject = fmt::format("{}/{}/{}/{}", w.id.kind, w.id.ns, w.id.name, w.id.container);
  r.engine = w.engine;
  r.threat = w.threat;
  r.threat_reason = w.threat_reason;
  r.runtime = runtime_text(w, model.cluster_facts);
  r.user_namespace = userns_text(w);
  r.seccomp = seccomp_text(w, model.cluster_facts);
  r.capabilities = caps_text(w);
  r.no_new_privileges = privilege_escalation_allowed(w) ? "no" : "yes";
  r.user = user_text(w);
  r.floor = floor_of(w.threat);
  r.shortfall = shortfall(w, model.cluster_facts);
  r.meets = r.shortfall.empty();
  return r;
}

bool meets_floor(const Model& model, const Workload& w) {
  return shortfall(w, model.cluster_facts).empty();
}

std::vector<BoundaryRow> boundary_rows(const Model& model) {
  std::vector<BoundaryRow> rows;
  for (const Workload* w : boundary_order(model)) rows.push_back(boundary_row(model, *w));
  return rows;
}

}  // namespace sbr::engine
