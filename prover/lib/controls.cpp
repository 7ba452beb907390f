#include "prover/lib/controls.h"

#include <fmt/format.h>

#include <cmath>

#include "analyzer/engine/defaults.h"
#include "generated/rule_ids.h"
#include "prover/lib/judge.h"
#include "prover/lib/units.h"

namespace sbr::prove {
namespace {

bool on(const Maybe<bool>& b) {
  return b && b->value;
}

struct Claims {
  const Workload& w;
  const Model& model;
  const std::set<std::string>& reported;
  const LaunchPlan& plan;
  const Observation& obs;
  const ProbeReport* r;  // null when nothing was observed
  std::vector<Control> out;

  bool reported_rule(RuleId id) const { return reported.count(std::string(id)) != 0; }

  // Adds a control; `judge` runs only when the probe reported.
  template <class F>
  void add(std::string key, std::string name, int inv, std::string expected, Provenance from,
           F judge) {
    Control c{std::move(key), std::move(name), inv, std::move(expected), std::move(from), {}};
    if (plan.kind == LaunchKind::None) {
      c.verdict = unverifiable("not launched: " + plan.why_not);
    } else if (r == nullptr) {
      c.verdict = unverifiable(obs.timed_out ? "the launch timed out" : "the launch failed");
    } else {
      c.verdict = judge(*r);
    }
    c.verdict.runtime = obs.runtime;
    out.push_back(std::move(c));
  }

  bool runsc() const { return plan.runtime == "runsc"; }

  void capabilities() {
    const Identity& id = w.identity;
    const Fact<Capability>* all = nullptr;
    for (const auto& c : id.cap_drop) {
      if (c.value == Capability::All) all = &c;
    }
    // A privileged container (SB1001) holds every capability whatever it drops: the review
    // says so, and does not count on the drop.
    if (all == nullptr || reported_rule(rule::privileged_container) ||
        reported_rule(rule::capabilities_not_dropped) ||
        reported_rule(rule::capabilities_not_dropped_as_root)) {
      return;
    }
    std::set<int> added;
    for (const auto& c : id.cap_add) added.insert(capability_bit(c.value));
    add("capabilities.drop-all", "capabilities: all dropped", 2,
        added.empty() ? "an empty bounding set" : "a bounding set of the added capabilities only",
        all->from, [&](const ProbeReport& p) {
          std::string seen = "bounding set " + capability_names(p.cap_bnd);
          for (int bit : capability_bits(p.cap_bnd)) {
            if (added.count(bit) == 0) return refuted(seen);
          }
          return confirmed(seen);
        });
  }

  void no_new_privileges() {
    const auto& ape = w.identity.allow_privilege_escalation;
    if (!ape || ape->value || reported_rule(rule::privilege_escalation_allowed)) return;
    add("no-new-privileges", "no new privileges", 2, "NoNewPrivs 1", ape->from,
        [&](const ProbeReport& p) {
          if (!p.no_new_privs) return unverifiable("the kernel reports no NoNewPrivs (gVisor)");
          std::string seen = fmt::format("NoNewPrivs {}", *p.no_new_privs);
          return *p.no_new_privs == 1 ? confirmed(seen) : refuted(seen);
        });
  }

  void read_only_root() {
    const auto& ro = w.identity.read_only_root;
    if (!on(ro) || reported_rule(rule::writable_root_filesystem)) return;
    add("read-only-root", "read-only root filesystem", 2, "/ read-only", ro->from,
        [](const ProbeReport& p) {
          return p.root.read_only_flag ? confirmed("/ is mounted read-only")
                                       : refuted("/ is mounted read-write");
        });
  }

  void user() {
    const auto& uid = w.identity.run_as_user;
    if (!uid) return;
    auto gid = w.identity.run_as_group;
    std::string want = gid ? fmt::format("uid {} gid {}", uid->value, gid->value)
                           : fmt::format("uid {}", uid->value);
    add("user", "user " + want, 2, want, uid->from, [&, want](const ProbeReport& p) {
      std::string seen = fmt::format("uid {} gid {}", p.uid.value_or(-1), p.gid.value_or(-1));
      bool ok = p.uid == uid->value && (!gid || p.gid == gid->value);
      return ok ? confirmed(seen) : refuted(seen);
    });
  }

  void seccomp() {
    if (runsc()) return;
    const auto& sc = w.identity.seccomp;
    bool kube = plan.kind == LaunchKind::KubePlay;
    // Kubernetes leaves seccomp off unless the manifest asks; podman and docker apply theirs.
    if (kube ? !(sc && sc->value.kind == SeccompKind::RuntimeDefault)
             : (sc && sc->value.kind != SeccompKind::RuntimeDefault)) {
      return;
    }
    if (reported_rule(rule::seccomp_unconfined) || reported_rule(rule::privileged_container))
      return;
    add("seccomp.default",
        sc ? "seccomp: the runtime's default profile"
           : "seccomp: the engine's default profile (unset)",
        2, "seccomp mode 2 (filter)", sc ? sc->from : w.container_from, [](const ProbeReport& p) {
          std::string seen = fmt::format("seccomp mode {}", p.seccomp.value_or(-1));
          return p.seccomp == 2 ? confirmed(seen) : refuted(seen);
        });
  }

  void limits() {
    const Resources& res = w.resources;
    bool kube = plan.kind == LaunchKind::KubePlay;
    auto cgroup_open = [&](const ProbeReport& p) -> std::optional<RuntimeVerdict> {
      if (runsc()) return unverifiable("gVisor shows no cgroup filesystem inside");
      if (p.cgroup_version == 0) return unverifiable("no cgroup filesystem inside");
      return std::nullopt;
    };
    if (res.memory_limit && !reported_rule(rule::no_memory_limit)) {
      auto want = parse_bytes(res.memory_limit->value, kube);
      add("limits.memory", "memory limit " + res.memory_limit->value, 6,
          want ? fmt::format("a cgroup memory limit of {} bytes", *want) : "a memory limit",
          res.memory_limit->from, [&, want](const ProbeReport& p) {
            if (auto o = cgroup_open(p)) return *o;
            auto got = cgroup_limit(p.memory);
            if (!got) return refuted("no memory limit in the cgroup");
            std::string seen = fmt::format("cgroup memory limit {} bytes", *got);
            // The kernel rounds a limit down to whole pages.
            bool ok = !want || std::llabs(*got - *want) < 65536;
            return ok ? confirmed(seen) : refuted(seen);
          });
    }
    if (res.cpu_limit && !reported_rule(rule::no_cpu_limit)) {
      auto want = parse_cpus(res.cpu_limit->value);
      add("limits.cpu", "CPU limit " + res.cpu_limit->value, 6, "a CPU quota", res.cpu_limit->from,
          [&, want](const ProbeReport& p) {
            if (auto o = cgroup_open(p)) return *o;
            auto got = cgroup_cpus(p.cpu);
            if (!got) return refuted("no CPU quota in the cgroup");
            std::string seen = fmt::format("CPU quota {:.2f} CPUs", *got);
            bool ok = !want || std::fabs(*got - *want) < 0.02;
            return ok ? confirmed(seen) : refuted(seen);
          });
    }
    if (kube || reported_rule(rule::no_pids_limit)) return;
    std::optional<std::int64_t> want;
    Provenance from = w.container_from;
    std::string name;
    if (res.pids_limit) {
      want = res.pids_limit->value;
      from = res.pids_limit->from;
      name = fmt::format("pids limit {}", *want);
    } else if (auto d = engine::default_pids_limit(w.engine, model.cluster_facts);
               d && w.engine == Engine::Podman) {
      want = *d;
      name = fmt::format("pids limit {} (podman's default)", *want);
    }
    if (!want) return;
    add("limits.pids", name, 6, fmt::format("pids.max {}", *want), from,
        [&, want](const ProbeReport& p) {
          if (auto o = cgroup_open(p)) return *o;
          auto got = cgroup_limit(p.pids);
          if (!got) return refuted("no pids limit in the cgroup");
          std::string seen = fmt::format("pids.max {}", *got);
          return *got == *want ? confirmed(seen) : refuted(seen);
        });
  }

  void network() {
    const auto& mode = w.network.mode;
    if (mode && mode->value == NetMode::None) {
      add("network.none", "network none", 5, "no interface but loopback, no canary reachable",
          mode->from, [](const ProbeReport& p) {
            bool reached = false;
            for (const auto& c : p.canaries) reached = reached || c.reachable;
            if (has_network_interface(p) || reached) {
              return refuted(reached ? "a canary answered" : "a network interface besides lo");
            }
            return confirmed("only the loopback interface; no canary reachable");
          });
    }
    for (size_t i = 0; i < plan.publishes.size(); ++i) {
      const PublishPlan& pp = plan.publishes[i];
      if (!pp.passed || pp.host_ip.empty() ||
          !(pp.host_ip.rfind("127.", 0) == 0 || pp.host_ip == "::1" || pp.host_ip == "[::1]")) {
        continue;
      }
      Provenance from;
      for (const auto& port : w.network.ports) {
        if (port.spec == pp.spec) from = port.from;
      }
      add("publish.loopback:" + pp.spec, "`" + pp.spec + "` bound to loopback", 5,
          "a listener on loopback only", from, [&, i](const ProbeReport&) {
            if (i >= obs.bindings.size()) return unverifiable("the host's sockets were not read");
            const PortBinding& b = obs.bindings[i];
            if (b.addresses.empty()) return refuted("nothing listens on the host");
            std::string seen = fmt::format("listens on {}", fmt::join(b.addresses, ", "));
            for (const auto& a : b.addresses) {
              if (a.rfind("127.", 0) != 0 && a != "::1") return refuted(seen);
            }
            return confirmed(seen);
          });
    }
  }

  void boundary() {
    engine::EffectiveRuntime rt = engine::effective_runtime(w, model.cluster_facts);
    if (rt.kind != engine::RuntimeKind::GVisor) return;
    add("runtime.gvisor", "gVisor runtime (" + rt.name + ")", 1, "the gVisor kernel", rt.from,
        [](const ProbeReport& p) {
          return p.gvisor ? confirmed("the gVisor kernel")
                          : refuted("kernel " + p.kernel_release + ", not gVisor");
        });
  }

  void read_only_mounts() {
    for (const Mount& m : w.mounts) {
      if (m.target.empty() || !(m.read_only && m.read_only->value)) continue;
      if (m.kind != MountKind::HostPath && m.kind != MountKind::NamedVolume) continue;
      add("mount.read-only:" + m.target, "read-only mount at " + m.target, 3, "mounted read-only",
          m.source_from.at.valid() ? m.source_from : m.mount_from, [&m](const ProbeReport& p) {
            const MountView* v = find_mount(p, m.target);
            if (v == nullptr) return unverifiable("the mount is not launched");
            if (!v->mounted) return refuted("nothing is mounted at " + m.target);
            // By the mount's flags: access(2) does not report EROFS for a socket.
            std::string seen = v->read_only_flag ? "mounted read-only" : "mounted read-write";
            return v->read_only_flag ? confirmed(seen) : refuted(seen);
          });
    }
  }
};

}  // namespace

std::vector<Control> judge_controls(const Workload& w, const Model& model,
                                    const std::set<std::string>& reported, const LaunchPlan& plan,
                                    const Observation& obs) {
  Claims c{w, model, reported, plan, obs, obs.probe ? &*obs.probe : nullptr, {}};
  c.boundary();
  c.capabilities();
  c.no_new_privileges();
  c.read_only_root();
  c.user();
  c.seccomp();
  c.limits();
  c.network();
  c.read_only_mounts();
  return std::move(c.out);
}

}  // namespace sbr::prove
