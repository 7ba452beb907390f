// The run's budgets after every file is read (docs/robustness.md, "Guards"): past
// `limits.wall_clock_seconds` or `limits.memory_megabytes`, the late steps that only narrow what
// is reported are not taken, and each says so at the files it would have narrowed. Both ways
// out fail closed: a workload whose class is not inferred is judged as running untrusted code,
// and a document whose claims are not linked has an SB0007 finding, which fails the gate.
#pragma once

#include <string>

#include "analyzer/model/model.h"

namespace sbr {

// Instead of threat inference: every workload keeps the default class, untrusted code, and each
// file that holds workloads gets one problem naming how many.
void threats_not_inferred(Model& model, const std::string& why);

// Instead of linking documents to workloads: every document with claims loses them (nothing to
// judge them against) and gets one problem naming how many.
void documents_not_linked(Model& model, const std::string& why);

}  // namespace sbr
