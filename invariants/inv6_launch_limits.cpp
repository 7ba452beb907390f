// Invariant 6 for launched containers: unlimited swap and a process count no one bounds.
#include <fmt/format.h>

#include "analyzer/engine/defaults.h"
#include "generated/rule_ids.h"
#include "invariants/common.h"
#include "invariants/modules.h"

namespace sbr::inv {
namespace {

std::string engine_note(const Workload& w) {
  if (w.engine_unresolved) return " (the engine could not be resolved: judged as docker)";
  switch (w.engine) {
    case Engine::Docker:
      return " (docker sets no default pids limit)";
    case Engine::Compose:
      return " (compose on docker sets no default pids limit)";
    case Engine::Devcontainer:
      return " (the devcontainer's docker engine sets no default pids limit)";
    default:
      return "";
  }
}

}  // namespace

void check_launch_limits(const Model& model, Findings& out) {
  for (const Workload& w : model.workloads) {
    if (is_kubernetes(w)) continue;
    if (const auto& swap = w.resources.memory_swap; swap && swap->value == "-1") {
      out.add(make(w, rule::unlimited_swap, MessageArgs{}, swap->from, "resources/memory-swap"));
    }
    const auto& pids = w.resources.pids_limit;
    if (pids && pids->value <= 0) {
      out.add(make(w, rule::no_pids_limit,
                   fmt::format("{}: pids limit {} means no limit on the number of processes",
                               describe(w), pids->value),
                   pids->from, "resources/pids-limit"));
      continue;
    }
    if (!pids && !engine::default_pids_limit(w.engine, model.cluster_facts)) {
      out.add(make(
          w, rule::no_pids_limit,
          fmt::format("{}: no pids limit{}; a fork bomb exhausts the host's process "
                      "table; set {}",
                      describe(w), engine_note(w),
                      w.engine == Engine::Compose ? "`pids_limit: 512`" : "`--pids-limit 512`"),
          container_anchor(w), "resources/pids-limit"));
    }
  }
}

}  // namespace sbr::inv
