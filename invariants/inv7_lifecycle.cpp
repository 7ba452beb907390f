// Invariant 7: ephemeral, fail-closed lifecycle (see docs/invariants/7-lifecycle.md). This module
// judges the objects' lifecycle; the script rules of invariant 7 live with the launcher checks.
#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <tuple>

#include "analyzer/engine/paths.h"
#include "analyzer/support/strings.h"
#include "generated/rule_ids.h"
#include "invariants/common.h"
#include "invariants/modules.h"
#include "invariants/workload_facts.h"

namespace sbr::inv {
namespace {

std::string object_name(const Workload& w) {
  return fmt::format("{} {}", w.id.kind, w.id.ns.empty() ? w.id.name : w.id.ns + "/" + w.id.name);
}

// Object-level findings are reported once per object, whatever its container count (once per
// threat class when its containers are classified differently: their severities differ). Main
// containers come first, so the finding names the container that runs the workload.
class OncePerObject {
 public:
  bool first(const Workload& w, RuleId rule) {
    const Location& at = w.object_from.at;
    return seen_
        .emplace(std::string(rule), at.file, at.line, at.column, w.id.kind, w.id.name,
                 static_cast<int>(w.threat))
        .second;
  }

 private:
  std::set<
      std::tuple<std::string, FileId, std::uint32_t, std::uint32_t, std::string, std::string, int>>
      seen_;
};

bool long_lived(Controller c) {
  switch (c) {
    case Controller::Deployment:
    case Controller::StatefulSet:
    case Controller::ReplicaSet:
    case Controller::DaemonSet:
    case Controller::ReplicationController:
      return true;
    default:
      return false;
  }
}

void check_long_lived(const Workload& w, Findings& out) {
  if (!long_lived(w.lifecycle.controller)) return;
  out.add(make(w, rule::long_lived_controller,
               fmt::format("{} keeps its pods running and restarts them: one sandbox serves "
                           "every session, so what one task leaves behind (files, processes, "
                           "credentials) is there for the next; run each task as a Job or "
                           "Sandbox that is destroyed after it",
                           object_name(w)),
               object_anchor(w), "kind"));
}

void check_job_ttl(const Workload& w, Findings& out) {
  Controller c = w.lifecycle.controller;
  if ((c != Controller::Job && c != Controller::CronJob) || w.lifecycle.ttl_after_finished) return;
  out.add(make(w, rule::job_without_ttl,
               fmt::format("{} has no ttlSecondsAfterFinished: its finished pods, their logs and "
                           "their volumes stay in the cluster until someone deletes them",
                           object_name(w)),
               object_anchor(w), "spec.ttlSecondsAfterFinished"));
}

void check_sandbox_expiry(const Workload& w, Findings& out) {
  // A SandboxTemplate's lifetime comes from the claim that uses it, which is not modelled:
  // only a directly created Sandbox is judged.
  if (w.lifecycle.controller != Controller::Sandbox || w.lifecycle.shutdown_time) return;
  out.add(make(w, rule::sandbox_never_expires,
               fmt::format("{} has no spec.lifecycle.shutdownTime: the agent-sandbox controller "
                           "keeps it (and whatever the agent left in it) until it is deleted by "
                           "hand",
                           object_name(w)),
               object_anchor(w), "spec.lifecycle.shutdownTime"));
}

bool under(std::string_view path, std::string_view dir) {
  return path == dir || (std::string_view(path).starts_with(dir) && path.size() > dir.size() &&
                         (dir.back() == '/' || path[dir.size()] == '/'));
}

// Where harnesses keep logins and caches: a home directory, or a dot-directory that tools put
// under $HOME (mounted on its own it carries the same tokens).
bool home_like(std::string_view target, const Workload& w) {
  if (target.empty()) return false;
  if (target[0] == '~') return true;
  if (under(target, "/root") || under(target, "/home")) return true;
  for (std::string_view dot : {"/.cache", "/.config", "/.local", "/.npm", "/.cargo"}) {
    for (size_t at = target.find(dot); at != std::string_view::npos;
         at = target.find(dot, at + 1)) {
      size_t end = at + dot.size();
      if (end == target.size() || target[end] == '/') return true;
    }
  }
  for (const EnvVar& e : w.env) {
    if (e.name == "HOME" && e.source == EnvSource::Literal && !e.value.empty() && e.value != "/" &&
        under(target, e.value)) {
      return true;
    }
  }
  return false;
}

void check_home_volume(const Workload& w, Findings& out) {
  const Mount* first = nullptr;
  std::vector<Related> more;
  for (const Mount& m : w.mounts) {
    // Read-only keeps nothing the agent writes; a login directory is invariant 4 (SB4053).
    if (!outlives_run(m, w) || !home_like(m.target, w) || !writes_host(m) ||
        !engine::login_dir_of(m.target).empty())
      continue;
    const Provenance& at = m.mount_from.at.valid() ? m.mount_from : m.source_from;
    if (first == nullptr) {
      first = &m;
    } else {
      more.push_back({at.at, fmt::format("also persistent at {}", m.target)});
    }
  }
  if (first == nullptr) return;
  const Provenance& at = first->mount_from.at.valid() ? first->mount_from : first->source_from;
  std::string src = first->source.empty() ? first->volume_name : first->source;
  Finding f = make(w, rule::persistent_home_volume,
                   fmt::format("{} mounts {} `{}` at {}: a home directory that outlives the run "
                               "carries logins, tokens and planted dotfiles into later runs",
                               describe(w), mount_kind_name(first->kind), src, first->target),
                   at, "mounts.home:" + first->target);
  f.related = std::move(more);
  out.add(std::move(f));
}

}  // namespace

void check_lifecycle(const Model& model, Findings& out) {
  check_launch_lifecycle(model, out);  // launcher options (the launch checks)
  check_script_lifecycle(model, out);  // launcher scripts: invariants/inv7_script.cpp
  OncePerObject once;
  std::vector<const Workload*> order;
  for (const Workload& w : model.workloads) {
    if (w.role != ContainerRole::Ephemeral) order.push_back(&w);
  }
  std::stable_partition(order.begin(), order.end(),
                        [](const Workload* w) { return w->role == ContainerRole::Main; });
  for (const Workload* p : order) {
    const Workload& w = *p;
    if (once.first(w, rule::long_lived_controller)) check_long_lived(w, out);
    if (once.first(w, rule::job_without_ttl)) check_job_ttl(w, out);
    if (once.first(w, rule::sandbox_never_expires)) check_sandbox_expiry(w, out);
    check_home_volume(w, out);
  }
}

}  // namespace sbr::inv
