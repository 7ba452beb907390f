// The boundary-vs-floor table: for each workload, the isolation it actually gets (runtime, user
// namespace, seccomp, capabilities, privilege escalation, user) beside the floor its threat
// class requires (INVARIANTS.md, the threat-class table) and whether it meets it. Computed once
// here; the text and JSON reports only format these rows.
#pragma once

#include <string>
#include <vector>

#include "analyzer/model/model.h"

namespace sbr::engine {

struct BoundaryRow {
  std::string name;     // as a reader knows it: "Deployment sandbox-system/controller-manager, ..."
  std::string subject;  // the findings' subject: "Deployment/ns/name/container"
  Engine engine = Engine::Kubelet;
  ThreatClass threat = ThreatClass::UntrustedCode;
  std::string threat_reason;
  std::string runtime;            // "runc", "gVisor (runtimeClassName gvisor)"
  std::string user_namespace;     // "no", "yes (hostUsers: false)", "rootless podman"
  std::string seccomp;            // "RuntimeDefault", "Unconfined (kubelet default)"
  std::string capabilities;       // "drop ALL", "engine default, add NET_ADMIN"
  std::string no_new_privileges;  // "yes" / "no"
  std::string user;               // "uid 1000", "uid 0 (root)", "unknown (the image decides)"
  std::string floor;              // what the class requires, in words
  bool meets = false;
  std::string shortfall;  // what misses the floor ("" when it meets it)
};

// The floor of a threat class in words (INVARIANTS.md table).
std::string floor_of(ThreatClass t);

// The workloads the table has a row for, ordered by file, line and container: the same input
// gives the same table. The reports build each row as they write it: the rows of a
// 10,000-workload stream held at once cost about 10 MB at the end of the run.
std::vector<const Workload*> boundary_order(const Model& model);
BoundaryRow boundary_row(const Model& model, const Workload& w);
// Whether the workload's boundary meets the floor of its class (its row's `meets`).
bool meets_floor(const Model& model, const Workload& w);

// Every row at once, in boundary_order.
std::vector<BoundaryRow> boundary_rows(const Model& model);

}  // namespace sbr::engine
