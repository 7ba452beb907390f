// One entry point per invariant module; invariants/registry.cpp lists them for the runner.
#pragma once

#include "analyzer/check/finding.h"
#include "analyzer/model/model.h"

namespace sbr::inv {

void check_integrity(const Model& model, Findings& out);   // 0
void check_isolation(const Model& model, Findings& out);   // 1
void check_privilege(const Model& model, Findings& out);   // 2
void check_filesystem(const Model& model, Findings& out);  // 3
void check_secrets(const Model& model, Findings& out);     // 4
void check_network(const Model& model, Findings& out);     // 5
void check_gates(const Model& model, Findings& out);       // 5: egress gates (inv5_gates.cpp)
void check_resources(const Model& model, Findings& out);   // 6
void check_lifecycle(const Model& model, Findings& out);   // 7

// Script facts (model.scripts), each called from its invariant's module above.
void check_script_privilege(const Model& model, Findings& out);  // 2: inv2_script.cpp
void check_script_secrets(const Model& model, Findings& out);    // 4: inv4_script.cpp
void check_script_lifecycle(const Model& model, Findings& out);  // 7: inv7_script.cpp
// 7: SB7050/SB7058 at an image start script's exec (inv7_start_script.cpp)
void check_start_script_strict_mode(const Model& model, Findings& out);

}  // namespace sbr::inv

// Launcher, compose and devcontainer checks (called from the module entries above).
namespace sbr::inv {
void check_seccomp_profiles(const Model& model, Findings& out);  // 2: SB2051, SB2052
void check_image_grants(const Model& model, Findings& out);      // 2: SB2060-SB2063
void check_servers(const Model& model, Findings& out);           // 5: SB5053
void check_gate_reruns(const Model& model, Findings& out);       // 5: SB5079
void check_unresolved_links(const Model& model, Findings& out);  // 0: SB0052, SB0053
// Doc claims, every invariant: SB0030-SB0032, SBn100/SBn101 (doc_claims_findings.cpp);
// called from check_integrity.
void check_doc_claims(const Model& model, Findings& out);
}  // namespace sbr::inv
