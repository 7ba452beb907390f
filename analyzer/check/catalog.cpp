#include "analyzer/check/catalog.h"

#include <fmt/format.h>

#include <algorithm>

#include "analyzer/check/data_rule.h"
#include "analyzer/check/summary.h"
#include "analyzer/support/yaml_tree.h"

namespace sbr {
namespace embedded {
const std::vector<std::pair<std::string_view, std::string_view>>& rule_files();
}

const std::string& common_remediation(Cause cause) {
  static const std::string kRepository =
      "Fix the input at the reported position; the other files were still analysed.";
  static const std::string kAnalyzer =
      "This is a gap of sbreview, not of the repository: review by hand what the message names "
      "(or produce it with its own tool and run sbreview on the output), and report the gap to "
      "sbreview with the input. The gate fails closed meanwhile; once reviewed, lower the rule "
      "with `integrity:` in .sbreview.yaml.";
  static const std::string kEnvironment =
      "Provide what the analysis is missing (vendor the dependency into the repository, install "
      "the tool) and run again, or review by hand what the message names.";
  switch (cause) {
    case Cause::Repository:
      return kRepository;
    case Cause::Analyzer:
      return kAnalyzer;
    case Cause::Environment:
      return kEnvironment;
  }
  return kAnalyzer;
}

const std::string& Rule::remediation_for(std::string_view engine,
                                         std::optional<Cause> cause) const {
  if (!cause || cause == this->cause) return remediation_for(engine);
  auto it = remediation_by_cause.find(cause_name(*cause));
  return it == remediation_by_cause.end() ? common_remediation(*cause) : it->second;
}

const std::vector<std::string_view>& applies_to_values() {
  static const std::vector<std::string_view> v = {
      "kubernetes", "launcher", "compose", "devcontainer", "dockerfile", "egress-gate", "config"};
  return v;
}

const std::vector<std::string_view>& origin_kinds() {
  // advisory: a public security advisory, incident or research write-up of an agent harness or
  // sandbox runtime; hardening-guide: a published hardening guide (devcontainer, compose, CIS).
  static const std::vector<std::string_view> v = {"invariant", "past-review", "advisory",
                                                  "hardening-guide"};
  return v;
}

namespace {

bool one_of(const std::vector<std::string_view>& values, std::string_view v) {
  return std::find(values.begin(), values.end(), v) != values.end();
}

// Reads one rule mapping; every error names the file and the position.
class RuleReader {
 public:
  RuleReader(const yaml::Node& root, std::string_view file) : r_(root), file_(file) {}

  std::optional<Error> err(const yaml::Node& at, std::string what) const {
    return Error{fmt::format("{}:{}:{}: {}", file_, at.line, at.column, what)};
  }
  // A scalar under `key`; "" when absent and not required.
  std::optional<Error> text(std::string_view key, bool required, std::string& out) const {
    const yaml::Node* n = r_.get(key);
    if (n == nullptr && !required) return std::nullopt;
    if (n == nullptr || !n->is_scalar())
      return err(n ? *n : r_, fmt::format("missing string `{}`", key));
    out = n->scalar;
    return std::nullopt;
  }
  // A list of strings under `key` (non-empty when `allowed` is given), each one of `allowed`.
  std::optional<Error> list(std::string_view key, const std::vector<std::string_view>* allowed,
                            std::vector<std::string>& out) const {
    const yaml::Node* n = r_.get(key);
    if (n == nullptr || !n->is_seq() || (allowed && n->items.empty())) {
      return err(n ? *n : r_,
                 fmt::format("`{}` must be a {}list", key, allowed ? "non-empty " : ""));
    }
    for (const yaml::Node* item : n->items) {
      if (!item->is_scalar()) return err(*item, fmt::format("`{}` holds strings", key));
      if (allowed && !one_of(*allowed, item->scalar)) {
        return err(*item, fmt::format("`{}` value `{}` is not {}", key, item->scalar,
                                      fmt::join(*allowed, "|")));
      }
      out.push_back(item->scalar);
    }
    return std::nullopt;
  }
  // `remediation_by_engine: {compose: ..., devcontainer: ...}` (keys from
  // applies_to_values()), `remediation_by_cause: {environment: ...}` (cause names).
  std::optional<Error> keyed_texts(std::string_view key,
                                   const std::vector<std::string_view>& allowed,
                                   std::map<std::string, std::string, std::less<>>& out) const {
    const yaml::Node* n = r_.get(key);
    if (n == nullptr) return std::nullopt;
    if (!n->is_map()) return err(*n, fmt::format("`{}` must map names to text", key));
    for (const auto& [k, v] : n->entries) {
      if (!one_of(allowed, k->scalar)) {
        return err(*k,
                   fmt::format("`{}` key `{}` is not {}", key, k->scalar, fmt::join(allowed, "|")));
      }
      if (v == nullptr || !v->is_scalar() || v->scalar.empty()) {
        return err(*k, fmt::format("`{}.{}` must be text", key, k->scalar));
      }
      out[k->scalar] = v->scalar;
    }
    return std::nullopt;
  }
  std::optional<Error> origin(RuleOrigin& out) const {
    const yaml::Node* n = r_.get("origin");
    if (n == nullptr || !n->is_map()) return err(n ? *n : r_, "`origin` must map kind and detail");
    for (const auto& [k, v] : n->entries) {
      if (k->scalar != "kind" && k->scalar != "detail") {
        return err(*k, fmt::format("unknown key `origin.{}`", k->scalar));
      }
    }
    RuleReader o(*n, file_);
    if (auto e = o.text("kind", true, out.kind)) return e;
    if (auto e = o.text("detail", true, out.detail)) return e;
    if (!one_of(origin_kinds(), out.kind)) {
      return err(*n->get("kind"), fmt::format("`origin.kind` `{}` is not {}", out.kind,
                                              fmt::join(origin_kinds(), "|")));
    }
    return std::nullopt;
  }

 private:
  const yaml::Node& r_;
  std::string_view file_;
};

constexpr std::string_view kKnownKeys[] = {
    "id",         "slug",    "title",       "invariant",      "severity",
    "applies_to", "origin",  "prover",      "implemented_by", "tool_notification",
    "summary",    "message", "remediation", "references",     "remediation_by_engine",
    "folds_into", "vars",    "match",       "cause",          "remediation_by_cause"};

std::optional<Error> check_keys(const yaml::Node& r, const RuleReader& rd) {
  for (const auto& [k, v] : r.entries) {
    if (std::find(std::begin(kKnownKeys), std::end(kKnownKeys), k->scalar) ==
        std::end(kKnownKeys)) {
      return rd.err(*k, fmt::format("unknown key `{}`", k->scalar));
    }
  }
  return std::nullopt;
}

// The id's range: SB<invariant><nnn> for built-in rules, <PREFIX>-<name> for user rules.
std::optional<Error> check_id(const yaml::Node& r, const RuleReader& rd, const Rule& rule,
                              const RuleSource& source) {
  if (!source.user) {
    if (!RuleId::parse(rule.id) || rule.id[2] - '0' != rule.invariant) {
      return rd.err(*r.get("id"), fmt::format("id `{}` must be SB<invariant><nnn>", rule.id));
    }
    return std::nullopt;
  }
  std::string prefix = rule.id.substr(0, rule.id.find('-'));
  bool allowed = prefix == "X" || std::find(source.prefixes.begin(), source.prefixes.end(),
                                            prefix) != source.prefixes.end();
  if (!RuleId::valid_user_id(rule.id) || !allowed) {
    std::string prefixes = "X";
    for (const auto& p : source.prefixes) prefixes += "|" + p;
    return rd.err(*r.get("id"),
                  fmt::format("a user rule's id is <PREFIX>-<name> with PREFIX {} (declared with "
                              "`rule_prefix:` in .sbreview.yaml); `{}` is not",
                              prefixes, rule.id));
  }
  if (rule.invariant == 0) {
    return rd.err(*r.get("invariant"), "user rules judge invariants 1-7; 0 is sbreview's own");
  }
  return std::nullopt;
}

// `cause:` says whose gap an invariant-0 finding is; every invariant-0 rule has one, no other
// rule may (their findings are about the sandbox, not about the analysis).
std::optional<Error> read_cause(const yaml::Node& r, const RuleReader& rd, Rule& rule) {
  const yaml::Node* n = r.get("cause");
  if (rule.invariant != 0) {
    if (n != nullptr) return rd.err(*n, "`cause` is for invariant-0 rules");
    return std::nullopt;
  }
  if (n == nullptr)
    return rd.err(r, "an invariant-0 rule needs `cause: repository|analyzer|environment`");
  rule.cause = parse_cause(n->scalar);
  if (!rule.cause) {
    return rd.err(*n,
                  fmt::format("`cause` `{}` is not repository|analyzer|environment", n->scalar));
  }
  return std::nullopt;
}

// `implemented_by: invariants/<module>.cpp` or `match:`, exactly one; user rules are data.
std::optional<Error> read_implementation(const yaml::Node& r, std::string_view file,
                                         const RuleReader& rd, Rule& rule,
                                         const RuleSource& source) {
  if (auto e = rd.text("implemented_by", false, rule.implemented_by)) return e;
  const yaml::Node* match = r.get("match");
  const yaml::Node* vars = r.get("vars");
  if (!rule.implemented_by.empty()) {
    if (source.user) return rd.err(*r.get("implemented_by"), "a user rule is data: give `match:`");
    if (match != nullptr || vars != nullptr) {
      return rd.err(match ? *match : *vars, "a rule is either `implemented_by` or `match`");
    }
    const std::string& m = rule.implemented_by;
    // The runtime prover's own findings (SB0040-SB0042) are made where it judges a launch.
    bool module = (m.rfind("invariants/", 0) == 0 || m.rfind("analyzer/check/", 0) == 0 ||
                   m.rfind("prover/lib/", 0) == 0) &&
                  m.size() > 4 && m.compare(m.size() - 4, 4, ".cpp") == 0;
    if (!module) {
      return rd.err(*r.get("implemented_by"),
                    "`implemented_by` names the C++ module: invariants/<module>.cpp (or "
                    "prover/lib/<module>.cpp for the prover's findings)");
    }
    return std::nullopt;
  }
  if (match == nullptr) return rd.err(r, "a rule needs `implemented_by` or `match`");
  auto compiled = match::compile_rule(file, *match, vars, r.get("summary"));
  if (!compiled) return compiled.error();
  rule.data = std::make_shared<const match::DataRule>(std::move(*compiled));
  return std::nullopt;
}

std::optional<Error> read_rule(const yaml::Node& r, std::string_view file, Rule& rule,
                               const RuleSource& source) {
  RuleReader rd(r, file);
  if (auto e = check_keys(r, rd)) return e;
  for (auto [key, field] : {std::pair{"id", &rule.id},
                            {"slug", &rule.slug},
                            {"title", &rule.title},
                            {"message", &rule.message},
                            {"remediation", &rule.remediation}}) {
    if (auto e = rd.text(key, true, *field)) return e;
  }
  const yaml::Node* inv = r.get("invariant");
  if (inv == nullptr || !inv->as_int() || *inv->as_int() < 0 || *inv->as_int() > 7) {
    return rd.err(inv ? *inv : r, "`invariant` must be 0-7");
  }
  rule.invariant = static_cast<int>(*inv->as_int());
  std::string sev;
  if (auto e = rd.text("severity", true, sev)) return e;
  auto parsed = parse_severity(sev);
  if (!parsed) {
    return rd.err(*r.get("severity"),
                  fmt::format("severity `{}` is not critical|high|medium|low|note", sev));
  }
  rule.severity = *parsed;
  rule.user = source.user;
  rule.file = std::string(file);
  if (auto e = check_id(r, rd, rule, source)) return e;
  if (auto e = rd.list("applies_to", &applies_to_values(), rule.applies_to)) return e;
  if (auto e = rd.origin(rule.origin)) return e;
  // Every built-in rule says how the prover confirms it; a user rule may.
  if (auto e = rd.text("prover", !source.user, rule.prover)) return e;
  if (auto e = rd.list("references", nullptr, rule.references)) return e;
  if (const yaml::Node* n = r.get("tool_notification")) {
    if (!n->as_bool()) return rd.err(*n, "`tool_notification` must be true or false");
    rule.tool_notification = *n->as_bool();
    if (rule.tool_notification && rule.invariant != 0) {
      return rd.err(*n, "`tool_notification` is for invariant-0 rules (a file never read)");
    }
  }
  if (auto e = read_cause(r, rd, rule)) return e;
  if (auto e = rd.keyed_texts("remediation_by_engine", applies_to_values(),
                              rule.remediation_by_engine)) {
    return e;
  }
  static const std::vector<std::string_view> kCauses = {"repository", "analyzer", "environment"};
  if (auto e = rd.keyed_texts("remediation_by_cause", kCauses, rule.remediation_by_cause)) {
    return e;
  }
  if (!rule.remediation_by_cause.empty() && rule.invariant != 0) {
    return rd.err(*r.get("remediation_by_cause"),
                  "`remediation_by_cause` is for invariant-0 rules");
  }
  if (r.get("folds_into") != nullptr) {
    if (auto e = rd.list("folds_into", nullptr, rule.folds_into)) return e;
  }
  if (auto e = rd.text("summary", false, rule.summary)) return e;
  while (!rule.summary.empty() && (rule.summary.back() == '\n' || rule.summary.back() == ' ')) {
    rule.summary.pop_back();
  }
  auto params = summary_parameters(rule.summary);
  if (!params) return rd.err(*r.get("summary"), "`summary`: " + params.error().message);
  rule.summary_params = std::move(*params);
  return read_implementation(r, file, rd, rule, source);
}

}  // namespace

// A fold must land on a rule that exists, is at least as severe (the folded reason never
// raises the finding it joins) and folds nowhere itself (one level: no chains, no cycles).
std::optional<std::string> Catalog::check_folds(const Catalog& c, const Rule& r) {
  for (const std::string& id : r.folds_into) {
    const Rule* into = c.find(id);
    if (into == nullptr) return fmt::format("{}: `folds_into` names unknown rule {}", r.id, id);
    if (into->severity < r.severity) {
      return fmt::format("{}: `folds_into` {} is less severe than the rule itself", r.id, id);
    }
    if (!into->folds_into.empty()) {
      return fmt::format("{}: `folds_into` {} folds into another rule itself", r.id, id);
    }
  }
  return std::nullopt;
}

Result<Rule> Catalog::parse_rule(std::string_view text, std::string_view file,
                                 const RuleSource& source) {
  yaml::DocumentReader reader(text);
  yaml::Document doc;
  yaml::ParseFailure fail;
  auto st = reader.next(doc, fail);
  if (st == yaml::DocumentReader::Status::Error) {
    return Error{fmt::format("{}:{}:{}: {}", file, fail.line, fail.column, fail.message)};
  }
  if (st != yaml::DocumentReader::Status::Document || doc.root == nullptr || !doc.root->is_map()) {
    return Error{fmt::format("{}:1:1: a rule file holds one mapping", file)};
  }
  Rule rule;
  if (auto e = read_rule(*doc.root, file, rule, source)) return *e;
  return rule;
}

Result<Catalog> Catalog::with_user_rules(
    const std::vector<std::pair<std::string, std::string>>& files, const RuleSource& source) const {
  Catalog c = *this;
  std::string errors;
  for (const auto& [path, text] : files) {
    auto r = parse_rule(text, path, source);
    if (!r) {
      errors += (errors.empty() ? "" : "\n") + r.error().message;
    } else if (c.find(r->id) != nullptr) {
      errors +=
          (errors.empty() ? "" : "\n") + fmt::format("{}: id {} is already used", path, r->id);
    } else {
      c.add(std::move(*r));
    }
  }
  for (const Rule& r : c.rules()) {
    if (!r.user) continue;
    for (const std::string& id : r.folds_into) {
      errors += (errors.empty() ? "" : "\n") +
                fmt::format("{}: a user rule cannot fold into {}", r.file, id);
    }
  }
  if (!errors.empty()) return Error{errors};
  return c;
}

bool Catalog::has_user_rules() const {
  return std::any_of(rules_.begin(), rules_.end(), [](const Rule& r) { return r.user; });
}

Result<Catalog> Catalog::load(
    const std::vector<std::pair<std::string_view, std::string_view>>& files) {
  Catalog c;
  std::string errors;
  for (const auto& [path, text] : files) {
    auto r = parse_rule(text, path);
    if (!r) {
      errors += (errors.empty() ? "" : "\n") + r.error().message;
    } else if (c.find(r->id) != nullptr) {
      errors +=
          (errors.empty() ? "" : "\n") + fmt::format("{}: id {} is already used", path, r->id);
    } else {
      c.add(std::move(*r));
    }
  }
  for (const Rule& r : c.rules()) {
    if (auto e = check_folds(c, r)) errors += (errors.empty() ? "" : "\n") + *e;
  }
  if (!errors.empty()) return Error{errors};
  return c;
}

void Catalog::add(Rule r) {
  auto pos = std::lower_bound(rules_.begin(), rules_.end(), r.id,
                              [](const Rule& a, const std::string& id) { return a.id < id; });
  rules_.insert(pos, std::move(r));
  by_id_.clear();
  origin_index_.clear();
  int builtin = 0, user = 0;
  for (size_t i = 0; i < rules_.size(); ++i) {
    by_id_[rules_[i].id] = i;
    origin_index_.push_back(rules_[i].user ? user++ : builtin++);
  }
}

const Rule* Catalog::find(std::string_view id) const {
  auto it = by_id_.find(id);
  return it == by_id_.end() ? nullptr : &rules_[it->second];
}

int Catalog::index_of(std::string_view id) const {
  auto it = by_id_.find(id);
  if (it == by_id_.end()) return -1;
  return origin_index_[it->second];
}

const Catalog& Catalog::embedded() {
  // A throw leaves the static uninitialised, so every call reports the same defect.
  static const Catalog catalog = [] {
    auto c = load(embedded::rule_files());
    if (!c) throw CatalogError("the embedded rule catalog does not load:\n" + c.error().message);
    return std::move(*c);
  }();
  return catalog;
}

}  // namespace sbr
