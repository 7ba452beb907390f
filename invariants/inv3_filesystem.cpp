// Invariant 3: filesystem confinement. See docs/invariants/3-filesystem.md.
// The mounts of a sensitive path class (system paths, credential stores, homes, instruction and
// auto-run directories), hostPath volumes, propagation, :U and :z are data rules; what needs the
// workload's other mounts stays here: a second writable bind (SB3007), a read-only child of
// a writable parent (SB3013) and an environment file inside a writable mount (SB3015).
#include <fmt/format.h>

#include "analyzer/engine/paths.h"
#include "generated/rule_ids.h"
#include "invariants/common.h"
#include "invariants/modules.h"
#include "invariants/workload_facts.h"

namespace sbr::inv {
namespace {

using engine::HostPathKind;

std::string fact_of(const engine::HostPathClass& c, const Mount& m) {
  return "mount:" + c.normalized + "->" + m.target;
}

std::string workspace_text(const Model& model) {
  if (model.workspace_paths.empty()) return "the launcher's directory ($PWD)";
  return fmt::format("{}", fmt::join(model.workspace_paths, ", "));
}

// A writable bind mount with nothing sensitive known about its path (a sensitive path is judged
// by its own data rule): outside the workspace, or a second one inside it.
void judge_writable_binds(const Model& model, const Workload& w, FactFindings& out) {
  if (is_kubernetes(w)) return;  // hostPath volumes: SB3008, a data rule
  const Mount* first_workspace_mount = nullptr;
  for (const Mount& m : w.mounts) {
    if (m.target.empty() || m.kind != MountKind::HostPath || m.source.empty() || !writes_host(m))
      continue;
    auto c = engine::classify_host_path(m.source, m.source_unknown_root);
    if (c.kind != HostPathKind::None) continue;
    std::string what;
    if (!engine::in_workspace(m.source, model.workspace_paths)) {
      what = fmt::format(
          "mounts host path {} writable at {}, outside the workspace ({}): whatever the agent "
          "writes there persists on the host",
          m.shown_source(), m.shown_target(), workspace_text(model));
    } else if (first_workspace_mount == nullptr) {
      first_workspace_mount = &m;
      continue;
    } else if (m.target == first_workspace_mount->target &&
               engine::classify_host_path(first_workspace_mount->source,
                                          first_workspace_mount->source_unknown_root)
                       .normalized == c.normalized) {
      // The same mount again (as another path of the launcher writes it): one writable host
      // mount, not a second.
      continue;
    } else {
      what = fmt::format(
          "mounts a second writable host path {} at {} (the first is {}): each writable host "
          "path is one more place the agent's writes reach the host",
          m.shown_source(), m.shown_target(), first_workspace_mount->shown_source());
    }
    out.add(w, rule::writable_mount_outside_workspace, std::move(what), mount_anchor(w, m),
            fact_of(c, m), mount_related(m));
  }
}

// Bind mounts that write the host tree their target lies in: the candidates for a parent that
// holds a read-only mount.
bool writable_bind(const Mount& m) {
  return m.kind == MountKind::HostPath && !m.source.empty() && !m.target.empty() && writes_host(m);
}

// `-v .:/workspace -v ./.git/hooks:/workspace/.git/hooks:ro`: the read-only child protects part
// of the writable parent's own host tree, and renaming the directory around it undoes that.
void judge_nested_read_only(const Workload& w, FactFindings& out) {
  for (const Mount& child : w.mounts) {
    if (child.kind != MountKind::HostPath || child.source.empty() || writes_host(child)) continue;
    for (const Mount& parent : w.mounts) {
      if (!writable_bind(parent) || child.target == parent.target ||
          !engine::path_within(child.target, parent.target))
        continue;
      std::string cs = engine::normalize_path(child.source);
      std::string ps = engine::normalize_path(parent.source);
      if (cs == ps || !engine::path_within(cs, ps)) continue;  // another host tree
      std::string rel = child.target.substr(parent.target.size());
      if (!rel.empty() && rel.front() == '/') rel.erase(0, 1);
      auto related = mount_related(child);
      related.push_back(
          {mount_anchor(w, parent).at, fmt::format("writable mount of {} at {}",
                                                   parent.shown_source(), parent.shown_target())});
      out.add(w, rule::read_only_mount_inside_writable_mount,
              MessageArgs{{"source", child.shown_source()},
                          {"target", child.shown_target()},
                          {"parent_source", parent.shown_source()},
                          {"parent_target", parent.shown_target()},
                          {"child", rel}},
              mount_anchor(w, child), "mount:" + cs + "->" + child.target + "#inside", related);
      break;
    }
  }
}

// `--env-file .env` beside `-v "$PWD":/work` (cco), a compose `env_file:` in the project the
// service mounts writable: the agent writes the file, the next launch loads it. A relative name
// is the launcher's (or compose project's) directory, as a bind source "." is.
void judge_env_files_in_workspace(const Workload& w, FactFindings& out) {
  for (const EnvBulk& b : w.env_bulk) {
    if (b.kind != EnvBulkKind::EnvFile || b.name.empty() || b.name.front() == '<') continue;
    const std::string file = engine::normalize_path(b.name);
    for (const Mount& m : w.mounts) {
      if (!writable_bind(m) || !engine::path_within(file, engine::normalize_path(m.source)))
        continue;
      out.add(
          w, rule::launch_config_from_workspace,
          MessageArgs{{"file", b.name}, {"source", m.shown_source()}, {"target", m.shown_target()}},
          b.from, "env-file:" + file, mount_related(m));
      break;
    }
  }
}

}  // namespace

void check_filesystem(const Model& model, Findings& out) {
  FactFindings facts(out, model);
  for (const Workload& w : model.workloads) {
    judge_writable_binds(model, w, facts);
    judge_nested_read_only(w, facts);
    judge_env_files_in_workspace(w, facts);
  }
}

}  // namespace sbr::inv
