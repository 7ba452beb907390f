#include "analyzer/cli/render_command.h"

#include <re2/re2.h>

#include <algorithm>
#include <ostream>

#include "analyzer/source/source.h"

namespace sbr {

namespace {

// Helm's InstallOrder: `helm template` prints documents sorted by kind in this order, unknown
// kinds last, ties in template order.
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

std::size_t install_rank(const std::string& doc) {
  static const RE2 kKind(R"((?m)^kind:\s*["']?([A-Za-z0-9]+))");
  std::string kind;
  if (!RE2::PartialMatch(doc, kKind, &kind)) return std::size(kInstallOrder);
  auto* end = std::end(kInstallOrder);
  auto* found =
      std::find_if(std::begin(kInstallOrder), end, [&](const char* k) { return kind == k; });
  return static_cast<std::size_t>(found - std::begin(kInstallOrder));
}

struct Doc {
  std::string source, body;
  std::size_t rank = 0;
};

std::string trim(const std::string& s) {
  std::size_t b = s.find_first_not_of(" \t\r\n"), e = s.find_last_not_of(" \t\r\n");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

// A Helm stream's documents, each under its `# Source:` line, as helm's SplitManifests cuts them.
void split_stream(const render::RenderedStream& s, std::vector<Doc>& docs) {
  std::size_t nl = s.text.find('\n');
  std::string source = s.text.substr(0, nl);
  std::string rest = nl == std::string::npos ? "" : s.text.substr(nl + 1);
  std::size_t k = 0;
  while (k <= rest.size()) {
    std::size_t sep = rest.find("\n---", k);
    if (k == 0 && rest.rfind("---", 0) == 0) sep = 0;
    std::string body = trim(rest.substr(k, sep == std::string::npos ? std::string::npos : sep - k));
    if (!body.empty()) docs.push_back({source, body, install_rank(body)});
    if (sep == std::string::npos) break;
    std::size_t eol = rest.find('\n', sep + (sep == 0 ? 0 : 1));
    if (eol == std::string::npos) break;
    k = eol + 1;
  }
}

void print_root(const std::vector<const render::RenderedStream*>& streams, std::ostream& out) {
  if (streams.front()->engine != "helm") {
    for (const auto* s : streams) out << s->text << (s->text.ends_with('\n') ? "" : "\n");
    return;
  }
  std::vector<Doc> docs;
  for (const auto* s : streams) split_stream(*s, docs);
  std::stable_sort(docs.begin(), docs.end(),
                   [](const Doc& a, const Doc& b) { return a.rank < b.rank; });
  for (const Doc& d : docs) out << "---\n" << d.source << '\n' << d.body << '\n';
}

}  // namespace

render::RenderOptions render_options(const Options& o) {
  render::RenderOptions r;
  r.enabled = o.render;
  r.helm_values = o.helm_values;
  r.helm_set = o.helm_set;
  r.helm_set_string = o.helm_set_string;
  return r;
}

int run_render(const Options& o, std::ostream& out, std::ostream& err) {
  FileTable files;
  SourceSet sources = walk_sources(o.paths, WalkOptions{}, files);
  render::RenderOptions options = render_options(o);
  options.enabled = true;
  render::RenderOutput rendered = render::render_roots(sources, options);
  std::vector<const render::RenderedStream*> group;
  bool first = true;
  auto flush = [&] {
    if (group.empty()) return;
    const std::string& root = group.front()->root;
    out << (first ? "" : "\n") << "# Render root: " << (root.empty() ? "." : root) << " ("
        << group.front()->engine << ")\n";
    first = false;
    print_root(group, out);
    group.clear();
  };
  for (const render::RenderedStream& s : rendered.streams) {
    if (!group.empty() && (s.root != group.front()->root || s.engine != group.front()->engine))
      flush();
    group.push_back(&s);
  }
  flush();
  for (const Problem& p : rendered.problems) {
    err << files.path(p.at.file) << ':' << p.at.line << ':' << p.at.column << ": " << p.message
        << '\n';
  }
  return rendered.problems.empty() ? 0 : 1;
}

}  // namespace sbr
