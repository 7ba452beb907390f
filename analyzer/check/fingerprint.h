// A finding's identity across commits: what GitHub code scanning (partialFingerprints) and
// `diff` match findings by. Built from structure only: never message text, never lines.
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/check/finding.h"

namespace sbr {

// The version tag hashed into every fingerprint and used as the SARIF partialFingerprints key.
// Bump it whenever what goes into the hash changes, so old and new values never mix.
inline constexpr std::string_view kFingerprintVersion = "sbreview/v3";

// The condition as a set: its terms sorted, so the order branches were joined in does not
// matter; the non-default-switch mark is part of it.
std::string condition_key(const Condition& c);

// hash(version, rule id, workload identity (f.identity, else f.subject), condition key, fact
// path), FNV-1a 64-bit as 16 hex digits.
std::string fingerprint(const Finding& f);

// Every fingerprint a reported finding stands for: its own, the workloads it was merged with
// and the reasons folded into it. A finding is known to a set of keys when all of them are in
// it (a merged finding that gains a workload is new for that workload).
std::vector<std::string> finding_keys(const Finding& f);
std::set<std::string> finding_keys(const std::vector<Finding>& findings);
bool known_by(const Finding& f, const std::set<std::string>& keys);

}  // namespace sbr
