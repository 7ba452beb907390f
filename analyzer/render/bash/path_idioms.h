// Repository paths as a launcher computes them: `$(dirname "$0")`, `${BASH_SOURCE[0]}`,
// `$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)`, `realpath`, `readlink -f`. The analysed
// root stands for wherever the repository is checked out, so each value is a path relative to
// it ("." for the root itself). Private to analyzer/render/bash.
#pragma once

#include <optional>
#include <string>

namespace sbr::bash {

// `a/./b/../c` -> `a/c`; "." for the root; nullopt when `..` leaves the root (or the path is
// absolute: nothing outside the analysed tree is read).
std::optional<std::string> normalise_repo_path(const std::string& p);

// The directory part, as dirname(1) prints it for a relative path ("." when there is none).
std::string dir_name(const std::string& p);

// An absolute path a script uses inside its container (`/workspace/.sandbox/lib/common.sh`,
// the repository mounted at /workspace) as the repository path it names: the longest tail of
// at least two components that `exists` says is a file of the repository, or nullopt.
template <typename Exists>
std::optional<std::string> in_container_path(const std::string& abs, Exists exists) {
  if (abs.empty() || abs[0] != '/') return std::nullopt;
  for (std::size_t cut = abs.find('/', 1); cut != std::string::npos; cut = abs.find('/', cut + 1)) {
    const std::string tail = abs.substr(cut + 1);
    if (tail.find('/') == std::string::npos) break;  // one component: too weak to name a file
    auto n = normalise_repo_path(tail);
    if (n && exists(*n)) return n;
  }
  return std::nullopt;
}

}  // namespace sbr::bash
