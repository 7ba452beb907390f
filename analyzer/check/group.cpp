#include "analyzer/check/group.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <span>
#include <string>
#include <string_view>
#include <tuple>

namespace sbr {
namespace {

// Up to this many workloads are named in a message; JSON and SARIF list every one.
constexpr size_t kNamedInMessage = 6;

}  // namespace

void erase_marked(std::vector<Finding>& findings, const std::vector<bool>& drop) {
  size_t kept = 0;
  for (size_t i = 0; i < findings.size(); ++i) {
    if (drop[i]) continue;
    if (kept != i) findings[kept] = std::move(findings[i]);
    ++kept;
  }
  findings.resize(kept);
}

namespace {

// The first finding among `members` whose rule is one `rule` folds into, in the catalog's
// order of preference.
Finding* fold_target(const Rule& rule, const std::vector<Finding*>& members) {
  for (const std::string& id : rule.folds_into) {
    for (Finding* m : members) {
      if (m->rule_id.str() == id && m->accepted_reason.empty()) return m;
    }
  }
  return nullptr;
}

void add_related(Finding& into, const std::vector<Related>& more) {
  for (const Related& r : more) {
    bool seen = std::any_of(into.related.begin(), into.related.end(), [&](const Related& x) {
      return x.at.file == r.at.file && x.at.line == r.at.line && x.at.column == r.at.column;
    });
    if (!seen) into.related.push_back(r);
  }
}

std::string reason_rules(const Finding& f) {
  std::string out;
  for (const Reason& r : f.reasons) out += std::string(r.rule_id.str()) + ",";
  return out;
}

// The findings' indices in the order of `less`, equal keys in index order, cut into runs of
// equal keys. Grouping by sorted indices keeps no copy of any key: a map of copied keys held
// every finding's subject, fact and condition a second time at the end of a large run, and one
// vector per run cost about 6 MB there (docs/robustness.md).
struct Runs {
  std::vector<std::uint32_t> order;   // finding indices, run after run
  std::vector<std::uint32_t> starts;  // where each run starts in `order`, then order.size()

  std::size_t size() const { return starts.size() - 1; }
  std::span<const std::uint32_t> operator[](std::size_t r) const {
    return {order.data() + starts[r], order.data() + starts[r + 1]};
  }
};

template <class Less>
Runs runs_of(const std::vector<Finding>& findings, Less less) {
  Runs runs;
  runs.order.resize(findings.size());
  std::iota(runs.order.begin(), runs.order.end(), 0U);
  std::stable_sort(runs.order.begin(), runs.order.end(), [&](std::uint32_t a, std::uint32_t b) {
    return less(findings[a], findings[b]);
  });
  for (std::uint32_t i = 0; i < runs.order.size(); ++i) {
    if (i == 0 || less(findings[runs.order[i - 1]], findings[runs.order[i]])) {
      runs.starts.push_back(i);
    }
  }
  runs.starts.push_back(static_cast<std::uint32_t>(runs.order.size()));
  return runs;
}

auto place_key(const Finding& f) {
  return std::tuple<FileId, std::uint32_t, std::uint32_t, std::string_view, std::string_view>(
      f.at.file, f.at.line, f.at.column, f.subject, f.condition().text);
}

auto fact_key(const Finding& f) {
  return std::tuple<std::string_view, FileId, std::uint32_t, std::uint32_t, std::string_view,
                    std::string_view, Severity, ThreatClass, std::string_view>(
      f.rule_id.str(), f.at.file, f.at.line, f.at.column, f.fact_path, f.condition().text,
      f.severity, f.threat, f.accepted_reason);
}

bool fact_less(const Finding& a, const Finding& b) {
  const auto ka = fact_key(a);
  const auto kb = fact_key(b);
  if (ka != kb) return ka < kb;
  if (a.reasons.empty() && b.reasons.empty()) return false;
  return reason_rules(a) < reason_rules(b);
}

}  // namespace

namespace {

std::string joined_labels(const std::vector<std::string>& labels) {
  size_t named = std::min(labels.size(), kNamedInMessage);
  std::string out;
  for (size_t i = 0; i < named; ++i) {
    if (i > 0) out += (i + 1 == named && named == labels.size()) ? " and " : ", ";
    out += labels[i];
  }
  if (named < labels.size()) out += fmt::format(" and {} more", labels.size() - named);
  return out;
}

}  // namespace

std::string name_workloads(const std::string& message, const std::string& label,
                           const std::vector<std::string>& labels) {
  std::string all = joined_labels(labels);
  if (!label.empty()) {
    if (size_t at = message.find(label); at != std::string::npos) {
      return message.substr(0, at) + all + message.substr(at + label.size());
    }
  }
  return message + fmt::format(" (also: {})", all);
}

void fold_reasons(std::vector<Finding>& findings, const Catalog& catalog) {
  auto runs = runs_of(
      findings, [](const Finding& a, const Finding& b) { return place_key(a) < place_key(b); });
  std::vector<std::uint32_t> run_of(findings.size());
  for (std::uint32_t r = 0; r < runs.size(); ++r) {
    for (std::uint32_t i : runs[r]) run_of[i] = r;
  }
  std::vector<bool> drop(findings.size(), false);
  std::vector<Finding*> members;
  for (size_t i = 0; i < findings.size(); ++i) {
    Finding& f = findings[i];
    const Rule* rule = catalog.find(f.rule_id);
    if (rule == nullptr || rule->folds_into.empty() || !f.accepted_reason.empty()) continue;
    members.clear();
    for (std::uint32_t m : runs[run_of[i]]) members.push_back(&findings[m]);
    Finding* into = fold_target(*rule, members);
    if (into == nullptr) continue;
    into->reasons.push_back({f.rule_id, f.message, f.severity, f.invariant, f.fingerprint});
    into->severity = std::max(into->severity, f.severity);
    add_related(*into, f.related);
    drop[i] = true;
  }
  erase_marked(findings, drop);
}

void merge_shared(std::vector<Finding>& findings) {
  std::vector<bool> drop(findings.size(), false);
  // The workloads each kept finding names, for the findings that end up shared only.
  std::map<std::uint32_t, std::vector<std::string>> labels;
  auto label = [](const Finding& f) { return f.label.empty() ? f.subject : f.label; };
  Runs runs = runs_of(findings, fact_less);
  for (std::size_t r = 0; r < runs.size(); ++r) {
    std::span<const std::uint32_t> run = runs[r];
    Finding& keep = findings[run.front()];
    for (size_t j = 1; j < run.size(); ++j) {
      Finding& f = findings[run[j]];
      if (keep.subject == f.subject) continue;  // the same workload twice: the runner's job
      keep.shared_with.push_back({f.subject, f.label, f.fingerprint});
      auto& named = labels[run.front()];
      if (named.empty()) named.push_back(label(keep));
      named.push_back(label(f));
      add_related(keep, f.related);
      drop[run[j]] = true;
    }
  }
  for (auto& [i, named] : labels) {
    Finding& f = findings[i];
    f.message = name_workloads(f.message, f.label, named);
    for (Reason& r : f.reasons) r.message = name_workloads(r.message, f.label, named);
  }
  erase_marked(findings, drop);
}

}  // namespace sbr
