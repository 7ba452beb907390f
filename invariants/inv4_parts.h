// The invariant-4 module split by topic; check_secrets (inv4_secrets.cpp) calls each part.
#pragma once

#include "analyzer/check/finding.h"
#include "analyzer/model/model.h"

namespace sbr::inv {

// SB4006: what the RBAC grants of a service account whose token reaches the pod allow.
void check_service_account(const Model& model, Findings& out);

// The reason an RBAC rule hands the sandbox cluster power ("read every Secret"), or "".
std::string dangerous_grant(const RbacGrant& g);

}  // namespace sbr::inv
