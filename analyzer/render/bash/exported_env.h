// The environment a compose command interpolates its files with (private to
// analyzer/render/bash): the script's exported variables as it knows them there.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "analyzer/render/bash/evaluator.h"

namespace sbr::bash {

// `docker compose`, `podman compose`, `docker-compose`, `podman-compose`.
bool runs_compose(const std::vector<Word>& argv);
// The script's exported variables with one value it knows on this path, by name: a known
// value, or one built on the host's `$HOME`, `$PWD` or `$XDG_*` (`export HOST_HOME=${HOME}`),
// which compose resolves as the host does.
std::vector<std::pair<std::string, std::string>> exported_values(const State& st);

}  // namespace sbr::bash
