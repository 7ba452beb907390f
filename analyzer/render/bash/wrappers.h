// Commands that run another command (`sudo`, `env A=b`, `timeout 1h`, `nice -n 5`, `setpriv`,
// `systemd-run`...): which words are the wrapper's own, and what the wrapper does to the run.
// The table is data (wrappers.cpp); the evaluator only asks where the real command starts.
#pragma once

#include <cstddef>
#include <vector>

#include "analyzer/model/invocation.h"
#include "analyzer/render/bash/evaluator.h"

namespace sbr::bash {

struct Unwrapped {
  std::size_t start = 0;  // index of the wrapped command's first word; argv.size() if none
  bool via_exec = false;
  bool via_sudo = false;
  bool bypass_functions = false;     // the wrapper execs a program: a shell function is not called
  bool lookup_only = false;          // `command -v x`: looks a name up, runs nothing
  bool redirects_only = false;       // `exec >log 2>&1`
  std::vector<EWord> env_prefix;     // `env A=b` assignments
  std::vector<WrapperUse> wrappers;  // outermost first
};

// Peels every wrapper off the front of `argv`. A symbolic word is never taken for a wrapper.
Unwrapped unwrap(const std::vector<EWord>& argv);

}  // namespace sbr::bash
