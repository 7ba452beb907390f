// The command line: `sbreview check [PATH...]` and its options. Kept apart from main() so the
// tests drive it in-process with their own streams.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace sbr {

// Exit codes: 0 clean, 1 a finding at or above --fail-on, 2 usage/config/internal error.
int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace sbr
