// Invariant 0, for files one configuration takes from another: what a container runs that
// nothing fills from the repository while a gate file of that name is there (SB0052: the name
// alone links nothing, and the reader is told), a devcontainer a pod builds and runs itself
// that is not in the input (SB0053), and a compose build whose Dockerfile is not (SB0012).
#include <fmt/format.h>

#include <set>

#include "analyzer/support/strings.h"
#include "generated/rule_ids.h"
#include "invariants/common.h"
#include "invariants/modules.h"

namespace sbr::inv {
namespace {

// Gate files of the input (firewall scripts, rulesets, proxy configurations) by base name.
std::set<std::string> gate_file_names(const Model& model) {
  std::set<std::string> out;
  for (const ScriptFacts& s : model.scripts) {
    if (!s.gates.empty()) out.insert(base_name(model.files.path(s.file)));
  }
  return out;
}

std::string gate_file_named(const Model& model, const std::string& name) {
  for (const ScriptFacts& s : model.scripts) {
    const std::string& path = model.files.path(s.file);
    if (!s.gates.empty() && base_name(path) == name) return path;
  }
  return "";
}

}  // namespace

void check_unresolved_links(const Model& model, Findings& out) {
  const std::set<std::string> gates = gate_file_names(model);
  for (const Workload& w : model.workloads) {
    for (const auto& u : w.unresolved_runs) {
      const std::string name = base_name(u.path);
      if (name.empty() || gates.count(name) == 0) continue;
      out.add(make(w, rule::gate_path_unresolved,
                   fmt::format("{}: {} {} `{}` inside the container, but no COPY/ADD of its image "
                               "and no bind mount of the repository puts a file there, so {}, a "
                               "gate file of the same name, is not taken for it and is not judged "
                               "as this container's gate",
                               describe(w), u.runner, u.loaded ? "loads" : "runs", u.path,
                               gate_file_named(model, name)),
                   u.from, "runs/" + u.path));
    }
    if (w.unseen_build) {
      const auto& b = *w.unseen_build;
      Finding f = make(
          w, rule::source_unresolved,
          fmt::format(
              "{} is built from {}, which is not in the analysed tree{}: "
              "what its image holds (its user, the files it copies, its "
              "start script) was not seen",
              describe(w), b.dockerfile,
              b.from_environment ? " (`dockerfile:` takes its name from the environment)" : ""),
          b.from, "build/" + b.dockerfile);
      f.cause = b.from_environment ? Cause::Environment : Cause::Repository;
      out.add(std::move(f));
    }
    if (w.devcontainer_not_in_input) {
      out.add(make(w, rule::devcontainer_not_in_input,
                   fmt::format("{} {}", describe(w), w.devcontainer_not_in_input->value),
                   w.devcontainer_not_in_input->from, "runs-devcontainer"));
    }
  }
}

}  // namespace sbr::inv
