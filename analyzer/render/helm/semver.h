// Masterminds/semver constraints as semverCompare uses them (">=1.21-0", "^1.2", "~1.2.3",
// "1.x", "a, b" for and, "a || b" for or), enough for the Kubernetes version checks of charts.
#pragma once

#include <string>

namespace sbr::render::helm {

// Does `version` satisfy `constraint`? `error` is set when either does not parse.
bool semver_satisfies(const std::string& constraint, const std::string& version,
                      std::string& error);

// Masterminds' NewVersion then String(): "1.16" and "v1.16.0" are "1.16.0" (a prerelease and
// build metadata kept). False when `text` is not a version.
bool semver_normalize(const std::string& text, std::string& out);

// Masterminds' Version.Compare of two versions: -1, 0 or 1 in `order` (build metadata aside,
// prerelease parts numerically where they are numbers). False when either does not parse.
bool semver_order(const std::string& a, const std::string& b, int& order);

}  // namespace sbr::render::helm
