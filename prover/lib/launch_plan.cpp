#include "prover/lib/launch_plan.h"

#include <fmt/format.h>

#include "analyzer/engine/defaults.h"
#include "analyzer/engine/paths.h"

namespace sbr::prove {
namespace {

std::string engine_note(const Workload& w) {
  if (w.engine_unresolved)
    return "an engine the launcher leaves open (judged as docker), run on podman";
  switch (w.engine) {
    case Engine::Docker:
      return "a docker launch, run on podman";
    case Engine::Compose:
      return "a compose service, run with podman run";
    case Engine::Devcontainer:
      return "a devcontainer, run with podman run";
    case Engine::Kubelet:
      return "a Kubernetes container, run with podman kube play";
    default:
      return "";
  }
}

bool socket_name(std::string_view base) {
  if (base.size() > 5 && base.substr(base.size() - 5) == ".sock") return true;
  return base == "io.podman" || base == "containerd.sock.ttrpc";
}

}  // namespace

LaunchPlan plan_launch(const Workload& w, const Model& model, const PlanContext& ctx) {
  LaunchPlan p;
  p.engine_note = engine_note(w);
  if (w.pod_only) {
    p.why_not = "a pod spec without containers: there is no container to launch";
    return p;
  }
  engine::EffectiveRuntime rt = engine::effective_runtime(w, model.cluster_facts);
  if (rt.kind == engine::RuntimeKind::MicroVm) {
    p.why_not = fmt::format("runtime `{}` is a microVM, which is not installed here", rt.name);
    return p;
  }
  if (rt.kind == engine::RuntimeKind::GVisor) {
    if (!ctx.runsc_available) {
      p.why_not = "gVisor (runsc) is not installed here";
      return p;
    }
    p.runtime = "runsc";
  }
  if (is_kubernetes(w) && p.runtime == "runsc") {
    // Measured here: under runsc a kube-play pod's containers cannot join the pause
    // container's sandbox and exit without output, so a gVisor pod's container is launched
    // with `podman run` and the fields kube play would honour.
    p.kind = LaunchKind::PodmanRun;
    p.engine_note =
        "a Kubernetes container under gVisor, run with podman run (podman kube play "
        "cannot run a gVisor pod here)";
    detail::plan_podman(w, model, ctx, p);
  } else if (is_kubernetes(w)) {
    p.kind = LaunchKind::KubePlay;
    detail::plan_kube(w, model, ctx, p);
  } else {
    p.kind = LaunchKind::PodmanRun;
    detail::plan_podman(w, model, ctx, p);
  }
  return p;
}

std::vector<std::string> probe_command(const LaunchPlan& p, const ProbeArgs& a, bool stdin_ends) {
  std::vector<std::string> cmd = {"/probe", "--token", a.token};
  for (int port : p.listen) {
    cmd.insert(cmd.end(), {"--listen", std::to_string(port)});
  }
  for (const auto& c : a.canaries) cmd.insert(cmd.end(), {"--canary", c});
  for (const auto& m : p.mounts) cmd.insert(cmd.end(), {"--mount", m});
  for (const auto& s : p.paths) cmd.insert(cmd.end(), {"--path", s});
  cmd.insert(cmd.end(), {"--linger-ms", std::to_string(a.linger_ms)});
  if (stdin_ends) cmd.emplace_back("--until-stdin-eof");
  return cmd;
}

std::vector<std::string> podman_run_args(const LaunchPlan& p, const PlanContext& ctx,
                                         const ProbeArgs& a) {
  std::vector<std::string> args = {"run",          "-i",
                                   "--name",       ctx.name,
                                   "--label",      fmt::format("{}={}", kRunLabel, ctx.run_id),
                                   "--pull=never", "--log-driver=none"};
  args.insert(args.end(), p.options.begin(), p.options.end());
  args.push_back(ctx.image);
  auto cmd = probe_command(p, a, true);
  args.insert(args.end(), cmd.begin(), cmd.end());
  return args;
}

namespace detail {

StandIn stand_in_for(const Mount& m, size_t index) {
  StandIn s;
  s.written = m.source;
  s.target = m.target;
  s.read_only = m.read_only && m.read_only->value;
  if (m.kind == MountKind::NamedVolume) {
    s.kind = StandIn::Kind::Volume;
    s.name = fmt::format("vol{}", index);
    return s;
  }
  std::string norm = engine::normalize_path(m.source);
  std::string base = norm.substr(norm.rfind('/') + 1);
  s.name = fmt::format("m{}", index);
  if (socket_name(base)) {
    s.kind = StandIn::Kind::Socket;
    s.name += ".sock";
    return s;
  }
  engine::HostPathClass c = engine::classify_host_path(m.source);
  if (c.kind == engine::HostPathKind::RuntimeSocket || norm == "/run" || norm == "/var/run") {
    // A directory that holds a runtime socket: the stand-in directory holds one too.
    // The socket its runtime keeps there: /run/podman holds podman.sock, /run/containerd
    // containerd.sock; /run itself docker.sock.
    std::string why = c.why.substr(c.why.rfind('/') + 1);
    s.socket_inside = "docker.sock";
    if (socket_name(why)) s.socket_inside = why;
    for (const char* rt : {"docker", "podman", "containerd", "crio"}) {
      if (why == rt) s.socket_inside = std::string(rt) + ".sock";
    }
  }
  return s;
}

std::string standin_path(const PlanContext& ctx, const StandIn& s) {
  if (s.kind == StandIn::Kind::Volume) return fmt::format("{}-{}", ctx.name, s.name);
  return ctx.standin_dir + "/" + s.name;
}

}  // namespace detail
}  // namespace sbr::prove
