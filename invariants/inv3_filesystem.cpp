// Invariant 3: filesystem confinement. See docs/invariants/3-filesystem.md.
// Runtime sockets and device paths are invariant-1 facts (SB1005, SB1007): the most specific
// rule wins, so they are skipped here.
#include <fmt/format.h>

#include "analyzer/engine/paths.h"
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

  void add(std::string_view rule, const Mount& m, const engine::HostPathClass& c,
           std::string what) {
    out.add(w, rule, std::move(what), mount_anchor(w, m), fact_of(c, m), mount_related(m));
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
        add("SB3003", m, c,
            fmt::format("mounts credential store {} (host path {}, {}) at {}: the keys and "
                        "tokens in it are readable by the untrusted code{}",
                        c.why, m.source, mode, m.target, note()));
        return;
      case HostPathKind::Home:
        add(rw ? "SB3004" : "SB3005", m, c,
            fmt::format("mounts home directory {} {} at {}: {}{}", m.source, mode, m.target,
                        rw ? "it holds credentials and the shell and tool configuration a human "
                             "runs later, all of it now writable"
                           : "every credential and configuration file in it is disclosed",
                        note()));
        return;
      case HostPathKind::InstructionDir:
        if (rw) {
          add("SB3006", m, c,
              fmt::format("mounts instruction directory {} (host path {}) writable at {}: the "
                          "agent can plant instructions, hooks or commands that a human or a "
                          "later run executes on the host{}",
                          c.why, m.source, m.target, note()));
          return;
        }
        break;  // read-only: judged as any other host path below
      case HostPathKind::SystemPath:
        add(rw ? "SB3001" : "SB3002", m, c,
            fmt::format("mounts host system path {} ({}) {} at {}: {}{}", m.source, c.why, mode,
                        m.target,
                        rw ? "host configuration, binaries or runtime state can be rewritten"
                           : "host configuration and secrets are disclosed",
                        note()));
        return;
      case HostPathKind::PublicSystemFile:
        if (rw) {
          add("SB3001", m, c,
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
      add(rw ? "SB3008" : "SB3009", m, c,
          fmt::format("mounts hostPath {} {} at {}: {}{}", m.source, rw ? "writable" : "read-only",
                      m.target,
                      rw ? "the untrusted code writes to the node's filesystem, which outlives "
                           "the pod and is shared with the node's other pods"
                         : "the node's files there are readable and the pod is pinned to the "
                           "node's state",
                      note()));
      return;
    }
    if (!rw) return;
    if (!engine::in_workspace(m.source, model.workspace_paths)) {
      add("SB3007", m, c,
          fmt::format("mounts host path {} writable at {}, outside the workspace ({}): whatever "
                      "the agent writes there persists on the host",
                      m.source, m.target, workspace_text(model)));
      return;
    }
    if (first_workspace_mount == nullptr) {
      first_workspace_mount = &m;
      return;
    }
    add("SB3007", m, c,
        fmt::format("mounts a second writable host path {} at {} (the first is {}): each "
                    "writable host path is one more place the agent's writes reach the host",
                    m.source, m.target, first_workspace_mount->source));
  }

  void judge_options(const Mount& m) {
    auto c = engine::classify_host_path(m.source);
    if (m.propagation && m.propagation->value == Propagation::Bidirectional) {
      out.add(w, "SB3010",
              fmt::format("mounts {} at {} with bidirectional propagation ({}): mounts made "
                          "inside the container appear on the host",
                          m.source.empty() ? m.volume_name : m.source, m.target,
                          is_kubernetes(w) ? "mountPropagation: Bidirectional" : "rshared"),
              m.propagation->from.at.valid() ? m.propagation->from : mount_anchor(w, m),
              fact_of(c, m) + "#propagation", mount_related(m));
    }
    if (m.kind != MountKind::HostPath || is_kubernetes(w)) return;
    bool inside = engine::in_workspace(m.source, model.workspace_paths);
    if (m.chown && !inside) {
      add("SB3011", m, c,
          fmt::format("chowns host path {} to the container's user (:U), outside the workspace: "
                      "the host directory's ownership changes for every host process",
                      m.source));
    }
    if ((m.relabel_shared || m.relabel_private) && !inside) {
      add("SB3012", m, c,
          fmt::format("relabels host path {} ({}), outside the workspace: its SELinux labels "
                      "change on the host, {}",
                      m.source, m.relabel_private ? ":Z" : ":z",
                      m.relabel_private ? "locking host services out of it"
                                        : "sharing it with every container on the host"));
    }
  }
};

}  // namespace

void check_filesystem(const Model& model, Findings& out) {
  FactFindings facts(out);
  for (const Workload& w : model.workloads) {
    MountJudge judge{model, w, facts};
    for (const Mount& m : w.mounts) {
      if (m.target.empty()) continue;  // a volume this container does not mount
      if (m.kind == MountKind::HostPath && !m.source.empty()) judge.judge_path(m);
      judge.judge_options(m);
    }
  }
}

}  // namespace sbr::inv
