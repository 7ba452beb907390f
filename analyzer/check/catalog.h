// The rule catalog: every rules/<ID>-<slug>.yaml, embedded at build time. It drives SARIF
// driver.rules, the docs index and the invariant/severity of every finding.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/check/finding.h"
#include "analyzer/support/result.h"

namespace sbr {

struct Rule {
  std::string id;     // SB1001
  std::string slug;   // privileged-container
  std::string title;  // one line
  int invariant = 0;
  Severity severity = Severity::High;
  std::string message;      // full description
  std::string remediation;  // what to do
  std::vector<std::string> references;
  std::vector<std::string> engines;  // where the rule applies: kubernetes, launcher, ...
};

class Catalog {
 public:
  // Parses one rule file's text; `origin` names it in errors.
  static Result<Rule> parse_rule(std::string_view yaml_text, std::string_view origin);
  // The catalog embedded in this binary.
  static const Catalog& embedded();

  void add(Rule r);
  const Rule* find(std::string_view id) const;
  const std::vector<Rule>& rules() const { return rules_; }  // sorted by id
  int index_of(std::string_view id) const;

 private:
  std::vector<Rule> rules_;
  std::map<std::string, size_t, std::less<>> by_id_;
};

}  // namespace sbr
