// A finding's identity across commits: what GitHub code scanning (partialFingerprints) and
// `diff` match findings by. Built from structure only: never message text, never lines.
#pragma once

#include <string>
#include <string_view>

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

}  // namespace sbr
