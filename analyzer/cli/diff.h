// `sbreview diff BASE..HEAD` / `sbreview diff BASE`: what a change introduces (diff.cpp).
#pragma once

#include <iosfwd>

#include "analyzer/cli/options.h"

namespace sbr {

class Catalog;

int run_diff(const Options& o, std::ostream& out, std::ostream& err, const Catalog& catalog);

}  // namespace sbr
