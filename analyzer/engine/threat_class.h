// Who is untrusted: the threat class of each workload, inferred once over the whole model before
// any check runs (INVARIANTS.md "Threat class and engine"; docs/threat-classes.md). The
// observations it reads are recorded on the workload (Workload::threat_evidence), so that `diff`
// can later compare the inputs of two revisions; the class and its reason are the decision.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "analyzer/model/model.h"

namespace sbr::engine {

// The words that run an agent harness, and the flags that switch its permission prompts off.
// Data, so that adding a harness is one line.
std::span<const std::string_view> harness_names();
std::span<const std::string_view> harness_packages();
std::span<const std::string_view> permission_skipping_flags();

// Collects the evidence of every workload and sets threat, threat_reason and threat_source
// (Inferred). Configuration and annotations are applied afterwards and win.
void infer_threat_classes(Model& model);

// The class and its evidence in a reader's words: "untrusted-input: its ServiceAccount ...".
std::string threat_summary(const Workload& w);

}  // namespace sbr::engine
