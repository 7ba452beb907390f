#include "prover/lib/runtime_findings.h"

#include <fmt/format.h>

#include "analyzer/check/fingerprint.h"
#include "generated/rule_ids.h"
#include "invariants/common.h"

namespace sbr::prove {
namespace {

Provenance at_of(const Finding& f) {
  Provenance p(f.at);
  p.set_condition(f.condition());
  return p;
}

}  // namespace

std::vector<Finding> runtime_findings(const Workload& w, const LaunchPlan& plan,
                                      const Observation& obs, const std::vector<Control>& controls,
                                      const std::vector<Judged>& judged) {
  std::vector<Finding> out;
  if (plan.kind != LaunchKind::None && (!obs.launched || !obs.probe)) {
    std::string error = obs.timed_out ? "the launch timed out" : obs.error;
    out.push_back(inv::make(w, rule::runtime_launch_failed, MessageArgs{{"error", error}},
                            inv::object_anchor(w), "runtime:launch"));
  }
  for (const Control& c : controls) {
    if (c.verdict.verdict != Verdict::Refuted) continue;
    out.push_back(inv::make(w, rule::runtime_control_absent,
                            MessageArgs{{"control", c.name},
                                        {"invariant", std::to_string(c.invariant)},
                                        {"observed", c.verdict.observed}},
                            c.from.at.valid() ? c.from : inv::object_anchor(w),
                            "runtime:control:" + c.key));
  }
  for (const Judged& j : judged) {
    if (j.verdict.verdict != Verdict::Refuted) continue;
    const Finding& f = *j.finding;
    std::string reason = j.verdict.reason.empty() ? "" : " (" + j.verdict.reason + ")";
    out.push_back(inv::make(
        w, rule::runtime_refutes_finding,
        MessageArgs{
            {"rule", std::string(f.rule_id)}, {"observed", j.verdict.observed}, {"reason", reason}},
        at_of(f), fmt::format("runtime:refutes:{}:{}", f.rule_id, f.fact_path)));
  }
  return out;
}

void finish_runtime_findings(std::vector<Finding>& findings, const Catalog& catalog,
                             const Config& config) {
  for (Finding& f : findings) {
    const Rule* rule = catalog.find(f.rule_id);
    if (rule == nullptr) {
      throw CatalogError(
          fmt::format("the prover reported rule {}, which the catalog lacks", f.rule_id.str()));
    }
    f.invariant = rule->invariant;
    if (!f.cause) f.cause = rule->cause;
    f.severity = rule->severity;
    if (auto it = config.integrity_severity.find(std::string(f.rule_id));
        it != config.integrity_severity.end()) {
      f.severity = it->second;
    }
    f.severity_before = f.severity;
    f.fingerprint = fingerprint(f);
  }
}

}  // namespace sbr::prove
