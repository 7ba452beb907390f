#include "analyzer/check/runner.h"

#include <fmt/format.h>

#include <algorithm>
#include <tuple>

#include "analyzer/check/data_run.h"
#include "analyzer/check/group.h"
#include "analyzer/check/implied.h"
#include "analyzer/check/registry.h"
#include "analyzer/check/repeated_steps.h"
#include "analyzer/check/same_place.h"
#include "analyzer/check/suppress.h"
#include "generated/rule_ids.h"

namespace sbr {
namespace {

// The findings' reserve (run_checks): about three times what the benchmark stream has per
// workload, plus room for the file-level findings of a run without workloads.
constexpr std::size_t kReservedPerWorkload = 32;
constexpr std::size_t kReservedPerRun = 256;
// At most this many (about 120 MB of address space): a repository of many large streams grows
// the vector by doubling past it rather than asking for gigabytes up front, which a host that
// does not overcommit memory would refuse.
constexpr std::size_t kMaxReserved = std::size_t{1} << 18;

Severity one_lower(Severity s) {
  return s == Severity::Note ? Severity::Note : static_cast<Severity>(static_cast<int>(s) - 1);
}

const Acceptance* find_acceptance(const Finding& f, const Model& model, const Config& config,
                                  const WorkloadId* id) {
  for (const auto& a : config.acceptances) {
    if (a.rule != f.rule_id) continue;
    const std::string& path = model.files.path(f.at.file);
    WorkloadId empty;
    if (selector_matches(a.match, id ? *id : empty, path)) return &a;
  }
  return nullptr;
}

}  // namespace

// A weak risk acceptance, reported at the acceptance in the configuration file.
Finding acceptance_finding(RuleId rule, const Acceptance& a, const std::string& config_path,
                           std::string message) {
  Finding f;
  f.rule_id = rule;
  f.message = std::move(message);
  f.at = a.at;
  f.subject = config_path;
  f.fact_path = "acceptance:" + a.rule;
  return f;
}

bool ephemerality_rule(RuleId id) {
  // INVARIANTS.md, untrusted-input row: per-session sandboxes, wall clock, TTL and long-lived
  // controllers are about code that must not outlive its task; a controller is meant to.
  static constexpr RuleId kRules[] = {rule::long_lived_controller, rule::job_without_ttl,
                                      rule::sandbox_never_expires, rule::restart_outlives_session,
                                      rule::no_wall_clock};
  return std::find(std::begin(kRules), std::end(kRules), id) != std::end(kRules);
}

std::optional<Severity> severity_for_threat(Severity s, ThreatClass t) {
  switch (t) {
    case ThreatClass::UntrustedCode:
    case ThreatClass::MultiTenant:
      return s;
    case ThreatClass::UntrustedInput:
      return s == Severity::Critical ? s : one_lower(s);
    case ThreatClass::Trusted:
      if (s == Severity::Critical) return s;
      return std::nullopt;
  }
  return s;
}

namespace {

// Subject -> workload id, for acceptance selectors.
using Subjects = std::vector<std::pair<std::string, const WorkloadId*>>;

Subjects subjects_of(const Model& model) {
  Subjects out;
  for (const auto& w : model.workloads) {
    out.emplace_back(fmt::format("{}/{}/{}/{}", w.id.kind, w.id.ns, w.id.name, w.id.container),
                     &w.id);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Weak acceptances are themselves findings (invariant 0): a risk written down without a
// reason, or past its expiry, must not quietly keep a finding out of the gate.
void weak_acceptances(const Config& config, const RunOptions& options, Findings& raw) {
  for (const auto& a : config.acceptances) {
    if (a.reason.empty()) {
      raw.add(acceptance_finding(
          rule::acceptance_without_reason, a, config.path,
          fmt::format("risk acceptance of {} has no reason; it is ignored", a.rule)));
    } else if (!a.expires.empty() && !options.today.empty() && a.expires < options.today) {
      raw.add(acceptance_finding(
          rule::acceptance_expired, a, config.path,
          fmt::format("risk acceptance of {} expired on {}; the finding is reported again", a.rule,
                      a.expires)));
    }
  }
}

// The severity the catalog, the configuration, the threat class and the condition give `f`;
// nullopt when the threat class drops it.
std::optional<Severity> severity_of(const Finding& f, const Rule& rule, const Config& config) {
  Severity s = rule.severity;
  if (rule.invariant == 0) {
    if (auto it = config.integrity_severity.find(std::string(f.rule_id));
        it != config.integrity_severity.end()) {
      s = it->second;
    }
    return s;
  }
  if (auto it = config.rules.find(std::string(f.rule_id)); it != config.rules.end()) {
    if (!it->second.enabled) return std::nullopt;
    if (it->second.severity) s = *it->second.severity;
  }
  if (f.threat == ThreatClass::UntrustedInput && ephemerality_rule(f.rule_id)) return std::nullopt;
  auto adjusted = severity_for_threat(s, f.threat);
  if (!adjusted) return std::nullopt;
  s = *adjusted;
  if (!f.condition().always() && f.condition().needs_switch) s = one_lower(s);
  return s;
}

// A related location at the finding's own place repeats it (issue 34 §4: 438 on the real-world
// corpus, most the automounted token SB5002 names at the pod it reports): a reader is sent to
// the place they are already at.
void drop_related_at_primary(std::vector<Finding>& findings) {
  for (Finding& f : findings) {
    std::erase_if(f.related, [&](const Related& r) { return r.at == f.at; });
  }
}

struct Finisher {
  const Model& model;
  const Catalog& catalog;
  const Config& config;
  const RunOptions& options;
  Subjects subjects;
  SuppressionIndex suppressions;

  // Turns a raw finding into a reported one; false when it is not reported.
  bool finish(Finding& f) {
    const Rule* rule = catalog.find(f.rule_id);
    if (rule == nullptr) {
      // Dropping it would pass the gate on a typo: the run stops instead (exit 2).
      throw CatalogError(fmt::format(
          "a check reported rule {}, which the rule catalog does not define (finding: {})",
          f.rule_id.empty() ? std::string_view("<none>") : f.rule_id.str(), f.message));
    }
    f.invariant = rule->invariant;
    if (f.invariant == 0 && !f.cause) f.cause = rule->cause;
    auto s = severity_of(f, *rule, config);
    if (!s) return false;
    // A fact reached only on some path says which path, in the message itself (INVARIANTS.md:
    // "the condition is in the message and in the fingerprint").
    f.message += condition_note(f.condition());
    f.severity = *s;
    accept(f);
    suppressions.apply(f);
    f.fingerprint = fingerprint(f);
    return true;
  }

  void accept(Finding& f) const {
    const WorkloadId* id = nullptr;
    auto it = std::lower_bound(subjects.begin(), subjects.end(), f.subject,
                               [](const auto& a, const std::string& b) { return a.first < b; });
    if (it != subjects.end() && it->first == f.subject) id = it->second;
    const Acceptance* a = find_acceptance(f, model, config, id);
    if (a == nullptr) return;
    bool expired = !a->expires.empty() && !options.today.empty() && a->expires < options.today;
    if (a->reason.empty() || expired) return;
    f.accepted_reason = a->reason;
    f.suppression_kind = "external";
    f.severity_before = f.severity;
    f.severity = Severity::Note;
  }
};

}  // namespace

std::vector<Finding> run_checks(const Model& model, const Catalog& catalog, const Config& config,
                                const RunOptions& options) {
  Findings raw;
  // Room for more findings than runs usually have (about ten per workload on the benchmark
  // stream), reserved before the checks run: a page never written costs no memory, and the
  // vector does not double in the middle of a large run, when the old array and the new one
  // would both be resident (docs/robustness.md).
  raw.reserve(
      std::min(kReservedPerWorkload * model.workloads.size() + kReservedPerRun, kMaxReserved));
  for (const auto& check : invariant_checks()) check.fn(model, raw);
  std::vector<match::RuleRef> data;
  for (const Rule& r : catalog.rules()) {
    if (r.data) data.push_back({r.rule_id(), r.data.get()});
  }
  match::run_data_rules(model, data, raw);
  weak_acceptances(config, options, raw);
  Finisher finisher{
      model, catalog, config, options, subjects_of(model), SuppressionIndex(model, options.today)};
  for (Finding& f : finisher.suppressions.weak()) raw.add(std::move(f));

  // Kept findings are compacted in place: a second vector would hold every finding twice at
  // the peak (tens of MB on a 10,000-workload stream).
  std::vector<Finding>& items = raw.items();
  size_t kept = 0;
  for (Finding& f : items) {
    if (!finisher.finish(f)) continue;
    if (&items[kept] != &f) items[kept] = std::move(f);
    ++kept;
  }
  items.resize(kept);
  // A suppression is unused once every finding has had its chance to match it.
  for (Finding& f : finisher.suppressions.unused()) {
    if (finisher.finish(f)) items.push_back(std::move(f));
  }
  std::vector<Finding> out = std::move(items);
  auto key = [&](const Finding& f) {
    return std::tie(model.files.path(f.at.file), f.at.line, f.at.column, f.rule_id, f.subject,
                    f.fact_path, f.condition().text);
  };
  // Equal keys are one finding; the one kept is the smallest by identity (then fingerprint),
  // so that it follows from the findings themselves: std::sort leaves equal keys in an order
  // that depends on everything else being sorted, and another file in the run changed which
  // launch's fingerprint a finding carried.
  std::sort(out.begin(), out.end(), [&](const Finding& a, const Finding& b) {
    const auto ka = key(a);
    const auto kb = key(b);
    if (ka != kb) return ka < kb;
    return std::tie(a.identity, a.fingerprint) < std::tie(b.identity, b.fingerprint);
  });
  out.erase(std::unique(out.begin(), out.end(),
                        [&](const Finding& a, const Finding& b) { return key(a) == key(b); }),
            out.end());
  drop_switch_repeats(out);
  drop_implied(out);
  fold_reasons(out, catalog);
  merge_shared(out);
  merge_same_place(out);
  fold_repeated_steps(out);
  drop_related_at_primary(out);
  return out;
}

}  // namespace sbr
