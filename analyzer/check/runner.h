// Runs every check over the model and turns raw findings into reported ones: severity and
// invariant from the catalog, the threat-class and conditional adjustments, risk acceptances,
// fingerprints, and a deterministic order. This is the only place severities are adjusted.
#pragma once

#include <string>
#include <vector>

#include "analyzer/check/catalog.h"
#include "analyzer/check/finding.h"
#include "analyzer/check/fingerprint.h"
#include "analyzer/config/config.h"
#include "analyzer/model/model.h"

namespace sbr {

struct RunOptions {
  std::string today;  // YYYY-MM-DD, for acceptance expiry (injected so tests are stable)
};

// Throws CatalogError when a finding names a rule the catalog does not hold.
std::vector<Finding> run_checks(const Model& model, const Catalog& catalog, const Config& config,
                                const RunOptions& options);

// Applies the threat class to a rule's severity (INVARIANTS.md: untrusted-input one level
// lower, critical stays; trusted keeps only critical). nullopt: not reported.
std::optional<Severity> severity_for_threat(Severity s, ThreatClass t);
// The ephemerality rules of invariant 7 (and the wall clock of 6), which untrusted-input
// workloads are exempt from.
bool ephemerality_rule(RuleId id);

}  // namespace sbr
