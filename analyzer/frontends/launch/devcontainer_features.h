// devcontainer `features` as the devcontainer CLI applies them: a feature's own
// devcontainer-feature.json can make the container privileged or mount host paths, so its
// reference alone changes the boundary.
#pragma once

#include "analyzer/model/workload.h"
#include "analyzer/support/yaml_tree.h"

namespace sbr::launch {

// Records every feature of the `features` object and applies the effects of the known ones,
// located at the feature's key.
void apply_devcontainer_features(const yaml::Node* features, FileId file, Workload& w);

}  // namespace sbr::launch
