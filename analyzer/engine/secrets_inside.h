// What secret material a workload holds as it would run: secret environment variables, whole
// Secrets in the environment, Secret volumes, a service-account token. Invariant 5 raises open
// egress to critical when this list is not empty; invariant 4 reports the ambient ones.
#pragma once

#include <string>
#include <vector>

#include "analyzer/model/workload.h"

namespace sbr::engine {

// Whether a service-account token reaches the container by automount (the engine's rule,
// engine::mounts_service_account_token, including the agent-sandbox template default).
bool automounts_service_account_token(const Workload& w);

// The first mounted projected serviceAccountToken volume, or nullptr.
const Mount* projected_token_mount(const Workload& w);

// A token reaches the pod by automount or by a projected volume.
bool service_account_token_reaches(const Workload& w);

struct SecretInside {
  std::string what;  // "environment variable OPENAI_API_KEY from Secret llm", never a value
  Provenance from;
};

// Every secret held inside, in model order. `intended` names env variables declared in
// secrets.intended: held on purpose, but held all the same.
std::vector<SecretInside> secrets_inside(const Workload& w,
                                         const std::vector<std::string>& intended);

}  // namespace sbr::engine
