// The rule catalog: every rules/<ID>-<slug>.yaml, embedded at build time. It drives SARIF
// driver.rules, the docs index, the invariant/severity of every finding and, for rules that
// have a `summary`, the wording of their messages. The schema: docs/architecture.md, "The
// catalog".
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analyzer/check/finding.h"
#include "analyzer/support/result.h"

namespace sbr::match {
struct DataRule;
}

namespace sbr {

// A defect of the catalog, or of a check against it (an id the catalog does not hold, a summary
// naming a parameter the check does not supply): an internal error, so the run stops with exit
// 2 instead of dropping or garbling a finding.
class CatalogError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Where a rule came from. `invariant`: written from the invariant's text
// (docs/invariants/<N>-*.md); `past-review`: a weakness found once in a real review, kept so it
// is never reintroduced (`detail` says what it was).
struct RuleOrigin {
  std::string kind;
  std::string detail;
};

struct Rule {
  std::string id;     // SB1001
  std::string slug;   // privileged-container
  std::string title;  // one line
  int invariant = 0;
  Severity severity = Severity::High;
  std::vector<std::string> applies_to;  // kubernetes, launcher, compose, devcontainer, ...
  RuleOrigin origin;
  // What a runtime probe of the prover observes to confirm a finding of this rule, in words.
  std::string prover;
  // The C++ module that implements the rule (`invariants/inv1_isolation.cpp`); empty for a data
  // rule, whose `match:` is `data`.
  std::string implemented_by;
  std::shared_ptr<const match::DataRule> data;
  // A user rule (`.sbreview/rules/`, `--rules DIR`): its id is outside the SB range, and
  // `file` is where it was read.
  bool user = false;
  std::string file;
  // A finding of this rule is also a SARIF tool execution notification: a file never read.
  bool tool_notification = false;
  // The finding message as a template, "{workload} runs privileged ...": empty when the check
  // words its message itself. summary_params are the names it uses, in order of appearance.
  std::string summary;
  std::vector<std::string> summary_params;
  std::string message;      // full description
  std::string remediation;  // what to do
  // `remediation_by_engine`: the same advice in an engine's own terms (compose keys for
  // compose, `runArgs` for devcontainers, flags for launchers), keyed by an applies_to value.
  std::map<std::string, std::string, std::less<>> remediation_by_engine;
  std::vector<std::string> references;
  // `folds_into`: rules whose finding on the same fact of the same workload has the same fix
  // (a home bind that persists and is also outside the workspace): a finding of this rule
  // becomes one more reason of that finding instead of a second finding.
  std::vector<std::string> folds_into;
  // Invariant-0 rules only (required there): whose gap a finding of this rule is unless the
  // place that met it says otherwise (analyzer/support/cause.h).
  std::optional<Cause> cause;

  // The id as a value (a user rule's is interned).
  RuleId rule_id() const {
    auto id = user ? RuleId::user(this->id) : RuleId::parse(this->id);
    return id ? *id : RuleId();
  }

  // `remediation_by_cause`: an invariant-0 rule's advice when a finding's cause is not the
  // rule's default (a YAML error that is a gap of sbreview's reader is not fixed by editing).
  std::map<std::string, std::string, std::less<>> remediation_by_cause;

  // The remediation a finding on `engine` (an applies_to value; "" = any) shows.
  const std::string& remediation_for(std::string_view engine) const {
    auto it = remediation_by_engine.find(engine);
    return it == remediation_by_engine.end() ? remediation : it->second;
  }
  // The same for a finding of cause `cause`: the rule's text for that cause, else (a cause
  // other than the rule's own) the advice every gap of that cause shares.
  const std::string& remediation_for(std::string_view engine, std::optional<Cause> cause) const;
};

// What to do about a gap of `cause` when its rule has no text of its own for it.
const std::string& common_remediation(Cause cause);

// The values applies_to may hold, and origin.kind.
const std::vector<std::string_view>& applies_to_values();
const std::vector<std::string_view>& origin_kinds();

// How a rule file is read: a built-in rule (an SB id, `implemented_by` or `match`) or a user
// rule (an id `<PREFIX>-<name>` with PREFIX `X` or one of `prefixes`, always `match`).
struct RuleSource {
  bool user = false;
  std::vector<std::string> prefixes;
};

class Catalog {
 public:
  // Parses one rule file's text; `file` names it in errors.
  static Result<Rule> parse_rule(std::string_view yaml_text, std::string_view file,
                                 const RuleSource& source = {});
  // A catalog from (path, text) pairs: every file must parse and ids must be unique.
  static Result<Catalog> load(
      const std::vector<std::pair<std::string_view, std::string_view>>& files);
  // This catalog with user rules added (their ids must not be taken).
  Result<Catalog> with_user_rules(const std::vector<std::pair<std::string, std::string>>& files,
                                  const RuleSource& source) const;
  // The catalog embedded in this binary. Throws CatalogError when it does not load (a build
  // defect that the catalog test catches first).
  static const Catalog& embedded();

  void add(Rule r);
  const Rule* find(std::string_view id) const;
  const std::vector<Rule>& rules() const { return rules_; }  // sorted by id
  // The built-in rules' positions (SARIF driver.rules) and the user rules' (its extension).
  int index_of(std::string_view id) const;
  bool has_user_rules() const;

 private:
  static std::optional<std::string> check_folds(const Catalog& c, const Rule& r);

  std::vector<Rule> rules_;
  std::map<std::string, size_t, std::less<>> by_id_;
  std::vector<int> origin_index_;  // position among the rules of the same origin
};

}  // namespace sbr
