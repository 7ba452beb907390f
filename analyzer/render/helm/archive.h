// A packaged chart (`charts/NAME-VERSION.tgz`, `helm package`'s gzip-compressed tar) read in
// memory: nothing is written to disk, links and special entries are never followed, and the
// unpacked size is bounded.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sbr::render::helm {

struct ArchiveLimits {
  std::uint64_t max_bytes = 64ull << 20;  // unpacked, all members together
  std::size_t max_members = 10'000;
};

// The regular files of the archive, by path with the first component (the chart's directory)
// removed, as Helm's archive loader names them. Links, devices and directories are skipped.
// False with `error` on a corrupt archive, a member path that leaves the chart (`..`, `/x`),
// or a limit hit.
bool unpack_tgz(std::string_view bytes, const ArchiveLimits& limits,
                std::vector<std::pair<std::string, std::string>>& files, std::string& error);

}  // namespace sbr::render::helm
