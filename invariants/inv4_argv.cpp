// Invariant 4: values written on a launcher's command line (`-e NAME=value`) are visible to
// every user of the host in the process list. Names only: a value is never printed.
#include <fmt/format.h>

#include "analyzer/support/secrets.h"
#include "generated/rule_ids.h"
#include "invariants/common.h"
#include "invariants/modules.h"

namespace sbr::inv {

void check_env_on_argv(const Model& model, Findings& out) {
  for (const Workload& w : model.workloads) {
    for (const EnvVar& e : w.env) {
      // An empty literal (`-e NAME=`) exposes nothing.
      if (!e.on_argv || (e.source == EnvSource::Literal && e.value.empty())) continue;
      bool secret = secrets::is_secret_name(e.name);
      out.add(make(w, secret ? rule::secret_named_value_on_argv : rule::env_value_on_argv,
                   fmt::format("{}: the value of `{}` is on the engine's command line, where "
                               "every local user can read it in the process list; pass a bare "
                               "`-e {}` or an `--env-file` written with umask 077",
                               describe(w), e.name, e.name),
                   e.from, "env/" + e.name));
    }
  }
}

}  // namespace sbr::inv
