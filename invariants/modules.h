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
void check_resources(const Model& model, Findings& out);   // 6
void check_lifecycle(const Model& model, Findings& out);   // 7

// Script facts (model.scripts), each called from its invariant's module above.
void check_script_privilege(const Model& model, Findings& out);  // 2: inv2_script.cpp
void check_script_secrets(const Model& model, Findings& out);    // 4: inv4_script.cpp
void check_script_lifecycle(const Model& model, Findings& out);  // 7: inv7_script.cpp

}  // namespace sbr::inv
