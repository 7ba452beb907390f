// Invariant 4: a harness's login directory on a volume that outlives the run (SB4053). A login
// or token the agent obtains inside is then handed to every later run; the other persistent
// home volumes are invariant 7 (SB7004), read-only ones keep nothing the agent writes.
#include "analyzer/engine/paths.h"
#include "generated/rule_ids.h"
#include "invariants/common.h"
#include "invariants/modules.h"
#include "invariants/workload_facts.h"

namespace sbr::inv {

void check_login_volumes(const Model& model, Findings& out) {
  FactFindings facts(out);
  for (const Workload& w : model.workloads) {
    for (const Mount& m : w.mounts) {
      if (m.target.empty() || !outlives_run(m, w) || !writes_host(m)) continue;
      std::string login = engine::login_dir_of(m.target);
      if (login.empty()) continue;
      const Provenance& at = m.mount_from.at.valid() ? m.mount_from : m.source_from;
      facts.add(w, rule::login_volume_persists,
                MessageArgs{{"kind", std::string(mount_kind_name(m.kind))},
                            {"source", m.source.empty() ? m.volume_name : m.source},
                            {"target", m.target},
                            {"login", login}},
                at, "mounts.login:" + m.target);
    }
  }
}

}  // namespace sbr::inv
