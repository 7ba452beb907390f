// Whose gap an invariant-0 finding is (docs/invariants/0-integrity.md, "Causes"): the
// repository's input is wrong, sbreview could not follow valid input, or a tool or dependency the
// analysis needs is missing. The gate fails closed on all three; the cause tells a reader what to
// fix and keeps sbreview from blaming a repository for its own gaps.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace sbr {

enum class Cause : std::uint8_t { Repository, Analyzer, Environment };

std::string_view cause_name(Cause c);
std::optional<Cause> parse_cause(std::string_view s);
// The word the text report puts beside the invariant ("sbreview's gap").
std::string_view cause_words(Cause c);

}  // namespace sbr
