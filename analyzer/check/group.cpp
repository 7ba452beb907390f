#include "analyzer/check/group.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <string>
#include <tuple>

namespace sbr {
namespace {

// Up to this many workloads are named in a message; JSON and SARIF list every one.
constexpr size_t kNamedInMessage = 6;

void erase_marked(std::vector<Finding>& findings, const std::vector<bool>& drop) {
  size_t kept = 0;
  for (size_t i = 0; i < findings.size(); ++i) {
    if (drop[i]) continue;
    if (kept != i) findings[kept] = std::move(findings[i]);
    ++kept;
  }
  findings.resize(kept);
}

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

// The message of the first workload, reworded to name all of them.
std::string name_all(const std::string& message, const std::string& label,
                     const std::vector<std::string>& labels) {
  std::string all = joined_labels(labels);
  if (!label.empty()) {
    if (size_t at = message.find(label); at != std::string::npos) {
      return message.substr(0, at) + all + message.substr(at + label.size());
    }
  }
  return message + fmt::format(" (also: {})", all);
}

std::string reason_rules(const Finding& f) {
  std::string out;
  for (const Reason& r : f.reasons) out += std::string(r.rule_id.str()) + ",";
  return out;
}

}  // namespace

void fold_reasons(std::vector<Finding>& findings, const Catalog& catalog) {
  using Key = std::tuple<FileId, std::uint32_t, std::uint32_t, std::string, std::string>;
  std::map<Key, std::vector<Finding*>> places;
  for (Finding& f : findings) {
    places[{f.at.file, f.at.line, f.at.column, f.subject, f.condition.text}].push_back(&f);
  }
  std::vector<bool> drop(findings.size(), false);
  for (size_t i = 0; i < findings.size(); ++i) {
    Finding& f = findings[i];
    const Rule* rule = catalog.find(f.rule_id);
    if (rule == nullptr || rule->folds_into.empty() || !f.accepted_reason.empty()) continue;
    const auto& members = places[{f.at.file, f.at.line, f.at.column, f.subject, f.condition.text}];
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
  using Key = std::tuple<std::string, FileId, std::uint32_t, std::uint32_t, std::string,
                         std::string, Severity, ThreatClass, std::string, std::string>;
  std::map<Key, size_t> first;
  std::vector<bool> drop(findings.size(), false);
  std::vector<std::vector<std::string>> labels(findings.size());
  for (size_t i = 0; i < findings.size(); ++i) {
    Finding& f = findings[i];
    Key k{std::string(f.rule_id.str()),
          f.at.file,
          f.at.line,
          f.at.column,
          f.fact_path,
          f.condition.text,
          f.severity,
          f.threat,
          f.accepted_reason,
          reason_rules(f)};
    auto [it, fresh] = first.emplace(k, i);
    if (fresh) {
      labels[i].push_back(f.label.empty() ? f.subject : f.label);
      continue;
    }
    Finding& keep = findings[it->second];
    if (keep.subject == f.subject) continue;  // the same workload twice: the runner's job
    keep.shared_with.push_back({f.subject, f.label, f.fingerprint});
    labels[it->second].push_back(f.label.empty() ? f.subject : f.label);
    add_related(keep, f.related);
    drop[i] = true;
  }
  for (size_t i = 0; i < findings.size(); ++i) {
    Finding& f = findings[i];
    if (drop[i] || f.shared_with.empty()) continue;
    f.message = name_all(f.message, f.label, labels[i]);
    for (Reason& r : f.reasons) r.message = name_all(r.message, f.label, labels[i]);
  }
  erase_marked(findings, drop);
}

}  // namespace sbr
