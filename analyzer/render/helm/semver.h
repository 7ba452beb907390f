// Masterminds/semver constraints as semverCompare uses them (">=1.21-0", "^1.2", "~1.2.3",
// "1.x", "a, b" for and, "a || b" for or), enough for the Kubernetes version checks of charts.
#pragma once

#include <string>

namespace sbr::render::helm {

// Does `version` satisfy `constraint`? `error` is set when either does not parse.
bool semver_satisfies(const std::string& constraint, const std::string& version,
                      std::string& error);

}  // namespace sbr::render::helm
