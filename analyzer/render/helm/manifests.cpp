#include "analyzer/render/helm/manifests.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <iterator>

#include "analyzer/support/yaml_tree.h"

namespace sbr::render::helm {

namespace {

// Helm's InstallOrder (pkg/release/v1/util/kind_sorter.go).
const char* const kInstallOrder[] = {"PriorityClass",
                                     "Namespace",
                                     "NetworkPolicy",
                                     "ResourceQuota",
                                     "LimitRange",
                                     "PodSecurityPolicy",
                                     "PodDisruptionBudget",
                                     "ServiceAccount",
                                     "Secret",
                                     "SecretList",
                                     "ConfigMap",
                                     "StorageClass",
                                     "PersistentVolume",
                                     "PersistentVolumeClaim",
                                     "CustomResourceDefinition",
                                     "ClusterRole",
                                     "ClusterRoleList",
                                     "ClusterRoleBinding",
                                     "ClusterRoleBindingList",
                                     "Role",
                                     "RoleList",
                                     "RoleBinding",
                                     "RoleBindingList",
                                     "Service",
                                     "DaemonSet",
                                     "Pod",
                                     "ReplicationController",
                                     "ReplicaSet",
                                     "Deployment",
                                     "HorizontalPodAutoscaler",
                                     "StatefulSet",
                                     "Job",
                                     "CronJob",
                                     "IngressClass",
                                     "Ingress",
                                     "APIService",
                                     "MutatingWebhookConfiguration",
                                     "ValidatingWebhookConfiguration"};

// The hook events Helm knows; a document naming any other is skipped, as Helm skips it.
const char* const kHookEvents[] = {"pre-install", "post-install", "pre-delete",   "post-delete",
                                   "pre-upgrade", "post-upgrade", "pre-rollback", "post-rollback",
                                   "test",        "test-success"};

bool go_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

std::string trim_left(const std::string& s) {
  std::size_t k = 0;
  while (k < s.size() && go_space(s[k])) ++k;
  return s.substr(k);
}

std::string trim_go_space(const std::string& s) {
  std::string t = trim_left(s);
  while (!t.empty() && go_space(t.back())) t.pop_back();
  return t;
}

std::string lower_trim(std::string s) {
  s = trim_go_space(s);
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool read_head(const std::string& doc, ManifestHead& head, std::string& error) {
  yaml::DocumentReader reader(doc);
  yaml::Document d;
  yaml::ParseFailure fail;
  auto st = reader.next(d, fail);
  if (st == yaml::DocumentReader::Status::Error) {
    error = fmt::format("line {}: {}", fail.line, fail.message);
    return false;
  }
  if (st == yaml::DocumentReader::Status::End || !d.root || !d.root->is_map()) return true;
  if (const yaml::Node* k = d.root->get("kind"); k && k->is_scalar()) head.kind = k->scalar;
  const yaml::Node* meta = d.root->get("metadata");
  if (!meta || !meta->is_map()) return true;
  if (const yaml::Node* n = meta->get("name"); n && n->is_scalar()) head.name = n->scalar;
  const yaml::Node* ann = meta->get("annotations");
  if (const yaml::Node* h = ann ? ann->get("helm.sh/hook") : nullptr; h && h->is_scalar())
    head.hook = h->scalar;
  return true;
}

struct Doc {
  std::string path, content;
  std::string kind;
  bool test = false;
};

// Helm's lessByKind: known kinds in install order, unknown ones after them, alphabetically.
void sort_by_kind(std::vector<Doc>& docs) {
  std::stable_sort(docs.begin(), docs.end(), [](const Doc& a, const Doc& b) {
    int ra = install_rank(a.kind), rb = install_rank(b.kind);
    int unknown = static_cast<int>(std::size(kInstallOrder));
    if (ra == unknown && rb == unknown) return a.kind < b.kind;
    return ra < rb;
  });
}

// The hook's events; false when one is not an event Helm knows (the document is dropped).
bool hook_events(const std::string& hook, bool& test) {
  std::size_t k = 0;
  while (true) {
    std::size_t comma = hook.find(',', k);
    std::string e = lower_trim(hook.substr(k, comma == std::string::npos ? comma : comma - k));
    if (std::find(std::begin(kHookEvents), std::end(kHookEvents), e) == std::end(kHookEvents))
      return false;
    test = test || e == "test" || e == "test-success";
    if (comma == std::string::npos) return true;
    k = comma + 1;
  }
}

bool class_match(std::string_view& p, char c, bool& ok) {
  // p starts after '['; consumes through ']'.
  bool negate = !p.empty() && p[0] == '^';
  if (negate) p.remove_prefix(1);
  bool matched = false;
  bool first = true;
  while (!p.empty() && (p[0] != ']' || first)) {
    first = false;
    char lo = p[0];
    if (lo == '\\' && p.size() > 1) {
      p.remove_prefix(1);
      lo = p[0];
    }
    p.remove_prefix(1);
    char hi = lo;
    if (p.size() > 1 && p[0] == '-' && p[1] != ']') {
      hi = p[1] == '\\' && p.size() > 2 ? p[2] : p[1];
      p.remove_prefix(p[1] == '\\' ? 3 : 2);
    }
    if (lo <= c && c <= hi) matched = true;
  }
  if (p.empty()) {
    ok = false;  // malformed: Go returns ErrBadPattern, which matches nothing
    return false;
  }
  p.remove_prefix(1);
  return matched != negate;
}

}  // namespace

int install_rank(const std::string& kind) {
  auto* end = std::end(kInstallOrder);
  auto* found =
      std::find_if(std::begin(kInstallOrder), end, [&](const char* k) { return kind == k; });
  return static_cast<int>(found - std::begin(kInstallOrder));
}

std::vector<std::string> split_manifests(const std::string& text) {
  // The separator is `(?:^|\s*\n)---\s*`: whitespace before the line's `---` and everything
  // blank after it belong to the separator.
  std::string s = trim_left(text);
  std::vector<std::string> docs;
  std::size_t start = 0, k = 0;
  auto cut = [&](std::size_t from, std::size_t to, std::size_t next) {
    std::string d = s.substr(from, to - from);
    if (!d.empty()) {
      d = trim_left(d);
      docs.push_back(d);
    }
    start = next;
  };
  if (s.rfind("---", 0) == 0) {
    std::size_t end = 3;
    while (end < s.size() && go_space(s[end])) ++end;
    start = k = end;
  }
  while ((k = s.find("\n---", k)) != std::string::npos) {
    std::size_t from = k;
    while (from > start && go_space(s[from - 1])) --from;
    std::size_t end = k + 4;
    while (end < s.size() && go_space(s[end])) ++end;
    cut(start, from, end);
    k = end;
  }
  cut(start, s.size(), s.size());
  return docs;
}

bool template_output(const std::vector<TemplateFile>& templates,
                     const std::vector<TemplateFile>& crds, bool skip_tests, std::string& out,
                     std::string& error) {
  std::vector<Doc> manifests, hooks;
  for (const TemplateFile& t : templates) {
    for (std::string& d : split_manifests(t.content)) {
      ManifestHead head;
      std::string why;
      if (!read_head(d, head, why)) {
        error = fmt::format("YAML parse error on {}: {}", t.name, why);
        return false;
      }
      Doc doc{t.name, std::move(d), head.kind, false};
      if (head.hook.empty()) {
        manifests.push_back(std::move(doc));
      } else if (hook_events(head.hook, doc.test)) {
        hooks.push_back(std::move(doc));
      }
    }
  }
  sort_by_kind(manifests);
  sort_by_kind(hooks);
  std::string manifest;
  for (const TemplateFile& c : crds)
    manifest += fmt::format("---\n# Source: {}\n{}\n", c.name, c.content);
  for (const Doc& d : manifests)
    manifest += fmt::format("---\n# Source: {}\n{}\n", d.path, d.content);
  out = trim_go_space(manifest) + "\n";
  for (const Doc& h : hooks) {
    if (skip_tests && h.test) continue;
    out += fmt::format("---\n# Source: {}\n{}\n", h.path, h.content);
  }
  return true;
}

bool go_path_match(std::string_view p, std::string_view s) {
  while (!p.empty()) {
    if (p[0] == '*') {
      p.remove_prefix(1);
      for (std::size_t k = 0; k <= s.size(); ++k) {
        if (go_path_match(p, s.substr(k))) return true;
        if (k < s.size() && s[k] == '/') return false;
      }
      return false;
    }
    if (s.empty()) return false;
    if (p[0] == '[') {
      p.remove_prefix(1);
      bool ok = true;
      if (!class_match(p, s[0], ok) || !ok) return false;
    } else if (p[0] == '?') {
      if (s[0] == '/') return false;
      p.remove_prefix(1);
    } else {
      char want = p[0];
      if (want == '\\' && p.size() > 1) {
        p.remove_prefix(1);
        want = p[0];
      }
      if (s[0] != want) return false;
      p.remove_prefix(1);
    }
    s.remove_prefix(1);
  }
  return s.empty();
}

bool show_only(const std::string& output, const std::vector<std::string>& patterns,
               std::string& out, std::string& error) {
  std::vector<std::pair<std::string, std::string>> docs;  // path after the chart name, text
  for (std::string& d : split_manifests(output)) {
    std::size_t at = d.find("# Source: ");
    if (at == std::string::npos) continue;
    std::size_t name = at + 10, slash = d.find('/', name), eol = d.find('\n', name);
    if (slash == std::string::npos || (eol != std::string::npos && slash > eol)) continue;
    docs.emplace_back(d.substr(slash + 1, eol == std::string::npos ? eol : eol - slash - 1), d);
  }
  out.clear();
  for (const std::string& p : patterns) {
    bool missing = true;
    for (const auto& [path, text] : docs) {
      if (!go_path_match(p, path)) continue;
      out += "---\n" + text + "\n";
      missing = false;
    }
    if (missing) {
      error = fmt::format("could not find template {} in chart", p);
      return false;
    }
  }
  return true;
}

}  // namespace sbr::render::helm
