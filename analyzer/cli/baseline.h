// Baseline files: `sbreview baseline --output FILE` records the fingerprints of today's
// findings; `check --baseline FILE` then reports only what is not in it, so a gate can be
// turned on in a repository with old findings and fail only on new ones.
#pragma once

#include <iosfwd>
#include <set>
#include <string>
#include <vector>

#include "analyzer/check/finding.h"
#include "analyzer/model/model.h"
#include "analyzer/support/result.h"

namespace sbr {

// JSON: {"version": 1, "fingerprints": [...], "findings": [{rule, path, subject, fingerprint}]}.
// The fingerprints decide; the findings list is for the people who review the file.
void write_baseline(const std::vector<Finding>& findings, const Model& model, std::ostream& out);

// The fingerprints of a baseline file; an error (exit 2) when it cannot be read or is not one.
Result<std::set<std::string>> read_baseline(const std::string& path);

// Drops the findings the baseline knows; returns how many were dropped.
size_t drop_baselined(std::vector<Finding>& findings, const std::set<std::string>& keys);

}  // namespace sbr
