// Doc-claim predicates about mounts and what outlives the run: "X is mounted read-only", "only
// the project directory is mounted", "nothing persists", "removed after the run", and the
// launcher's fail-closed claim.
#include <fmt/format.h>

#include <algorithm>

#include "analyzer/engine/paths.h"
#include "invariants/common.h"
#include "invariants/doc_claims_parts.h"
#include "invariants/script_judgments.h"
#include "invariants/workload_facts.h"

namespace sbr::inv::claims {
namespace {

bool related_paths(const std::string& a, const std::string& b) {
  return engine::path_within(a, b) || engine::path_within(b, a);
}

// A mount whose exposure is critical by itself (INVARIANTS.md 1 and 3): a runtime socket or a
// credential store in any mode, a home or system path writable.
bool critical_mount(const Mount& m) {
  engine::HostPathClass k = engine::classify_host_path(m.source, m.source_unknown_root);
  switch (k.kind) {
    case engine::HostPathKind::RuntimeSocket:
    case engine::HostPathKind::CredentialStore:
      return true;
    case engine::HostPathKind::Home:
    case engine::HostPathKind::SystemPath:
      return writes_host(m);
    default:
      return false;
  }
}

// Does the mount concern the path a document names: its host source, or (an absolute path in
// the container) its target.
bool concerns(const Mount& m, const std::string& claimed) {
  std::string path = engine::normalize_path(claimed);
  if (m.kind == MountKind::HostPath && related_paths(engine::normalize_path(m.source), path))
    return true;
  return !m.target.empty() && path.rfind('/', 0) == 0 &&
         related_paths(engine::normalize_path(m.target), path);
}

bool mount_reached(const Mount& m, const ClaimContext& c) {
  return reached_on_path(m.mount_from, c);
}

}  // namespace

std::string where(const Mount& m) {
  return m.target.empty() ? m.source : fmt::format("{} at {}", m.source, m.target);
}

const Mount* host_mount_of(const ClaimContext& c, const Workload& w, engine::HostPathKind kind) {
  for (const Mount& m : w.mounts) {
    if (m.kind == MountKind::HostPath && mount_reached(m, c) &&
        engine::classify_host_path(m.source, m.source_unknown_root).kind == kind)
      return &m;
  }
  return nullptr;
}

Judgement mount_read_only(const ClaimContext& c, const Workload& w, const Claim& claim) {
  bool seen = false;
  for (const std::string& path : claim.arguments) {
    for (const Mount& m : w.mounts) {
      if (!concerns(m, path) || !mount_reached(m, c)) continue;
      seen = true;
      if (writes_host(m)) {
        return contradicted(fmt::format("mounts {} writable", where(m)), mount_anchor(w, m),
                            "the mount, without read-only", critical_mount(m));
      }
    }
  }
  if (seen) return holds();
  return not_applicable(fmt::format("no mount of {}", fmt::join(claim.arguments, ", ")));
}

Judgement only_mounts(const ClaimContext& c, const Workload& w, const Claim& claim) {
  for (const Mount& m : w.mounts) {
    if (m.kind != MountKind::HostPath || !mount_reached(m, c)) continue;
    if (claim.writable_only && !writes_host(m)) continue;
    if (engine::in_workspace(m.source, c.model.workspace_paths)) continue;
    bool named = std::any_of(claim.arguments.begin(), claim.arguments.end(), [&](auto& a) {
      return engine::path_within(engine::normalize_path(m.source), engine::normalize_path(a));
    });
    if (named) continue;
    return contradicted(
        fmt::format("also mounts {}{}", where(m), writes_host(m) ? " writable" : ""),
        mount_anchor(w, m), "a host mount besides the workspace", critical_mount(m));
  }
  return holds();
}

Judgement not_mounted(const ClaimContext& c, const Workload& w, const Claim& claim) {
  for (const std::string& path : claim.arguments) {
    for (const Mount& m : w.mounts) {
      if (!concerns(m, path) || !mount_reached(m, c)) continue;
      return contradicted(
          fmt::format("mounts {}{}", where(m), writes_host(m) ? " writable" : " read-only"),
          mount_anchor(w, m), "the mount of a path the document says is out of reach",
          critical_mount(m));
    }
  }
  return holds();
}

Judgement no_runtime_socket(const ClaimContext& c, const Workload& w, const Claim&) {
  const Mount* m = host_mount_of(c, w, engine::HostPathKind::RuntimeSocket);
  if (m == nullptr) return holds();
  // A socket answers through a read-only mount too (INVARIANTS.md 1): always critical.
  return contradicted(fmt::format("mounts the runtime socket {}", where(*m)), mount_anchor(w, *m),
                      "the runtime socket, mounted in", true);
}

Judgement no_persistence(const ClaimContext& c, const Workload& w, const Claim&) {
  for (const Mount& m : w.mounts) {
    if (!mount_reached(m, c) || !outlives_run(m, w) || !writes_host(m)) continue;
    if (m.kind == MountKind::HostPath && engine::in_workspace(m.source, c.model.workspace_paths))
      continue;
    return contradicted(
        fmt::format("keeps {} {} writable across runs", mount_kind_words(m.kind), where(m)),
        mount_anchor(w, m), "this mount outlives the run", critical_mount(m));
  }
  return holds();
}

Judgement ephemeral(const ClaimContext& c, const Workload& w, const Claim&) {
  const Lifecycle& l = w.lifecycle;
  switch (l.controller) {
    case Controller::Launcher:
      if (l.remove_on_exit && l.remove_on_exit->value && present_on_path(l.remove_on_exit->from, c))
        return holds();
      return contradicted("keeps its container after the run (no --rm)", lacks_at(w),
                          "the launch, without --rm");
    case Controller::Deployment:
    case Controller::StatefulSet:
    case Controller::DaemonSet:
    case Controller::ReplicaSet:
    case Controller::ReplicationController:
      return contradicted(fmt::format("is a {}: its pods live on across sessions", w.id.kind),
                          object_anchor(w), "the long-lived controller");
    case Controller::Job:
    case Controller::CronJob:
      if (l.ttl_after_finished) return holds();
      return contradicted("is a Job without ttlSecondsAfterFinished", object_anchor(w),
                          "the Job, without a TTL");
    case Controller::Sandbox:
    case Controller::SandboxTemplate:
      if (l.shutdown_time) return holds();
      return contradicted("is a Sandbox without a shutdownTime", object_anchor(w),
                          "the Sandbox, without a shutdown time");
    default:
      return not_checkable(
          fmt::format("{} workloads are removed by whoever stops them", w.id.kind));
  }
}

Judgement fail_closed(const ClaimContext& c, const Workload& w, const Claim&) {
  if (w.lifecycle.controller != Controller::Launcher) return not_applicable("not a launcher");
  for (const ScriptFacts& s : c.model.scripts) {
    if (c.model.files.path(s.file) != w.id.name) continue;
    for (const ScriptJudgment& j : judge_lifecycle(s.observed)) {
      if (j.kind != ScriptFindingKind::FailOpenStep && j.kind != ScriptFindingKind::ErrexitMissing)
        continue;
      return contradicted(j.message, j.from, "the launcher goes on here");
    }
    return holds();
  }
  return not_checkable("the launcher's script facts are not in the model");
}

}  // namespace sbr::inv::claims
