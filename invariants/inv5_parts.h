// The invariant-5 module split by topic; check_network (inv5_network.cpp) calls each part.
#pragma once

#include <string>

#include "analyzer/check/finding.h"
#include "analyzer/model/model.h"

namespace sbr::inv {

// SB5001-SB5007: default-deny egress, open and sensitive destinations, DNS.
void check_egress(const Model& model, Findings& out);
// SB5008-SB5011: host ports, Services, Ingresses, ingress default deny.
void check_ingress(const Model& model, Findings& out);
// SB5012: one note per run that policy enforcement depends on the CNI.
void check_policy_enforcement(const Model& model, Findings& out);

// "NetworkPolicy deny-egress", "agent-sandbox managed policy of template x": for messages.
std::string describe_gate(const EgressGate& g);

}  // namespace sbr::inv
