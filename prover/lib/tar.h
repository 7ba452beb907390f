// A minimal ustar archive writer: the probe's root filesystem for `podman import`, built in
// memory from a few entries (no tar binary, same bytes on every run).
#pragma once

#include <string>
#include <vector>

namespace sbr::prove {

struct TarEntry {
  std::string path;  // relative, no leading '/'; directories end without '/'
  bool directory = false;
  unsigned mode = 0644;
  std::string bytes;
};

std::string ustar(const std::vector<TarEntry>& entries);

}  // namespace sbr::prove
