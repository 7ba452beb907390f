// devcontainer facts that no other module judges: features whose effect is not modelled
// (invariant 0: the review is incomplete) and commands the tool runs on the host from the
// repository (invariant 3: the agent's writable workspace holds the file that says what runs).
#include <fmt/format.h>

#include "generated/rule_ids.h"
#include "invariants/common.h"
#include "invariants/modules.h"

namespace sbr::inv {

void check_devcontainer_features(const Model& model, Findings& out) {
  for (const Workload& w : model.workloads) {
    for (const Workload::Feature& f : w.features) {
      if (f.modelled) continue;
      out.add(make(w, rule::devcontainer_feature_not_modelled,
                   fmt::format("{}: feature `{}` runs its install script and may add privileges, "
                               "capabilities or mounts; its effect is not modelled, so this "
                               "review does not cover them",
                               describe(w), f.ref),
                   f.from, "features/" + f.ref));
    }
  }
}

void check_host_commands(const Model& model, Findings& out) {
  for (const Workload& w : model.workloads) {
    for (const auto& c : w.host_commands) {
      std::string key = c.value.substr(0, c.value.find(':'));
      out.add(make(w, rule::initialize_command_on_host,
                   fmt::format("{}: `{}` runs on the host, outside any container, every time the "
                               "devcontainer starts; the repository that defines it is the "
                               "agent's writable workspace",
                               describe(w), key),
                   c.from, "host_commands/" + key));
    }
  }
}

}  // namespace sbr::inv
