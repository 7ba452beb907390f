// The invariant-4 module split by topic; check_secrets (inv4_secrets.cpp) calls each part.
#pragma once

#include "analyzer/check/finding.h"
#include "analyzer/model/model.h"

namespace sbr::inv {

// SB4001-SB4003: the environment, command lines and ConfigMap/Secret data.
void check_secret_environment(const Model& model, Findings& out);
// SB4004-SB4006: service-account tokens and what their RBAC grants allow.
void check_service_account(const Model& model, Findings& out);

// The reason an RBAC rule hands the sandbox cluster power ("read every Secret"), or "".
std::string dangerous_grant(const RbacGrant& g);

}  // namespace sbr::inv
