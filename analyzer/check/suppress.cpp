#include "analyzer/check/suppress.h"

#include <fmt/format.h>

#include <algorithm>

#include "generated/rule_ids.h"

namespace sbr {
namespace {

// The rules that judge suppressions and the gate itself: a suppression cannot hide them.
bool judges_suppressions(RuleId id) {
  static constexpr RuleId kRules[] = {
      rule::acceptance_without_reason,  rule::acceptance_expired,  rule::gate_weakened_by_change,
      rule::suppression_without_reason, rule::suppression_expired, rule::unused_suppression};
  return std::find(std::begin(kRules), std::end(kRules), id) != std::end(kRules);
}

std::string what(const Suppression& s) {
  return s.kind == SuppressionKind::Comment ? "suppression comment"
                                            : std::string("annotation ") + kIgnoreAnnotation;
}

std::string rule_list(const Suppression& s) {
  std::string out;
  for (const std::string& r : s.rules) out += (out.empty() ? "" : ", ") + r;
  return out.empty() ? "no rule" : out;
}

// Told apart from other suppressions of the file by what they name and what is wrong with
// them, never by their line.
Finding about(const Suppression& s, const Model& model, RuleId rule, std::string message,
              std::string_view key) {
  Finding f;
  f.rule_id = rule;
  f.message = std::move(message);
  f.at = s.at;
  f.subject = model.files.path(s.at.file);
  f.fact_path = fmt::format("suppression:{}:{}", key, rule_list(s));
  return f;
}

}  // namespace

SuppressionIndex::SuppressionIndex(const Model& model, std::string today)
    : model_(model), today_(std::move(today)) {
  used_.reserve(model.suppressions.size());
  for (const Suppression& s : model.suppressions) used_.emplace_back(s.rules.size(), false);
}

bool SuppressionIndex::live(const Suppression& s) const {
  const bool expired = !s.expires.empty() && !today_.empty() && s.expires < today_;
  return s.error.empty() && !s.reason.empty() && !expired;
}

bool SuppressionIndex::covers(const Suppression& s, const Finding& f) const {
  if (s.kind == SuppressionKind::Annotation) {
    const std::string& id = f.identity.empty() ? f.subject : f.identity;
    return std::find(s.identities.begin(), s.identities.end(), id) != s.identities.end();
  }
  return f.at.file == s.at.file && (f.at.line == s.line || f.at.line == s.next_line);
}

std::vector<Finding> SuppressionIndex::weak() const {
  std::vector<Finding> out;
  for (const Suppression& s : model_.suppressions) {
    if (!s.error.empty()) {
      out.push_back(about(s, model_, rule::suppression_without_reason,
                          fmt::format("{} is not understood ({}); it is ignored", what(s), s.error),
                          "malformed"));
    } else if (s.reason.empty()) {
      out.push_back(about(
          s, model_, rule::suppression_without_reason,
          fmt::format("{} of {} gives no reason after `--`; it is ignored", what(s), rule_list(s)),
          "reason"));
    } else if (!s.expires.empty() && !today_.empty() && s.expires < today_) {
      out.push_back(about(s, model_, rule::suppression_expired,
                          fmt::format("{} of {} expired on {}; the findings are reported again",
                                      what(s), rule_list(s), s.expires),
                          "expired"));
    }
  }
  return out;
}

void SuppressionIndex::apply(Finding& f) {
  if (judges_suppressions(f.rule_id) || !f.accepted_reason.empty()) return;
  for (size_t i = 0; i < model_.suppressions.size(); ++i) {
    const Suppression& s = model_.suppressions[i];
    if (!live(s) || !covers(s, f)) continue;
    auto named = std::find(s.rules.begin(), s.rules.end(), f.rule_id.str());
    if (named == s.rules.end()) continue;
    used_[i][static_cast<size_t>(named - s.rules.begin())] = true;
    f.accepted_reason = s.reason;
    f.suppression_kind = "inSource";
    f.severity_before = f.severity;
    f.severity = Severity::Note;
    return;
  }
}

std::vector<Finding> SuppressionIndex::unused() const {
  std::vector<Finding> out;
  for (size_t i = 0; i < model_.suppressions.size(); ++i) {
    const Suppression& s = model_.suppressions[i];
    if (!live(s)) continue;
    for (size_t r = 0; r < s.rules.size(); ++r) {
      if (used_[i][r]) continue;
      out.push_back(
          about(s, model_, rule::unused_suppression,
                fmt::format("{} names {}, which reports nothing {}; remove it", what(s), s.rules[r],
                            s.kind == SuppressionKind::Comment ? "on the lines it covers"
                                                               : "on this object"),
                "unused " + s.rules[r]));
    }
  }
  return out;
}

}  // namespace sbr
