// `sbreview rules`, `sbreview explain ID` and `sbreview test-rules DIR...`: the catalog as the
// user sees it, and rules that test themselves on their fixtures.
#pragma once

#include <iosfwd>

#include "analyzer/check/catalog.h"
#include "analyzer/cli/options.h"

namespace sbr {

int run_rules(const Options& o, std::ostream& out, std::ostream& err, const Catalog& catalog);
int run_explain(const Options& o, std::ostream& out, std::ostream& err, const Catalog& catalog);
int run_test_rules(const Options& o, std::ostream& out, std::ostream& err, const Catalog& catalog);

// The embedded page of a built-in rule (docs/rules/<ID>-<slug>.md); "" when there is none.
std::string_view embedded_page(const Rule& rule);

}  // namespace sbr
