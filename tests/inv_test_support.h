// Hand-built workloads for the invariant unit tests: each test states the model it judges, so
// a check is tested without a frontend.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "analyzer/check/catalog.h"
#include "analyzer/check/data_run.h"
#include "analyzer/check/finding.h"
#include "analyzer/model/model.h"
#include "invariants/modules.h"

namespace sbr::test {

inline Provenance at_line(std::uint32_t line, Frontend fe = Frontend::Kubernetes) {
  return Provenance{Location{0, line, 1}, fe, {}};
}

// A Deployment container with a hardened, least-privilege baseline: each test breaks one thing.
inline Workload hardened_pod(std::string container = "agent") {
  Workload w;
  w.id = {"Deployment", "apps", "agents", "runner", container, "deploy.yaml"};
  w.engine = Engine::Kubelet;
  w.object_from = at_line(2);
  w.pod_spec_from = at_line(10);
  w.container_from = at_line(20);
  w.image = "ghcr.io/example/agent:1.0";
  w.runtime_class = fact<std::string>("gvisor", at_line(11));
  Identity& id = w.identity;
  id.run_as_user = fact<std::int64_t>(1000, at_line(12));
  id.run_as_non_root = fact(true, at_line(13));
  id.allow_privilege_escalation = fact(false, at_line(21));
  id.read_only_root = fact(true, at_line(22));
  id.cap_drop.push_back(fact(Capability::All, at_line(23)));
  id.seccomp = fact(Seccomp{SeccompKind::RuntimeDefault, ""}, at_line(14));
  return w;
}

// A podman launch with the same hardening.
inline Workload hardened_launch() {
  Workload w;
  w.id = {"launcher", "", "", "run.sh", "launch 1", "run.sh"};
  w.engine = Engine::Podman;
  w.lifecycle.controller = Controller::Launcher;
  w.object_from = at_line(5, Frontend::Bash);
  w.image = "localhost/agent:1";
  w.runtime_class = fact<std::string>("runsc", at_line(6, Frontend::Bash));
  Identity& id = w.identity;
  id.run_as_user = fact<std::int64_t>(1000, at_line(7, Frontend::Bash));
  id.allow_privilege_escalation = fact(false, at_line(8, Frontend::Bash));
  id.read_only_root = fact(true, at_line(9, Frontend::Bash));
  id.cap_drop.push_back(fact(Capability::All, at_line(10, Frontend::Bash)));
  return w;
}

inline Mount host_mount(std::string source, std::string target, bool read_only,
                        std::uint32_t line = 40) {
  Mount m;
  m.kind = MountKind::HostPath;
  m.source = std::move(source);
  m.target = std::move(target);
  m.read_only = fact(read_only, at_line(line + 1));
  m.source_from = at_line(line);
  m.mount_from = at_line(line + 2);
  return m;
}

inline Model model_of(std::vector<Workload> ws) {
  Model m;
  m.files.add("deploy.yaml");
  m.workloads = std::move(ws);
  return m;
}

template <class Check>
std::vector<Finding> run(const Model& m, Check check) {
  Findings out;
  check(m, out);
  return out.items();
}

// The embedded catalog's data rules whose id `pick` accepts, run over `m`.
template <class Pick>
void data_rules(const Model& m, Findings& out, Pick pick) {
  std::vector<match::RuleRef> refs;
  for (const Rule& r : Catalog::embedded().rules()) {
    if (r.data && pick(r)) refs.push_back({r.rule_id(), r.data.get()});
  }
  match::run_data_rules(m, refs, out);
}

// An invariant as the runner judges it: its C++ module and the catalog's data rules of the
// invariant (the checks that moved from invariants/ into rules/).
#define SBR_INVARIANT(fn, module, n)                                      \
  inline void fn(const Model& m, Findings& out) {                         \
    inv::module(m, out);                                                  \
    data_rules(m, out, [](const Rule& r) { return r.invariant == (n); }); \
  }
SBR_INVARIANT(integrity, check_integrity, 0)
SBR_INVARIANT(isolation, check_isolation, 1)
SBR_INVARIANT(privilege, check_privilege, 2)
SBR_INVARIANT(filesystem, check_filesystem, 3)
SBR_INVARIANT(secrets, check_secrets, 4)
SBR_INVARIANT(network, check_network, 5)
SBR_INVARIANT(resources, check_resources, 6)
SBR_INVARIANT(lifecycle, check_lifecycle, 7)
#undef SBR_INVARIANT

// Only the data rules named, as one check.
inline auto rules_named(std::vector<std::string> ids) {
  return [ids](const Model& m, Findings& out) {
    data_rules(m, out,
               [&](const Rule& r) { return std::find(ids.begin(), ids.end(), r.id) != ids.end(); });
  };
}

inline std::vector<Finding> with_rule(const std::vector<Finding>& fs, const std::string& rule) {
  std::vector<Finding> r;
  std::copy_if(fs.begin(), fs.end(), std::back_inserter(r),
               [&](const Finding& f) { return f.rule_id == rule; });
  return r;
}

inline std::vector<std::string> rules_of(const std::vector<Finding>& fs) {
  std::vector<std::string> r;
  for (const auto& f : fs) r.push_back(f.rule_id);
  std::sort(r.begin(), r.end());
  return r;
}

}  // namespace sbr::test
