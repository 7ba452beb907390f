// The `podman run` options of a launcher, compose service or devcontainer: only what the
// allowlist below names is passed, rebuilt from the model's facts (so every option is one the
// prover understands); host paths become stand-ins, env values placeholders.
#include <fmt/format.h>

#include "analyzer/model/capability.h"
#include "prover/lib/launch_plan.h"
#include "prover/lib/units.h"

namespace sbr::prove::detail {
namespace {

bool on(const Maybe<bool>& b) {
  return b && b->value;
}

constexpr const char* kKubeIgnored = "podman kube play ignores it (the kubelet does not)";

struct Builder {
  const Workload& w;
  const PlanContext& ctx;
  LaunchPlan& p;
  bool kube = false;  // a Kubernetes container (under gVisor): its fields, podman's options

  void opt(std::string o) { p.options.push_back(std::move(o)); }
  void skip(std::string what, std::string reason) {
    p.not_passed.push_back({std::move(what), std::move(reason)});
  }

  void identity() {
    const Identity& id = w.identity;
    if (on(id.privileged)) opt("--privileged");
    for (const auto& c : id.cap_drop) {
      if (c.value == Capability::Unknown) continue;
      opt(fmt::format("--cap-drop={}", capability_name(c.value)));
    }
    for (const auto& c : id.cap_add) {
      if (c.value == Capability::Unknown) continue;
      opt(fmt::format("--cap-add={}", capability_name(c.value)));
    }
    if (id.allow_privilege_escalation && !id.allow_privilege_escalation->value) {
      opt("--security-opt=no-new-privileges");
    }
    if (id.run_as_user) {
      std::string u = std::to_string(id.run_as_user->value);
      if (id.run_as_group) u += ":" + std::to_string(id.run_as_group->value);
      opt("--user=" + u);
    } else if (id.user_name) {
      skip("--user " + id.user_name->value,
           "a user name is looked up in the image's /etc/passwd, and the image is replaced");
    }
    if (on(id.read_only_root)) opt("--read-only");
    if (kube && id.run_as_non_root) skip("runAsNonRoot", kKubeIgnored);
    if (kube && id.proc_mount) skip("procMount", kKubeIgnored);
    security_opts();
    if (id.userns)
      skip("--userns " + id.userns->value, "user namespace mappings depend on the host");
  }

  void security_opts() {
    const Identity& id = w.identity;
    if (id.seccomp) seccomp(id.seccomp->value);
    if (id.apparmor) {
      if (id.apparmor->value == "Unconfined" || id.apparmor->value == "unconfined") {
        opt("--security-opt=apparmor=unconfined");
      } else {
        skip("apparmor=" + id.apparmor->value, "an AppArmor profile is loaded from the host");
      }
    }
    if (on(id.selinux_disabled)) opt("--security-opt=label=disable");
    if (id.selinux_type)
      skip("label=type:" + id.selinux_type->value, "an SELinux type of the host");
    for (const auto& u : id.unmasked_paths) opt("--security-opt=unmask=" + u.value);
    if (on(id.systempaths_unconfined)) opt("--security-opt=unmask=ALL");
  }

  void seccomp(const Seccomp& s) {
    switch (s.kind) {
      case SeccompKind::Unconfined:
        opt("--security-opt=seccomp=unconfined");
        return;
      case SeccompKind::RuntimeDefault:
        return;
      case SeccompKind::Localhost:
      case SeccompKind::CustomFile: {
        auto bytes = ctx.repo_file ? ctx.repo_file(s.profile) : std::nullopt;
        if (!bytes) {
          skip("seccomp=" + s.profile, "a profile outside the analysed repository");
          return;
        }
        p.seccomp_profile = ctx.standin_dir + "/seccomp.json";
        p.seccomp_profile_bytes = *bytes;
        opt("--security-opt=seccomp=" + p.seccomp_profile);
        return;
      }
    }
  }

  void namespaces() {
    const Network& n = w.network;
    if (kube) {
      if (on(n.host_pid)) skip("hostPID", kKubeIgnored);
      if (on(n.host_ipc)) skip("hostIPC", kKubeIgnored);
      return;
    }
    if (on(n.host_pid)) opt("--pid=host");
    if (on(n.host_ipc)) opt("--ipc=host");
    if (on(n.host_uts)) opt("--uts=host");
  }

  void network() {
    if (p.runtime == "runsc") {
      // gVisor here runs only without a network (TOOLCHAIN.md): the network is not measured.
      opt("--runtime=runsc");
      opt("--runtime-flag=network=none");
      opt("--network=none");
      p.network = "none";
      if (!w.network.ports.empty()) skip("-p", "gVisor runs here with network=none");
      return;
    }
    NetMode m = w.network.mode ? w.network.mode->value : NetMode::EngineDefault;
    switch (m) {
      case NetMode::None:
        p.network = "none";
        break;
      case NetMode::Host:
        p.network = "host";
        break;
      case NetMode::EngineDefault:
      case NetMode::Bridge:
      case NetMode::PodNetwork:
        p.network = "bridge";
        break;
      default:
        p.network = "bridge";
        skip(
            fmt::format("--network {}", w.network.mode_arg.empty() ? "(mode)" : w.network.mode_arg),
            "another network, container or namespace of the host; launched on the default bridge");
        break;
    }
    if (p.network != "bridge") opt("--network=" + p.network);
    for (const auto& port : w.network.ports) publish(port);
  }

  void publish(const PublishedPort& port) {
    if (kube && !port.is_host_port) return;  // a containerPort alone publishes nothing
    PublishPlan pp;
    pp.spec = port.spec;
    pp.host_ip = port.host_ip;
    pp.protocol = port.protocol.empty() ? "tcp" : port.protocol;
    if (port.publish_all) {
      pp.reason = "-P publishes the image's EXPOSE ports, and the image is replaced";
    } else if (port.container_port.find('-') != std::string::npos) {
      pp.reason = "a port range";
    } else if (pp.protocol != "tcp") {
      pp.reason = "only TCP publishing is measured";
    } else if (!host_ip_passable(port.host_ip)) {
      pp.reason = "an address of the analysed host, not of this machine";
    } else {
      pp.container_port = std::atoi(port.container_port.c_str());
      pp.host_port = ctx.free_port ? ctx.free_port() : 0;
      pp.passed = pp.container_port > 0 && pp.host_port > 0;
      if (!pp.passed) pp.reason = "no port to publish";
    }
    if (pp.passed) {
      std::string ip = pp.host_ip.empty() ? "" : pp.host_ip + ":";
      opt(fmt::format("--publish={}{}:{}", ip, pp.host_port, pp.container_port));
      p.listen.push_back(pp.container_port);
    } else {
      skip("-p " + port.spec, pp.reason);
    }
    p.publishes.push_back(std::move(pp));
  }

  static bool host_ip_passable(const std::string& ip) {
    // `localhost` is passed as written: podman refuses it, and that is what is measured.
    return ip.empty() || ip == "localhost" || ip == "0.0.0.0" || ip == "::" || ip == "[::]" ||
           ip == "[::1]" || ip == "::1" || ip.rfind("127.", 0) == 0;
  }

  void resources() {
    const Resources& r = w.resources;
    if (kube) {
      kube_resources();
      return;
    }
    if (r.memory_limit) opt("--memory=" + r.memory_limit->value);
    if (r.memory_swap) opt("--memory-swap=" + r.memory_swap->value);
    if (r.cpu_limit) opt("--cpus=" + r.cpu_limit->value);
    if (r.pids_limit) opt(fmt::format("--pids-limit={}", r.pids_limit->value));
    for (const auto& d : r.devices) skip("--device " + d.value, "reaches a host device");
    for (const auto& g : r.gpus) skip("--gpus " + g.value, "runs the vendor's hooks on the host");
  }

  // Kubernetes quantities in podman's units: bytes and CPUs.
  void kube_resources() {
    const Resources& r = w.resources;
    if (r.memory_limit) {
      if (auto b = parse_bytes(r.memory_limit->value, true)) opt(fmt::format("--memory={}", *b));
    }
    if (r.cpu_limit) {
      if (auto c = parse_cpus(r.cpu_limit->value)) opt(fmt::format("--cpus={}", *c));
    }
    if (r.cpu_request || r.memory_request) skip("resource requests", kKubeIgnored);
    if (r.ephemeral_limit) skip("ephemeral-storage", kKubeIgnored);
    for (const auto& d : r.devices) skip("device " + d.value, "reaches a host device");
    for (const auto& g : r.gpus) skip("GPU " + g.value, "reaches a host device");
  }

  void mounts() {
    size_t index = 0;
    for (const Mount& m : w.mounts) {
      ++index;
      if (m.target.empty()) continue;
      if (m.kind == MountKind::Tmpfs) {
        std::string o = m.size_limit ? ":size=" + m.size_limit->value : "";
        opt(fmt::format("--tmpfs={}{}", m.target, o));
        p.mounts.push_back(m.target);
        continue;
      }
      if (kube && m.kind == MountKind::EmptyDir) {
        // An emptyDir: a fresh volume of the run.
        Mount v = m;
        v.kind = MountKind::NamedVolume;
        bind(v, index);
        continue;
      }
      if (m.kind != MountKind::HostPath && m.kind != MountKind::NamedVolume) {
        skip("mount " + m.target, "not a host path or named volume");
        continue;
      }
      bind(m, index);
    }
  }

  void bind(const Mount& m, size_t index) {
    StandIn s = stand_in_for(m, index);
    std::vector<std::string> o;
    if (s.read_only) o.emplace_back("ro");
    if (m.propagation) {
      switch (m.propagation->value) {
        case Propagation::Bidirectional:
          o.emplace_back("rshared");
          break;
        case Propagation::HostToContainer:
          o.emplace_back("rslave");
          break;
        case Propagation::Private:
          break;
      }
    }
    if (m.chown) skip(fmt::format("{}:{} option :U", m.source, m.target), "changes host files");
    if (m.relabel_shared || m.relabel_private) {
      skip(fmt::format("{}:{} option :z/:Z", m.source, m.target), "relabels host files");
    }
    std::string spec = fmt::format("{}:{}", standin_path(ctx, s), m.target);
    for (size_t i = 0; i < o.size(); ++i) spec += (i ? "," : ":") + o[i];
    opt("--volume=" + spec);
    p.mounts.push_back(m.target);
    if (s.kind == StandIn::Kind::Socket) p.paths.push_back(m.target);
    if (!s.socket_inside.empty()) p.paths.push_back(m.target + "/" + s.socket_inside);
    p.stand_ins.push_back(std::move(s));
  }

  void environment() {
    for (const EnvVar& e : w.env) {
      // Names only: a value from the configuration never reaches the launch.
      opt(fmt::format("--env={}=sbreview-prove", e.name));
    }
    for (const EnvBulk& b : w.env_bulk) {
      skip(b.kind == EnvBulkKind::HostEnvironment ? "--env-host" : "--env-file " + b.name,
           "reads the host's environment or files");
    }
  }

  void rest() {
    for (const auto& u : w.unknown_options) skip(u.value, "not on the prover's allowlist");
    if (!w.siblings.empty()) skip("shared namespaces", "other containers are not launched");
    if (w.lifecycle.timeout) skip("--timeout", "the probe exits by itself");
    if (w.lifecycle.restart) skip("--restart " + w.lifecycle.restart->value, "the probe runs once");
  }
};

}  // namespace

void plan_podman(const Workload& w, const Model& model, const PlanContext& ctx, LaunchPlan& p) {
  (void)model;
  Builder b{w, ctx, p, w.engine == Engine::Kubelet || w.engine == Engine::PodmanKubePlay};
  b.identity();
  b.namespaces();
  b.network();
  b.resources();
  b.mounts();
  b.environment();
  b.rest();
}

}  // namespace sbr::prove::detail
