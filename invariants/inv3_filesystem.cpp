// Invariant 3: filesystem confinement. See docs/invariants/3-filesystem.md.
// Runtime sockets and device paths are invariant-1 facts (SB1005, SB1007): the most specific
// rule wins, so they are skipped here.
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

struct MountJudge {
  const Model& model;
  const Workload& w;
  FactFindings& out;
  const Mount* first_workspace_mount = nullptr;

  void add(RuleId rule, const Mount& m, const engine::HostPathClass& c, std::string what) {
    out.add(w, rule, std::move(what), mount_anchor(w, m), fact_of(c, m), mount_related(m));
  }
  // Worded by the rule's summary: `source` and `target` are the mount's, `admission` note().
  void add(RuleId rule, const Mount& m, const engine::HostPathClass& c, MessageArgs args) {
    args.push_back({"source", m.source});
    args.push_back({"target", m.target});
    args.push_back({"admission", note()});
    out.add(w, rule, std::move(args), mount_anchor(w, m), fact_of(c, m), mount_related(m));
  }

  std::string note() const {
    return is_kubernetes(w) ? admission_note(w, PsaLevel::Baseline) : std::string();
  }

  void judge_path(const Mount& m) {
    auto c = engine::classify_host_path(m.source);
    bool rw = writes_host(m);
    std::string mode = rw ? "writable" : "read-only";
    switch (c.kind) {
      case HostPathKind::Device:
      case HostPathKind::RuntimeSocket:
        return;  // invariant 1
      case HostPathKind::CredentialStore:
        add(rule::credential_store_mount, m, c, MessageArgs{{"store", c.why}, {"mode", mode}});
        return;
      case HostPathKind::Home:
        add(rw ? rule::home_directory_writable : rule::home_directory_read_only, m, c,
            MessageArgs{});
        return;
      case HostPathKind::AutoRun:
        if (rw) {
          add(rule::host_run_path_writable, m, c,
              MessageArgs{{"what", (c.what.empty() ? "" : c.what + " ") + "`" + c.why + "`"}});
          return;
        }
        break;  // read-only: judged as any other host path below
      case HostPathKind::InstructionDir:
        if (rw) {
          add(rule::instruction_directory_writable, m, c, MessageArgs{{"directory", c.why}});
          return;
        }
        break;  // read-only: judged as any other host path below
      case HostPathKind::SystemPath:
        if (!rw) {
          add(rule::host_system_path_read_only, m, c, MessageArgs{{"why", c.why}});
          return;
        }
        add(rule::host_system_path_writable, m, c,
            fmt::format("mounts host system path {} ({}) writable at {}: host configuration, "
                        "binaries or runtime state can be rewritten{}",
                        m.source, c.why, m.target, note()));
        return;
      case HostPathKind::PublicSystemFile:
        if (rw) {
          add(rule::host_system_path_writable, m, c,
              fmt::format("mounts host system path {} ({}) writable at {}: the host's trust or "
                          "time configuration can be rewritten{}",
                          m.source, c.why, m.target, note()));
          return;
        }
        break;
      case HostPathKind::None:
        break;
    }
    judge_plain(m, c, rw);
  }

  // A host path with nothing sensitive known about it.
  void judge_plain(const Mount& m, const engine::HostPathClass& c, bool rw) {
    if (is_kubernetes(w)) {
      add(rw ? rule::host_path_volume : rule::host_path_volume_read_only, m, c, MessageArgs{});
      return;
    }
    if (!rw) return;
    if (!engine::in_workspace(m.source, model.workspace_paths)) {
      add(rule::writable_mount_outside_workspace, m, c,
          fmt::format("mounts host path {} writable at {}, outside the workspace ({}): whatever "
                      "the agent writes there persists on the host",
                      m.source, m.target, workspace_text(model)));
      return;
    }
    if (first_workspace_mount == nullptr) {
      first_workspace_mount = &m;
      return;
    }
    add(rule::writable_mount_outside_workspace, m, c,
        fmt::format("mounts a second writable host path {} at {} (the first is {}): each "
                    "writable host path is one more place the agent's writes reach the host",
                    m.source, m.target, first_workspace_mount->source));
  }

  void judge_options(const Mount& m) {
    auto c = engine::classify_host_path(m.source);
    if (m.propagation && m.propagation->value == Propagation::Bidirectional) {
      out.add(w, rule::bidirectional_mount_propagation,
              MessageArgs{
                  {"source", m.source.empty() ? m.volume_name : m.source},
                  {"target", m.target},
                  {"setting", is_kubernetes(w) ? "mountPropagation: Bidirectional" : "rshared"}},
              m.propagation->from.at.valid() ? m.propagation->from : mount_anchor(w, m),
              fact_of(c, m) + "#propagation", mount_related(m));
    }
    if (m.kind != MountKind::HostPath || is_kubernetes(w)) return;
    bool inside = engine::in_workspace(m.source, model.workspace_paths);
    if (m.chown && !inside) {
      add(rule::host_mount_chown, m, c, MessageArgs{});
    }
    if ((m.relabel_shared || m.relabel_private) && !inside) {
      add(rule::host_mount_relabel, m, c,
          MessageArgs{
              {"option", m.relabel_private ? ":Z" : ":z"},
              {"effect", m.relabel_private ? "locking host services out of it"
                                           : "sharing it with every container on the host"}});
    }
  }
};

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
      related.push_back({mount_anchor(w, parent).at,
                         fmt::format("writable mount of {} at {}", parent.source, parent.target)});
      out.add(w, rule::read_only_mount_inside_writable_mount,
              MessageArgs{{"source", child.source},
                          {"target", child.target},
                          {"parent_source", parent.source},
                          {"parent_target", parent.target},
                          {"child", rel}},
              mount_anchor(w, child), "mount:" + cs + "->" + child.target + "#inside", related);
      break;
    }
  }
}

}  // namespace

void check_filesystem(const Model& model, Findings& out) {
  check_host_commands(model, out);
  FactFindings facts(out);
  for (const Workload& w : model.workloads) {
    MountJudge judge{model, w, facts};
    for (const Mount& m : w.mounts) {
      if (m.target.empty()) continue;  // a volume this container does not mount
      if (m.kind == MountKind::HostPath && !m.source.empty()) judge.judge_path(m);
      judge.judge_options(m);
    }
    judge_nested_read_only(w, facts);
  }
}

}  // namespace sbr::inv
