// Maps parsed launcher options onto the Workload model. The single place where a podman/docker
// flag gets its meaning; compose and devcontainer reuse the value-level helpers.
#pragma once

#include <string>
#include <string_view>

#include "analyzer/frontends/launch/run_options.h"
#include "analyzer/model/workload.h"

namespace sbr::launch {

struct ApplyOutcome {
  Maybe<std::string> pod;   // --pod NAME
  Maybe<std::string> name;  // --name NAME
};

void apply_options(const ParsedRun& run, Workload& w, ApplyOutcome& outcome);

// Value-level helpers (also used by compose and devcontainer.json).
void apply_security_opt(std::string_view value, const Provenance& at, Workload& w);
void apply_network(std::string_view value, const Provenance& at, Workload& w);
void apply_add_host(std::string_view value, const Provenance& at, Workload& w);
void apply_user(std::string_view value, const Provenance& at, Workload& w);
void apply_capability(std::string_view value, const Provenance& at, bool add, Workload& w);
// `NAME=value` (value on the command line) or `NAME` (copied from the launcher's environment).
// `expanded`: the value was already interpolated (compose), so a `$` left in it is literal.
// `origin`: where a computed value comes from (Word::origin), to tell a secret source.
void apply_env_assignment(std::string_view text, bool symbolic, bool on_argv, const Provenance& at,
                          Workload& w, bool expanded = false, std::string_view origin = {});
void apply_publish(std::string_view spec, bool symbolic, const Provenance& at, Workload& w);
// Sets every sub-fact of a parsed mount to `at`, then appends it.
void add_mount(Mount m, const Provenance& at, Workload& w);

}  // namespace sbr::launch
