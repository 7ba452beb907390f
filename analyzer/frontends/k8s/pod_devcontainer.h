// Which devcontainer.json a Kubernetes container builds and runs itself: envbuilder (the
// container is the devcontainer, built in place) or the devcontainer CLI (`devcontainer up`,
// `npx @devcontainers/cli up`: it starts the devcontainer through a Docker daemon the pod
// reaches). Read from the container's environment and command line; link_envbuilder.cpp links
// the file of the input it names and says so when it cannot.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analyzer/model/workload.h"

namespace sbr::k8s {

enum class PodDevcontainerTool : std::uint8_t { Envbuilder, Cli };

struct PodDevcontainer {
  PodDevcontainerTool tool = PodDevcontainerTool::Envbuilder;
  // The devcontainer.json paths tried, in the tool's order, relative to the checkout it builds
  // (the repository holding the manifest); empty when none is known.
  std::vector<std::string> paths;
  Provenance from;  // where the input chose the file (the setting, the CLI's word)
  // Why the file is not known when `paths` is empty, or why the checkout may be another
  // repository ("" otherwise): the reader's words, without secrets (a URL's user and password
  // are dropped).
  std::string unknown;
  std::string remote_url;  // a remote ENVBUILDER_GIT_URL as written (without credentials)
};

// `repository_urls`: the addresses this repository is cloned from (.sbreview.yaml
// `repository.urls`): an ENVBUILDER_GIT_URL naming one of them is a checkout of this repository.
std::optional<PodDevcontainer> envbuilder_devcontainer(
    const Workload& w, const std::vector<std::string>& repository_urls);
std::optional<PodDevcontainer> cli_devcontainer(const Workload& w);

// A git URL without its scheme, credentials, `.git` and trailing `/`, lower case:
// `https://user:tok@GitHub.com/acme/app.git` and `git@github.com:acme/app` are both
// `github.com/acme/app`.
std::string normalized_git_url(std::string url);
// The URL with any `user[:password]@` removed, for messages.
std::string url_without_credentials(const std::string& url);

}  // namespace sbr::k8s
