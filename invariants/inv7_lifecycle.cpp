// Invariant 7: ephemeral, fail-closed lifecycle (see docs/invariants/7-lifecycle.md). Controllers,
// TTLs, shutdown times, restart policies and the image's pins are data rules; a persistent home
// volume (SB7004: one finding for the first of several) and the scripts are judged here.
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
      more.push_back({at.at, fmt::format("also persistent at {}", m.shown_target())});
    }
  }
  if (first == nullptr) return;
  const Provenance& at = first->mount_from.at.valid() ? first->mount_from : first->source_from;
  std::string src = first->source.empty() ? first->volume_name : first->shown_source();
  Finding f =
      make(w, rule::persistent_home_volume,
           fmt::format("{} mounts {} `{}` at {}: a home directory that outlives the run "
                       "carries logins, tokens and planted dotfiles into later runs",
                       describe(w), mount_kind_words(first->kind), src, first->shown_target()),
           at, "mounts.home:" + first->target);
  f.related = std::move(more);
  out.add(std::move(f));
}

}  // namespace

void check_lifecycle(const Model& model, Findings& out) {
  check_script_lifecycle(model, out);          // launcher scripts: invariants/inv7_script.cpp
  check_start_script_strict_mode(model, out);  // invariants/inv7_start_script.cpp
  for (const Workload& w : model.workloads) {
    if (w.role != ContainerRole::Ephemeral) check_home_volume(w, out);
  }
}

}  // namespace sbr::inv
