#include "analyzer/config/config.h"

#include "analyzer/model/enum_names.h"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>

#include "analyzer/config/config_reader.h"
#include "analyzer/support/strings.h"
#include "analyzer/support/yaml_tree.h"

namespace sbr {

using config_reader::Parser;
using config_reader::read_list;
using config_reader::Section;
using yaml::Node;

bool selector_matches(const WorkloadSelector& s, const WorkloadId& id, std::string_view path) {
  auto m = [](const std::string& p, const std::string& v) { return p.empty() || glob_match(p, v); };
  return m(s.kind, id.kind) && m(s.ns, id.ns) && m(s.name, id.name) &&
         m(s.container, id.container) && (s.path.empty() || glob_match(s.path, path));
}

namespace {

std::optional<Error> read_threat_class(const Parser& p, const Node* e, Config& c) {
  if (!e->is_map()) return p.err(e, "a threat class entry is a mapping");
  if (auto bad = p.only_keys(e, {"match", "class", "reason"}, "a threat class entry")) return bad;
  ThreatClassEntry t;
  t.at = p.loc(e);
  auto sel = p.selector(e->get("match"));
  if (!sel) return sel.error();
  t.match = *sel;
  auto cls = p.str(e->get("class"), "class");
  if (!cls) return cls.error();
  auto tc = parse_threat_class(*cls);
  if (!tc) {
    return p.err(e->get("class"),
                 "`class` must be untrusted-code, untrusted-input, multi-tenant or trusted");
  }
  t.threat = *tc;
  if (const Node* r = e->get("reason")) {
    auto reason = p.str(r, "reason");
    if (!reason) return reason.error();
    t.reason = *reason;
  }
  if (t.threat == ThreatClass::Trusted && t.reason.empty()) {
    return p.err(e, "class `trusted` needs a `reason`");
  }
  c.threat_classes.push_back(std::move(t));
  return std::nullopt;
}

std::optional<Error> read_acceptance(const Parser& p, const Node* e, Config& c) {
  if (!e->is_map()) return p.err(e, "an acceptance is a mapping");
  if (auto bad = p.only_keys(e, {"rule", "match", "reason", "expires"}, "an acceptance")) {
    return bad;
  }
  Acceptance a;
  a.at = p.loc(e);
  auto rule = p.str(e->get("rule"), "rule");
  if (!rule) return rule.error();
  a.rule = *rule;
  if (const Node* m = e->get("match")) {
    auto sel = p.selector(m);
    if (!sel) return sel.error();
    a.match = *sel;
  }
  if (const Node* r = e->get("reason")) {
    auto reason = p.str(r, "reason");
    if (!reason) return reason.error();
    a.reason = *reason;
  }
  if (const Node* x = e->get("expires")) {
    auto d = p.str(x, "expires");
    if (!d) return d.error();
    if (!Parser::valid_date(*d)) return p.err(x, "`expires` must be a date YYYY-MM-DD");
    a.expires = *d;
  }
  c.acceptances.push_back(std::move(a));
  return std::nullopt;
}

// `suppressions:` entries: a finding of `rule` located in a file matching `path` (a glob) is
// accepted, with the same reason and expiry rules as an acceptance.
std::optional<Error> read_suppression(const Parser& p, const Node* e, Config& c) {
  if (!e->is_map()) return p.err(e, "a suppression is a mapping");
  if (auto bad = p.only_keys(e, {"rule", "path", "reason", "expires"}, "a suppression")) {
    return bad;
  }
  Acceptance a;
  a.at = p.loc(e);
  for (auto [key, field] : {std::pair{"rule", &a.rule},
                            {"path", &a.match.path},
                            {"reason", &a.reason},
                            {"expires", &a.expires}}) {
    const Node* v = e->get(key);
    if (v == nullptr && (std::string_view(key) == "rule" || std::string_view(key) == "path")) {
      return p.err(e, fmt::format("a suppression needs `{}`", key));
    }
    if (v == nullptr) continue;
    auto t = p.str(v, key);
    if (!t) return t.error();
    *field = *t;
  }
  if (!a.expires.empty() && !Parser::valid_date(a.expires)) {
    return p.err(e->get("expires"), "`expires` must be a date YYYY-MM-DD");
  }
  c.acceptances.push_back(std::move(a));
  return std::nullopt;
}

std::optional<Error> read_rule_setting(const Parser& p, const Node* id, const Node* v, Config& c) {
  if (id->scalar.size() != 6 || id->scalar.rfind("SB", 0) != 0) {
    return p.err(id, "`rules` keys are rule ids (SB1234)");
  }
  if (id->scalar.rfind("SB0", 0) == 0) {
    return p.err(id,
                 "invariant-0 rules cannot be turned off; set their severity under `integrity`");
  }
  if (!v->is_map()) return p.err(v, "a rule setting is a mapping (`enabled`, `severity`)");
  if (auto bad = p.only_keys(v, {"enabled", "severity"}, "a rule setting")) return bad;
  RuleSetting r;
  r.at = p.loc(id);
  if (const Node* en = v->get("enabled")) {
    if (!en->as_bool()) return p.err(en, "`enabled` must be true or false");
    r.enabled = *en->as_bool();
  }
  if (const Node* sv = v->get("severity")) {
    auto sev = sv->is_scalar() ? parse_severity(sv->scalar) : std::nullopt;
    if (!sev) return p.err(sv, "severity must be critical, high, medium, low or note");
    r.severity = *sev;
  }
  c.rules[id->scalar] = r;
  return std::nullopt;
}

std::optional<Error> read_rules(const Parser& p, const Node* n, Config& c) {
  if (!n->is_map()) return p.err(n, "`rules` must map rule ids to settings");
  for (const auto& [k, v] : n->entries) {
    if (auto bad = read_rule_setting(p, k, v, c)) return bad;
  }
  return std::nullopt;
}

std::optional<Error> read_threat_classes(const Parser& p, const Node* n, Config& c) {
  return read_list<read_threat_class>(p, n, "threat_classes", c);
}

std::optional<Error> read_acceptances(const Parser& p, const Node* n, Config& c) {
  return read_list<read_acceptance>(p, n, "acceptances", c);
}

std::optional<Error> read_suppressions(const Parser& p, const Node* n, Config& c) {
  return read_list<read_suppression>(p, n, "suppressions", c);
}

std::optional<Error> read_version(const Parser& p, const Node* v, Config&) {
  if (v->as_int() != 1) return p.err(v, "`version` must be 1");
  return std::nullopt;
}

std::optional<Error> read_secrets(const Parser& p, const Node* s, Config& c) {
  if (!s->is_map()) return p.err(s, "`secrets` must be a mapping");
  if (auto bad = p.only_keys(s, {"intended"}, "secrets")) return bad;
  if (const Node* i = s->get("intended")) {
    auto v = p.strings(i, "secrets.intended");
    if (!v) return v.error();
    c.intended_secrets = *v;
  }
  return std::nullopt;
}

std::optional<Error> read_workspace(const Parser& p, const Node* w, Config& c) {
  if (w->is_scalar()) {
    c.workspace.push_back(w->scalar);
    return std::nullopt;
  }
  auto v = p.strings(w, "workspace");
  if (!v) return v.error();
  c.workspace = *v;
  return std::nullopt;
}

std::optional<Error> read_repository(const Parser& p, const Node* r, Config& c) {
  if (!r->is_map()) return p.err(r, "`repository` must be a mapping");
  if (auto bad = p.only_keys(r, {"urls"}, "repository")) return bad;
  if (const Node* u = r->get("urls")) {
    auto v = p.strings(u, "repository.urls");
    if (!v) return v.error();
    c.repository_urls = *v;
  }
  return std::nullopt;
}

std::optional<Error> read_engine(const Parser& p, const Node* e, Config& c) {
  auto v = p.str(e, "engine");
  if (!v) return v.error();
  auto eng = parse_engine(*v);
  if (!eng || *eng == Engine::Kubelet) {
    return p.err(e, "`engine` must be podman, docker, podman-kube-play, compose or devcontainer");
  }
  c.launcher_engine = eng;
  return std::nullopt;
}

std::optional<Error> read_cluster(const Parser& p, const Node* k, Config& c) {
  if (!k->is_map()) return p.err(k, "`cluster` must be a mapping");
  if (auto bad = p.only_keys(k, {"default_runtime_class", "seccomp_default", "pod_pids_limit"},
                             "cluster")) {
    return bad;
  }
  c.cluster.from = Provenance{p.loc(k), Frontend::Config, {}};
  if (const Node* v = k->get("default_runtime_class")) {
    auto s = p.str(v, "default_runtime_class");
    if (!s) return s.error();
    c.cluster.default_runtime_class = *s;
  }
  if (const Node* v = k->get("seccomp_default")) {
    if (!v->as_bool()) return p.err(v, "`seccomp_default` must be true or false");
    c.cluster.seccomp_default = *v->as_bool();
  }
  if (const Node* v = k->get("pod_pids_limit")) {
    if (!v->as_int() || *v->as_int() <= 0) {
      return p.err(v, "`pod_pids_limit` must be a positive integer");
    }
    c.cluster.pod_pids_limit = *v->as_int();
  }
  return std::nullopt;
}

std::optional<Error> read_fail_on(const Parser& p, const Node* f, Config& c) {
  auto s = p.str(f, "fail_on");
  if (!s) return s.error();
  auto sev = parse_severity(*s);
  if (*s != "none" && (!sev || *sev == Severity::Note)) {
    return p.err(f, "`fail_on` must be critical, high, medium, low or none");
  }
  c.fail_on = *s;
  return std::nullopt;
}

std::optional<Error> read_exclude(const Parser& p, const Node* x, Config& c) {
  auto v = p.strings(x, "exclude");
  if (!v) return v.error();
  c.exclude = *v;
  return std::nullopt;
}

std::optional<Error> read_include(const Parser& p, const Node* x, Config& c) {
  auto v = p.strings(x, "include");
  if (!v) return v.error();
  c.include = *v;
  return std::nullopt;
}

// The prefix of the user's own rule ids (`ACME` for `ACME-no-latest`), besides `X`.
std::optional<Error> read_rule_prefix(const Parser& p, const Node* n, Config& c) {
  auto s = p.str(n, "rule_prefix");
  if (!s) return s.error();
  bool ok = !s->empty() && s->size() <= 16 && (*s)[0] >= 'A' && (*s)[0] <= 'Z' && *s != "SB" &&
            std::all_of(s->begin(), s->end(), [](char ch) {
              return (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9');
            });
  if (!ok) {
    return p.err(n,
                 "`rule_prefix` is capital letters and digits, starting with a letter, "
                 "not SB (user rule ids are <PREFIX>-<name>)");
  }
  c.rule_prefix = *s;
  return std::nullopt;
}

std::optional<Error> read_integrity(const Parser& p, const Node* i, Config& c) {
  if (!i->is_map()) return p.err(i, "`integrity` must map SB0 rule ids to severities");
  for (const auto& [k, v] : i->entries) {
    if (k->scalar.size() != 6 || k->scalar.rfind("SB0", 0) != 0) {
      return p.err(k, "`integrity` keys are SB0xxx rule ids");
    }
    auto sev = v->is_scalar() ? parse_severity(v->scalar) : std::nullopt;
    if (!sev) return p.err(v, "severity must be critical, high, medium, low or note");
    c.integrity_severity[k->scalar] = *sev;
  }
  return std::nullopt;
}

// The top-level keys, in the order they are read; any other key is an error.
constexpr std::pair<std::string_view, Section> kSections[] = {
    {"version", read_version},
    {"threat_classes", read_threat_classes},
    {"acceptances", read_acceptances},
    {"secrets", read_secrets},
    {"workspace", read_workspace},
    {"repository", read_repository},
    {"engine", read_engine},
    {"cluster", read_cluster},
    {"fail_on", read_fail_on},
    {"exclude", read_exclude},
    {"integrity", read_integrity},
    {"suppressions", read_suppressions},
    {"rules", read_rules},
    {"include", read_include},
    {"documents", config_reader::read_documents},
    {"helm", config_reader::read_helm},
    {"rule_prefix", read_rule_prefix},
    {"limits", config_reader::read_limits}};

}  // namespace

Result<Config> parse_config(std::string_view text, const std::string& path, FileId file) {
  Parser p{path, file};
  Config c;
  c.path = path;
  c.file = file;
  yaml::DocumentReader reader(text);
  yaml::Document doc;
  yaml::ParseFailure fail;
  auto st = reader.next(doc, fail);
  if (st == yaml::DocumentReader::Status::Error) {
    return Error{fmt::format("{}:{}:{}: {}", path, fail.line, fail.column, fail.message)};
  }
  if (st == yaml::DocumentReader::Status::End || doc.root == nullptr || doc.root->is_null()) {
    return c;
  }
  const Node* root = doc.root;
  if (!root->is_map()) return p.err(root, "the configuration must be a mapping");
  if (!doc.duplicates.empty()) {
    const auto& d = doc.duplicates.front();
    return Error{fmt::format("{}:{}:{}: duplicate key `{}`", path, d.line, d.column, d.key)};
  }
  for (const auto& entry : root->entries) {
    const Node* k = entry.first;
    bool known = std::any_of(std::begin(kSections), std::end(kSections),
                             [k](const auto& s) { return s.first == k->scalar; });
    if (!known) return p.err(k, fmt::format("unknown key `{}` in the configuration", k->scalar));
  }
  for (const auto& [key, read] : kSections) {
    if (const Node* n = root->get(key)) {
      if (auto e = read(p, n, c)) return *e;
    }
  }
  return c;
}

}  // namespace sbr
