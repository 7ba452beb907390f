// Placeholders that decide a guard: values only a real install knows (docs/rendering.md,
// "Placeholders that decide a guard"). `helm template` and sbreview render a first install
// (`.Release.IsUpgrade` false, `.Release.IsInstall` true, revision 1) with an empty `lookup`
// and fixed `now`/`rand*`/`uuidv4`; a guard one of them decides may take the other branch on
// a real upgrade or against a real cluster, and that branch was not reviewed.
#pragma once

#include <string>
#include <vector>

#include "analyzer/render/helm/exec.h"
#include "analyzer/render/render_roots.h"

namespace sbr::render::helm {

// The fields of .Release an upgrade changes: the chart is rendered once more as an upgrade
// (a switch) when one of them decided a guard.
bool is_upgrade_placeholder(const std::string& field);
// The functions whose result sbreview fixes (lookup, now, rand*, uuidv4...): a guard they
// decide is reported, not rendered otherwise (there is no "other" value to try).
bool is_placeholder_function(const std::string& name);

// Whether a guard of `guards` was decided by IsUpgrade, IsInstall or Revision.
bool upgrade_decides(const std::vector<GuardSeen>& guards);

// One SwitchNotRendered problem per guard place a placeholder function decided, naming it.
void report_placeholder_guards(const std::string& chart, const std::vector<GuardSeen>& guards,
                               RenderOutput& out);

}  // namespace sbr::render::helm
