// CIDR ranges for both address families, and the containment questions egress checks ask:
// does an allowed range reach cloud metadata or private space once its `except` blocks are
// taken out. Pure value code: no resolver, no I/O.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sbr::engine {

struct Cidr {
  bool v6 = false;
  std::array<std::uint8_t, 16> addr{};  // IPv4 uses the first 4 bytes; host bits are zero
  int prefix = 0;                       // 0..32 or 0..128

  int bits() const { return v6 ? 128 : 32; }
  bool single_host() const { return prefix == bits(); }
  std::string str() const;
  friend bool operator==(const Cidr&, const Cidr&) = default;
};

// "10.0.0.0/8", "fd00::/8", "169.254.169.254" (a host), "::ffff:10.0.0.1/128". Host bits set in
// the address are cleared, as the API server would normalise them. nullopt when malformed.
std::optional<Cidr> parse_cidr(std::string_view text);

// Same family and `inner` lies entirely inside `outer`.
bool cidr_contains(const Cidr& outer, const Cidr& inner);
// Same family and the two share at least one address (CIDRs are nested or disjoint).
bool cidr_overlaps(const Cidr& a, const Cidr& b);
// Every address of `range` lies in the union of `cover` (ranges of another family ignored).
bool cidr_covered_by(const Cidr& range, const std::vector<Cidr>& cover);

// A well-known range a sandbox must not reach unless it is named on purpose.
struct SensitiveRange {
  const char* cidr;
  const char* what;  // "cloud metadata (AWS/GCP/Azure)", "RFC1918 private range", ...
  bool metadata;     // a single metadata address: even a host route to it is reported
};
const std::vector<SensitiveRange>& sensitive_ranges();

// The sensitive ranges an allowed range reaches once `except` is taken out. A single-host
// allow (a /32 or /128) reaches only the metadata addresses it names, so a host route to the
// proxy or the cluster resolver is fine. Malformed excepts do not cover anything.
std::vector<SensitiveRange> sensitive_reached(const Cidr& allowed,
                                              const std::vector<std::string>& except);

}  // namespace sbr::engine
