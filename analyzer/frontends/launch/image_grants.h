// What a Dockerfile's RUN lines and the sudoers files an image receives grant its user:
// passwordless sudo, membership of a privileged group, setuid bits. Observations only.
#pragma once

#include <string>
#include <vector>

#include "analyzer/model/workload.h"

namespace sbr::launch {

// Grants written by one RUN line's shell text (ARG/ENV defaults already expanded), all
// located at `at`.
std::vector<ImageGrant> shell_grants(const std::string& script, const Provenance& at);

// NOPASSWD rules in the text of a sudoers file (`via` names it), located at `at`.
std::vector<ImageGrant> sudoers_grants(const std::string& text, const std::string& via,
                                       const Provenance& at);

// Whether an in-container path is sudoers configuration (/etc/sudoers, /etc/sudoers.d/...).
bool is_sudoers_path(const std::string& container_path);

}  // namespace sbr::launch
