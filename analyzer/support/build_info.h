// The version of sbreview and the git commit it was built from, for `--version` and the
// reports' tool metadata (SARIF `tool.driver.version`/`semanticVersion`, JSON `tool.version`).
#pragma once

#include <string>
#include <string_view>

namespace sbr {

// The release version, "0.1.0" (CMake's project version).
std::string_view build_version();

// The abbreviated commit, with ".dirty" when tracked files differed from it at build time, or
// "unknown" when the build had no git (cmake/build_info.cmake).
std::string_view build_commit();

// The version with the commit as Semantic Versioning build metadata: "0.1.0+415c38f1a2b3",
// or the plain version when the commit is unknown.
std::string semantic_version();

}  // namespace sbr
