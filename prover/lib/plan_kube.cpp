// A Kubernetes container as a `kind: Pod` for `podman kube play` (restartPolicy Never,
// imagePullPolicy Never), carrying the fields podman honours (TOOLCHAIN.md): capabilities,
// allowPrivilegeEscalation, readOnlyRootFilesystem, runAsUser/Group, privileged, hostNetwork,
// memory and cpu limits, hostPath volumes (as stand-ins), hostPort. Fields podman ignores or
// treats differently from the kubelet are listed as not passed, never silently dropped.
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "analyzer/model/capability.h"
#include "prover/lib/launch_plan.h"

namespace sbr::prove::detail {
namespace {

using Json = nlohmann::ordered_json;

bool on(const Maybe<bool>& b) {
  return b && b->value;
}

constexpr const char* kIgnored = "podman kube play ignores it (the kubelet does not)";

struct KubeBuilder {
  const Workload& w;
  const PlanContext& ctx;
  LaunchPlan& p;
  Json pod_spec = Json::object();
  Json container = Json::object();

  void skip(std::string what, std::string reason) {
    p.not_passed.push_back({std::move(what), std::move(reason)});
  }

  Json security_context() {
    const Identity& id = w.identity;
    Json sc = Json::object();
    if (id.privileged) sc["privileged"] = id.privileged->value;
    if (id.allow_privilege_escalation) {
      sc["allowPrivilegeEscalation"] = id.allow_privilege_escalation->value;
    }
    if (id.read_only_root) sc["readOnlyRootFilesystem"] = id.read_only_root->value;
    if (id.run_as_user) sc["runAsUser"] = id.run_as_user->value;
    if (id.run_as_group) sc["runAsGroup"] = id.run_as_group->value;
    if (id.run_as_non_root) skip("runAsNonRoot", kIgnored);
    Json caps = Json::object();
    for (const auto& c : id.cap_drop) {
      if (c.value != Capability::Unknown) caps["drop"].push_back(capability_name(c.value));
    }
    for (const auto& c : id.cap_add) {
      if (c.value != Capability::Unknown) caps["add"].push_back(capability_name(c.value));
    }
    if (!caps.empty()) sc["capabilities"] = std::move(caps);
    if (id.seccomp) {
      if (id.seccomp->value.kind == SeccompKind::Unconfined) {
        sc["seccompProfile"] = {{"type", "Unconfined"}};
      } else if (id.seccomp->value.kind != SeccompKind::RuntimeDefault) {
        skip("seccompProfile " + id.seccomp->value.profile, "a profile file on the node");
      }
    }
    if (id.proc_mount) skip("procMount", kIgnored);
    if (id.apparmor) skip("appArmorProfile", "an AppArmor profile of the node");
    if (id.selinux_type) skip("seLinuxOptions", "an SELinux type of the node");
    return sc;
  }

  void pod_level() {
    const Network& n = w.network;
    if (on(n.host_network)) pod_spec["hostNetwork"] = true;
    if (on(n.host_pid)) skip("hostPID", kIgnored);
    if (on(n.host_ipc)) skip("hostIPC", kIgnored);
    if (!w.siblings.empty()) skip("the pod's other containers", "only this container is launched");
    if (on(w.share_process_namespace))
      skip("shareProcessNamespace", "only this container is launched");
    p.network = on(n.host_network) ? "host" : "bridge";
    if (p.runtime == "runsc") p.network = "none";
  }

  void resources() {
    const Resources& r = w.resources;
    Json limits = Json::object();
    if (r.memory_limit) limits["memory"] = r.memory_limit->value;
    if (r.cpu_limit) limits["cpu"] = r.cpu_limit->value;
    if (!limits.empty()) container["resources"]["limits"] = std::move(limits);
    if (r.cpu_request || r.memory_request) skip("resource requests", kIgnored);
    if (r.ephemeral_limit) skip("ephemeral-storage", kIgnored);
    for (const auto& d : r.devices) skip("device " + d.value, "reaches a host device");
    for (const auto& g : r.gpus) skip("GPU " + g.value, "reaches a host device");
  }

  void ports() {
    for (const auto& port : w.network.ports) {
      PublishPlan pp;
      pp.spec = port.spec;
      pp.host_ip = port.host_ip;
      pp.container_port = std::atoi(port.container_port.c_str());
      if (!port.is_host_port) {
        // A containerPort alone publishes nothing on a node.
        continue;
      }
      if (p.runtime == "runsc") {
        pp.reason = "gVisor runs here with network=none";
      } else if (!port.host_ip.empty() && port.host_ip != "0.0.0.0" &&
                 port.host_ip.rfind("127.", 0) != 0) {
        pp.reason = "an address of the node, not of this machine";
      } else {
        pp.host_port = ctx.free_port ? ctx.free_port() : 0;
        pp.passed = pp.host_port > 0 && pp.container_port > 0;
      }
      if (pp.passed) {
        Json cp = {{"containerPort", pp.container_port}, {"hostPort", pp.host_port}};
        if (!pp.host_ip.empty()) cp["hostIP"] = pp.host_ip;
        container["ports"].push_back(std::move(cp));
        p.listen.push_back(pp.container_port);
      } else {
        skip("hostPort " + port.spec, pp.reason);
      }
      p.publishes.push_back(std::move(pp));
    }
  }

  void volumes() {
    size_t index = 0;
    for (const Mount& m : w.mounts) {
      ++index;
      if (m.target.empty()) continue;
      std::string vname = fmt::format("v{}", index);
      Json mount = {{"name", vname}, {"mountPath", m.target}};
      if (m.read_only && m.read_only->value) mount["readOnly"] = true;
      if (m.kind == MountKind::EmptyDir) {
        if (m.size_limit) skip("emptyDir sizeLimit " + m.target, kIgnored);
        pod_spec["volumes"].push_back({{"name", vname}, {"emptyDir", Json::object()}});
      } else if (m.kind == MountKind::HostPath) {
        StandIn s = stand_in_for(m, index);
        const char* type = s.kind == StandIn::Kind::Socket ? "Socket" : "Directory";
        pod_spec["volumes"].push_back(
            {{"name", vname}, {"hostPath", {{"path", standin_path(ctx, s)}, {"type", type}}}});
        if (m.propagation && m.propagation->value == Propagation::Bidirectional) {
          mount["mountPropagation"] = "Bidirectional";
        }
        if (s.kind == StandIn::Kind::Socket) p.paths.push_back(m.target);
        if (!s.socket_inside.empty()) p.paths.push_back(m.target + "/" + s.socket_inside);
        p.stand_ins.push_back(std::move(s));
      } else {
        skip(fmt::format("volume {} at {}", m.volume_name, m.target),
             "its object (Secret, ConfigMap, claim, projection) is not created");
        continue;
      }
      container["volumeMounts"].push_back(std::move(mount));
      p.mounts.push_back(m.target);
    }
  }

  void environment() {
    for (const EnvVar& e : w.env) {
      container["env"].push_back({{"name", e.name}, {"value", "sbreview-prove"}});
    }
    for (const EnvBulk& b : w.env_bulk) skip("envFrom " + b.name, "its object is not created");
  }
};

}  // namespace

void plan_kube(const Workload& w, const Model& model, const PlanContext& ctx, LaunchPlan& p) {
  (void)model;
  KubeBuilder b{w, ctx, p};
  b.container["name"] = "probe";
  b.container["image"] = ctx.image;
  b.container["imagePullPolicy"] = "Never";
  Json sc = b.security_context();
  if (!sc.empty()) b.container["securityContext"] = std::move(sc);
  b.pod_level();
  b.resources();
  b.ports();
  b.volumes();
  b.environment();
  if (w.resources.pids_limit || model.cluster_facts.pod_pids_limit) {
    b.skip("pids limit", "podman kube play sets no pids limit (the kubelet's podPidsLimit does)");
  }
  b.pod_spec["restartPolicy"] = "Never";
  b.pod_spec["containers"] = Json::array({std::move(b.container)});
  Json pod = {{"apiVersion", "v1"},
              {"kind", "Pod"},
              {"metadata", {{"name", ctx.name}, {"labels", {{kRunLabel, ctx.run_id}}}}},
              {"spec", std::move(b.pod_spec)}};
  p.pod_json = pod.dump();
}

}  // namespace sbr::prove::detail
