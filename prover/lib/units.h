// Sizes and CPU counts as the engines read them: podman's --memory 512m (binary units, b k m
// g), Kubernetes quantities (512Mi, 1G, 500m CPUs). What the cgroup shows is compared with
// these.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace sbr::prove {

// Bytes; nullopt when it is not a size. `kubernetes` reads "1G" as 10^9 (a quantity) where
// podman reads "1g" as 2^30.
std::optional<std::int64_t> parse_bytes(std::string_view s, bool kubernetes);
// CPUs: "1.5" (podman --cpus), "500m" or "2" (a Kubernetes quantity).
std::optional<double> parse_cpus(std::string_view s);

}  // namespace sbr::prove
