// Invariant 7 over an image's start scripts (the ENTRYPOINT/CMD script a workload runs first,
// image_link.cpp): strict mode where the script hands the container to its command. A launcher
// is judged at its first container launch (script_judge_lifecycle.cpp); a start script launches
// nothing, and what its errors decide is whether the agent starts after a failed setup step.
#include <fmt/format.h>

#include <optional>
#include <set>

#include "generated/rule_ids.h"
#include "invariants/modules.h"
#include "invariants/script_findings.h"

namespace sbr::inv {
namespace {

const Invocation* invocation_at(const ScriptFacts& s, const Location& at) {
  for (const Invocation& inv : s.invocations) {
    if (inv.from.at == at) return &inv;
  }
  return nullptr;
}

// The first `exec` of the script, in the order it is written: where the agent takes over.
const ExecHandover* first_exec(const ScriptObservations& o) {
  const ExecHandover* first = nullptr;
  for (const ExecHandover& e : o.execs) {
    if (first == nullptr || e.from.at.line < first->from.at.line) first = &e;
  }
  return first;
}

// `-o pipefail` is not POSIX: a script run by sh is only asked for `-u`.
std::optional<ScriptJudgment> strict_mode(const ScriptFacts& s, const std::string& container_path) {
  const ExecHandover* e = first_exec(s.observed);
  const Invocation* inv = e == nullptr ? nullptr : invocation_at(s, e->from.at);
  if (inv == nullptr) return std::nullopt;
  // The shell options hold on every path to the exec: the finding is not conditional.
  Provenance at{e->from.at, e->from.frontend, {}};
  const ShellState& sh = inv->shell;
  bool pipefail = sh.pipefail || s.observed.posix_sh;
  if (!sh.errexit) {
    return ScriptJudgment{ScriptFindingKind::ErrexitMissing,
                          fmt::format("start script {} hands the container to its command "
                                      "without `set -e`: the command starts even when a setup "
                                      "step before it failed",
                                      container_path),
                          "start-script.exec",
                          false,
                          at,
                          {}};
  }
  if (sh.nounset && pipefail) return std::nullopt;
  std::string missing = missing_strict_options(sh.nounset, pipefail);
  return ScriptJudgment{ScriptFindingKind::PartialStrictMode,
                        fmt::format("start script {} hands the container to its command under "
                                    "`set -e` without {}: {}",
                                    container_path, missing,
                                    !sh.nounset ? "an unset variable (a user id, a path) "
                                                  "expands to an empty word instead of "
                                                  "stopping the start"
                                                : "a failed stage inside a pipeline does not "
                                                  "stop the start"),
                        "start-script.exec",
                        false,
                        at,
                        {}};
}

}  // namespace

void check_start_script_strict_mode(const Model& model, Findings& out) {
  std::set<FileId> judged;
  for (const Workload& w : model.workloads) {
    for (const auto& start : w.start_scripts) {
      for (const ScriptFacts& s : model.scripts) {
        if (model.files.path(s.file) != start.repo_path || !s.observed.launches.empty() ||
            !judged.insert(s.file).second)
          continue;
        auto j = strict_mode(s, start.container_path);
        if (!j) continue;
        out.add(script_finding(model, s, *j,
                               j->kind == ScriptFindingKind::ErrexitMissing
                                   ? rule::launcher_without_errexit
                                   : rule::partial_strict_mode));
      }
    }
  }
}

}  // namespace sbr::inv
