// Invariant 3 (and the runtime sockets of invariant 1) from the probe's view of each mount
// target: present, read-only by its flags, writable for the probe's user, propagation, and
// whether a socket can be reached through it. Stand-in directories are world-writable, so
// "writable" measures the mount, not the stand-in's ownership.
#include <fmt/format.h>

#include "generated/rule_ids.h"
#include "prover/lib/judge.h"

namespace sbr::prove::detail {
namespace {

std::string describe(const MountView& m) {
  if (!m.mounted) return fmt::format("nothing is mounted at {}", m.target);
  return fmt::format("{} is mounted {}", m.target, m.read_only_flag ? "read-only" : "read-write");
}

bool is_one_of(RuleId id, std::initializer_list<RuleId> ids) {
  for (RuleId r : ids) {
    if (id == r) return true;
  }
  return false;
}

RuntimeVerdict socket_reach(const Case& c, const Mount& m) {
  for (const std::string& p : c.plan.paths) {
    if (p != m.target && p.rfind(m.target + "/", 0) != 0) continue;
    const PathView* v = find_path(c.r, p);
    if (v == nullptr || !v->exists) return refuted(fmt::format("no socket at {}", p));
    std::string seen =
        fmt::format("{} is a {}{}", p, v->type, v->connects ? " and accepts a connection" : "");
    return v->connects ? confirmed(seen + " through the mount (a stand-in socket)") : refuted(seen);
  }
  return unverifiable("the mount holds no stand-in socket");
}

}  // namespace

std::optional<RuntimeVerdict> judge_mounts(const Case& c) {
  const RuleId id = c.f.rule_id;
  const bool writable_rule =
      is_one_of(id, {rule::host_system_path_writable, rule::home_directory_writable,
                     rule::instruction_directory_writable, rule::writable_mount_outside_workspace,
                     rule::host_run_path_writable, rule::host_path_volume});
  const bool presence_rule =
      is_one_of(id, {rule::host_system_path_read_only, rule::home_directory_read_only,
                     rule::credential_store_mount, rule::host_path_volume_read_only});
  const bool other_rule =
      is_one_of(id, {rule::runtime_socket_mount, rule::bidirectional_mount_propagation,
                     rule::host_mount_chown, rule::host_mount_relabel,
                     rule::read_only_mount_inside_writable_mount, rule::login_volume_persists});
  if (!writable_rule && !presence_rule && !other_rule) return std::nullopt;
  if (id == rule::host_mount_chown) return unverifiable(":U is not passed: it changes host files");
  if (id == rule::host_mount_relabel) {
    return unverifiable(":z/:Z is not passed: it relabels host files");
  }
  if (id == rule::read_only_mount_inside_writable_mount) {
    return unverifiable(
        "stand-ins are separate directories: the host tree's nesting is not "
        "reproduced");
  }
  if (id == rule::login_volume_persists) {
    return unverifiable("whether a volume outlives the run is not a property of one launch");
  }
  const Mount* m = mount_of(c.f, c.w);
  if (m == nullptr) return unverifiable("the finding names no mount the prover can find");
  if (id == rule::runtime_socket_mount) return socket_reach(c, *m);
  const MountView* v = find_mount(c.r, m->target);
  if (v == nullptr) return unverifiable(fmt::format("the mount at {} is not launched", m->target));
  if (id == rule::bidirectional_mount_propagation) {
    std::string seen = fmt::format("{} propagation is {}", m->target, v->propagation);
    return v->propagation.find("shared") != std::string::npos ? confirmed(seen) : refuted(seen);
  }
  if (!v->mounted) return refuted(describe(*v));
  if (writable_rule) {
    // By the flags: the stand-in is world-writable, so only the mount decides.
    return !v->read_only_flag ? confirmed(describe(*v)) : refuted(describe(*v));
  }
  // Presence rules: the path is inside, read-only or not. A mount the model reads as
  // read-only that is writable is the control check's mismatch (controls.h), not a refutation.
  return confirmed(describe(*v));
}

}  // namespace sbr::prove::detail
