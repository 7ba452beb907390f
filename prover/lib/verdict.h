// What the runtime says about one finding or control: confirmed, refuted or not verifiable,
// with what was observed, on which runtime, and why. SARIF `properties.runtime`.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace sbr::prove {

enum class Verdict : std::uint8_t { Confirmed, Refuted, Unverifiable };

struct RuntimeVerdict {
  Verdict verdict = Verdict::Unverifiable;
  std::string observed;  // what the probe or the host showed, in a few words
  std::string runtime;   // "podman/runc", "podman/runsc"; "" when nothing was launched
  std::string reason;    // why this verdict (for unverifiable: what stood in the way)
};

std::string_view verdict_name(Verdict v);

inline RuntimeVerdict confirmed(std::string observed, std::string reason = {}) {
  return {Verdict::Confirmed, std::move(observed), {}, std::move(reason)};
}
inline RuntimeVerdict refuted(std::string observed, std::string reason = {}) {
  return {Verdict::Refuted, std::move(observed), {}, std::move(reason)};
}
inline RuntimeVerdict unverifiable(std::string reason, std::string observed = {}) {
  return {Verdict::Unverifiable, std::move(observed), {}, std::move(reason)};
}

}  // namespace sbr::prove
