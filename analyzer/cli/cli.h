// The command line: `sbreview check [PATH...]` and its options. Kept apart from main() so the
// tests drive it in-process with their own streams.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace sbr {

class Catalog;

// Exit codes: 0 clean, 1 a finding at or above --fail-on, 2 usage/config/internal error. An
// internal error is a rule catalog that does not load, or a finding of a rule it does not hold.
int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

// The same with the catalog from `load` instead of the embedded one (tests of the exit-2 path;
// `load` may throw CatalogError).
using CatalogLoader = const Catalog& (*)();
int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
            CatalogLoader load);

}  // namespace sbr
