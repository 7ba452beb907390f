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

}  // namespace sbr::bash
