// Parsers for the small value languages inside options: publish specs, volume/mount/tmpfs
// specs, --security-opt and --network values. Pure string -> model pieces; provenance is set
// by the caller.
#pragma once

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/model/workload.h"
#include "analyzer/support/strings.h"

namespace sbr::launch {

// -p/--publish and compose short ports: "8080", "8080:80", "127.0.0.1:8080:80",
// "127.0.0.1::80", "[::1]:8080:80", "8000-8010:8000-8010/udp". nullopt when not a port spec.
std::optional<PublishedPort> parse_publish(std::string_view spec);

bool is_loopback_address(std::string_view ip);

// -v/--volume: "src:dst[:opts]" or "dst" (anonymous volume).
Mount parse_volume(std::string_view spec);
// --mount "type=bind,src=..,dst=..,ro,bind-propagation=rshared" (also devcontainer mounts).
Mount parse_mount(std::string_view spec);
// Where the value of the last of `keys` starts in a --mount `spec` (parse_mount takes the
// last one too): `source=`'s for the source; npos when there is none.
std::size_t mount_value_at(std::string_view spec, std::initializer_list<std::string_view> keys);
// --tmpfs "/tmp:rw,size=64m".
Mount parse_tmpfs(std::string_view spec);

// Whether a mount source is a host path rather than a named volume.
bool looks_like_host_path(std::string_view source);

}  // namespace sbr::launch
