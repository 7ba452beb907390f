#include "prover/lib/self_test.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "prover/lib/host_net.h"
#include "prover/lib/judge.h"
#include "prover/lib/launch.h"

namespace sbr::prove {
namespace {

template <class T>
Maybe<T> set(T v) {
  return Fact<T>{std::move(v), {}};
}

PublishedPort port(std::string ip, std::string ctr) {
  PublishedPort p;
  p.host_ip = std::move(ip);
  p.container_port = std::move(ctr);
  p.host_port = "1";
  p.spec = (p.host_ip.empty() ? "" : p.host_ip + ":") + "HOST:" + p.container_port;
  return p;
}

struct Runner {
  Session& s;
  Model model;
  std::vector<SelfTestRow> rows;
  int n = 0;

  Observation run(Workload w, LaunchPlan& plan, const std::function<void(LaunchPlan&)>& tweak) {
    PlanContext ctx;
    ctx.run_id = s.run_id();
    ctx.name = fmt::format("{}-self{}", s.run_id(), n);
    ctx.image = s.image();
    ctx.standin_dir = fmt::format("{}/self{}", s.dir(), n++);
    ctx.runsc_available = s.runsc_available();
    ctx.free_port = free_port;
    w.id.kind = "self-test";
    w.id.name = ctx.name;
    plan = plan_launch(w, model, ctx);
    if (tweak) tweak(plan);
    return launch(s, plan, ctx);
  }

  void row(std::string launch, std::string field, std::string expected, const Observation& o,
           const std::function<std::pair<std::string, std::string>(const ProbeReport&)>& look) {
    SelfTestRow r{std::move(launch), std::move(field), std::move(expected), {}, "not run"};
    if (o.probe) {
      std::tie(r.observed, r.status) = look(*o.probe);
    } else {
      r.observed = o.timed_out ? "the launch timed out" : o.error;
    }
    rows.push_back(std::move(r));
  }
};

const char* yes(bool b, const char* good = "honoured", const char* bad = "ignored") {
  return b ? good : bad;
}

std::string bound(const Observation& o, size_t i) {
  if (i >= o.bindings.size() || o.bindings[i].addresses.empty()) return "nothing listens";
  return fmt::format("listens on {}", fmt::join(o.bindings[i].addresses, ", "));
}

void podman_run(Runner& t) {
  const char* run = "podman run";
  Workload w;
  w.engine = Engine::Podman;
  w.identity.cap_drop.push_back({Capability::All, {}});
  w.identity.allow_privilege_escalation = set(false);
  w.identity.read_only_root = set(true);
  w.identity.run_as_user = set<std::int64_t>(1000);
  w.identity.run_as_group = set<std::int64_t>(1000);
  w.resources.memory_limit = set<std::string>("64m");
  w.resources.cpu_limit = set<std::string>("0.5");
  w.resources.pids_limit = set<std::int64_t>(64);
  w.network.ports = {port("127.0.0.1", "8080"), port("", "8081")};
  LaunchPlan plan;
  Observation o = t.run(w, plan, nullptr);
  t.row(run, "--cap-drop=ALL", "an empty bounding set", o, [](const ProbeReport& r) {
    return std::pair{"bounding set " + capability_names(r.cap_bnd),
                     yes(r.cap_bnd == "0000000000000000")};
  });
  t.row(run, "--security-opt no-new-privileges", "NoNewPrivs 1", o, [](const ProbeReport& r) {
    return std::pair{fmt::format("NoNewPrivs {}", r.no_new_privs.value_or(-1)),
                     yes(r.no_new_privs == 1)};
  });
  t.row(run, "--read-only", "/ read-only", o, [](const ProbeReport& r) {
    return std::pair{std::string(r.root.read_only_flag ? "/ read-only" : "/ writable"),
                     yes(r.root.read_only_flag)};
  });
  t.row(run, "--user 1000:1000", "uid 1000 gid 1000", o, [](const ProbeReport& r) {
    return std::pair{fmt::format("uid {} gid {}", r.uid.value_or(-1), r.gid.value_or(-1)),
                     yes(r.uid == 1000 && r.gid == 1000)};
  });
  t.row(run, "--memory 64m", "memory limit 67108864", o, [](const ProbeReport& r) {
    auto v = cgroup_limit(r.memory);
    return std::pair{v ? fmt::format("memory limit {}", *v) : "no memory limit",
                     yes(v == 67108864)};
  });
  t.row(run, "--cpus 0.5", "a quota of 0.5 CPUs", o, [](const ProbeReport& r) {
    auto v = cgroup_cpus(r.cpu);
    return std::pair{v ? fmt::format("{:.2f} CPUs", *v) : "no CPU quota",
                     yes(v && *v > 0.49 && *v < 0.51)};
  });
  t.row(run, "--pids-limit 64", "pids.max 64", o, [](const ProbeReport& r) {
    return std::pair{"pids.max " + r.pids, yes(cgroup_limit(r.pids) == 64)};
  });
  t.row(run, "-p 127.0.0.1:HOST:CTR", "a listener on 127.0.0.1 only", o, [&o](const ProbeReport&) {
    bool ok =
        !o.bindings.empty() && o.bindings[0].addresses == std::vector<std::string>{"127.0.0.1"};
    return std::pair{bound(o, 0), yes(ok)};
  });
  t.row(run, "-p HOST:CTR (no address)", "a listener on every interface", o,
        [&o](const ProbeReport&) {
          bool all =
              o.bindings.size() > 1 && !o.bindings[1].addresses.empty() &&
              (o.bindings[1].addresses[0] == "0.0.0.0" || o.bindings[1].addresses[0] == "::");
          return std::pair{bound(o, 1), yes(all, "binds every interface", "differs")};
        });
}

void podman_defaults(Runner& t) {
  const char* run = "podman run";
  Workload w;
  w.engine = Engine::Podman;
  LaunchPlan plan;
  Observation o = t.run(w, plan, nullptr);
  t.row(run, "seccomp (not set)", "the default profile (mode 2)", o, [](const ProbeReport& r) {
    return std::pair{fmt::format("seccomp mode {}", r.seccomp.value_or(-1)),
                     yes(r.seccomp == 2, "default applied", "differs")};
  });
  t.row(run, "--pids-limit (not set)", "podman's default 2048", o, [](const ProbeReport& r) {
    return std::pair{"pids.max " + r.pids,
                     yes(cgroup_limit(r.pids) == 2048, "default applied", "differs")};
  });
  t.row(run, "capabilities (not set)", "podman's default set, without NET_RAW", o,
        [](const ProbeReport& r) {
          std::string names = capability_names(r.cap_bnd);
          return std::pair{
              names, yes(names.find("NET_RAW") == std::string::npos, "default applied", "differs")};
        });
  Workload u;
  u.engine = Engine::Podman;
  u.identity.seccomp = set(Seccomp{SeccompKind::Unconfined, {}});
  Observation ou = t.run(u, plan, nullptr);
  t.row(run, "--security-opt seccomp=unconfined", "seccomp mode 0", ou, [](const ProbeReport& r) {
    return std::pair{fmt::format("seccomp mode {}", r.seccomp.value_or(-1)), yes(r.seccomp == 0)};
  });
  Workload n;
  n.engine = Engine::Podman;
  n.network.mode = set(NetMode::None);
  n.network.ports = {port("", "8082")};
  Observation on = t.run(n, plan, nullptr);
  t.row(run, "--network none", "loopback only", on, [](const ProbeReport& r) {
    return std::pair{
        std::string(has_network_interface(r) ? "an interface besides lo" : "loopback only"),
        yes(!has_network_interface(r))};
  });
  t.row(run, "--network none with -p", "the mapping dropped, no error", on,
        [&on](const ProbeReport&) {
          bool dropped = on.bindings.empty() || on.bindings[0].addresses.empty();
          return std::pair{bound(on, 0), yes(dropped, "mapping dropped", "differs")};
        });
  if (!t.s.runsc_available()) {
    t.rows.push_back(
        {run, "--runtime runsc", "the gVisor kernel", "runsc is not installed", "not run"});
    return;
  }
  Workload g;
  g.engine = Engine::Podman;
  g.runtime_class = set<std::string>("runsc");
  Observation og = t.run(g, plan, nullptr);
  t.row(run, "--runtime runsc", "the gVisor kernel", og, [](const ProbeReport& r) {
    return std::pair{r.gvisor ? std::string("gVisor") : "kernel " + r.kernel_release,
                     yes(r.gvisor)};
  });
}

void kube_play(Runner& t) {
  const char* kube = "podman kube play";
  Workload w;
  w.engine = Engine::Kubelet;
  w.id.container = "probe";
  w.identity.cap_drop.push_back({Capability::All, {}});
  w.identity.allow_privilege_escalation = set(false);
  w.identity.read_only_root = set(true);
  w.identity.run_as_user = set<std::int64_t>(1000);
  w.resources.memory_limit = set<std::string>("64Mi");
  w.resources.cpu_limit = set<std::string>("500m");
  LaunchPlan plan;
  // hostPID and hostIPC are never passed for a reviewed workload; here they are, to measure.
  Observation o = t.run(w, plan, [](LaunchPlan& p) {
    auto pod = nlohmann::ordered_json::parse(p.pod_json);
    pod["spec"]["hostPID"] = true;
    pod["spec"]["hostIPC"] = true;
    p.pod_json = pod.dump();
  });
  auto host = t.s.host_namespaces();
  t.row(kube, "capabilities.drop: [ALL]", "an empty bounding set", o, [](const ProbeReport& r) {
    return std::pair{"bounding set " + capability_names(r.cap_bnd),
                     yes(r.cap_bnd == "0000000000000000")};
  });
  t.row(kube, "allowPrivilegeEscalation: false", "NoNewPrivs 1", o, [](const ProbeReport& r) {
    return std::pair{fmt::format("NoNewPrivs {}", r.no_new_privs.value_or(-1)),
                     yes(r.no_new_privs == 1)};
  });
  t.row(kube, "readOnlyRootFilesystem: true", "/ read-only", o, [](const ProbeReport& r) {
    return std::pair{std::string(r.root.read_only_flag ? "/ read-only" : "/ writable"),
                     yes(r.root.read_only_flag)};
  });
  t.row(kube, "runAsUser: 1000", "uid 1000", o, [](const ProbeReport& r) {
    return std::pair{fmt::format("uid {}", r.uid.value_or(-1)), yes(r.uid == 1000)};
  });
  t.row(kube, "limits.memory: 64Mi", "memory limit 67108864", o, [](const ProbeReport& r) {
    auto v = cgroup_limit(r.memory);
    return std::pair{v ? fmt::format("memory limit {}", *v) : "no memory limit",
                     yes(v == 67108864)};
  });
  t.row(kube, "limits.cpu: 500m", "a quota of 0.5 CPUs", o, [](const ProbeReport& r) {
    auto v = cgroup_cpus(r.cpu);
    return std::pair{v ? fmt::format("{:.2f} CPUs", *v) : "no CPU quota",
                     yes(v && *v > 0.49 && *v < 0.51)};
  });
  t.row(kube, "hostPID: true", "the host's pid namespace", o, [host](const ProbeReport& r) {
    bool same =
        r.namespaces.count("pid") && host.count("pid") && r.namespaces.at("pid") == host.at("pid");
    return std::pair{std::string(same ? "the host's" : "its own"), yes(same)};
  });
  t.row(kube, "hostIPC: true", "the host's ipc namespace", o, [host](const ProbeReport& r) {
    bool same =
        r.namespaces.count("ipc") && host.count("ipc") && r.namespaces.at("ipc") == host.at("ipc");
    return std::pair{std::string(same ? "the host's" : "its own"), yes(same)};
  });
  t.row(kube, "pids (the kubelet's podPidsLimit)", "a pids limit", o, [](const ProbeReport& r) {
    return std::pair{"pids.max " + r.pids,
                     yes(cgroup_limit(r.pids).has_value(), "honoured", "differs")};
  });
  t.row(kube, "seccompProfile (not set)", "none (the kubelet applies none)", o,
        [](const ProbeReport& r) {
          return std::pair{fmt::format("seccomp mode {}", r.seccomp.value_or(-1)),
                           yes(r.seccomp == 0, "honoured", "differs")};
        });
  Workload nr;
  nr.engine = Engine::Kubelet;
  nr.identity.run_as_non_root = set(true);
  Observation onr = t.run(nr, plan, nullptr);
  // Refusing to start is honouring it only when the refusal is about that: a launch that
  // failed for another reason (a broken runtime) measured nothing.
  std::string said = onr.error + onr.engine_stderr;
  bool refused_root = said.find("runAsNonRoot") != std::string::npos ||
                      said.find("non-root") != std::string::npos ||
                      said.find("nonroot") != std::string::npos;
  if (!onr.probe && !onr.timed_out && refused_root) {
    t.rows.push_back({kube, "runAsNonRoot: true (no runAsUser)", "refuses to start as root",
                      onr.error, "honoured"});
    return;
  }
  t.row(kube, "runAsNonRoot: true (no runAsUser)", "refuses to start as root", onr,
        [](const ProbeReport& r) {
          return std::pair{fmt::format("started as uid {}", r.uid.value_or(-1)), yes(false)};
        });
}

}  // namespace

std::vector<SelfTestRow> self_test(Session& s) {
  Runner t{s, {}, {}, 0};
  podman_run(t);
  podman_defaults(t);
  kube_play(t);
  return std::move(t.rows);
}

}  // namespace sbr::prove
