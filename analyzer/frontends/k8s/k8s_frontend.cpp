// Reads manifests document by document: each document is parsed, turned into model facts and
// freed before the next one, so a long stream never sits in memory as one tree.
#include "analyzer/frontends/k8s/k8s_frontend.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>

#include "analyzer/frontends/k8s/reader.h"
#include "analyzer/frontends/yaml/documents.h"
#include "analyzer/support/limits.h"

namespace sbr {
namespace k8s {

Maybe<bool> Reader::boolean(const Node* map, std::string_view key) const {
  const Node* n = map ? map->get(key) : nullptr;
  if (n == nullptr || !n->as_bool()) return std::nullopt;
  return fact(*n->as_bool(), prov(n));
}

Maybe<std::int64_t> Reader::integer(const Node* map, std::string_view key) const {
  const Node* n = map ? map->get(key) : nullptr;
  if (n == nullptr || !n->as_int()) return std::nullopt;
  return fact(*n->as_int(), prov(n));
}

Maybe<std::string> Reader::string(const Node* map, std::string_view key) const {
  const Node* n = map ? map->get(key) : nullptr;
  if (n == nullptr || !n->is_scalar()) return std::nullopt;
  return fact(n->scalar, prov(n));
}

std::optional<Provenance> Reader::omitted(const Node* map, std::string_view key) const {
  if (omissions == nullptr || omissions->empty() || map == nullptr || !map->is_map() ||
      map->entries.empty() || map->get(key) != nullptr)
    return std::nullopt;
  const std::uint32_t column = map->entries.front().first->column;  // 1-based
  const std::uint32_t first = map->entries.front().first->line;
  for (const render::Omission& o : *omissions) {
    if (o.indent + 1 != column || o.line < first) continue;
    if (std::find(o.keys.begin(), o.keys.end(), key) == o.keys.end()) continue;
    // Inside the mapping: no line between its first key and the guard is less indented.
    bool inside = true;
    for (std::uint32_t l = first + 1; l <= o.line && l < indents->size() && inside; ++l)
      inside = (*indents)[l] == kBlank || (*indents)[l] >= o.indent;
    if (!inside) continue;
    Provenance p{o.guard, Frontend::Kubernetes, condition};
    if (o.values.valid()) p.edit_via().push_back(Step{StepRole::Values, o.values, o.note});
    return p;
  }
  return std::nullopt;
}

std::map<std::string, std::string> Reader::string_map(const Node* map) const {
  std::map<std::string, std::string> out;
  if (map == nullptr || !map->is_map()) return out;
  for (const auto& [k, v] : map->entries) {
    if (k->is_scalar() && v->is_scalar()) out[k->scalar] = v->scalar;
  }
  return out;
}

LabelSelector read_selector(const Node* n) {
  LabelSelector s;
  if (n == nullptr || !n->is_map()) return s;
  s.present = true;
  if (const Node* ml = n->get("matchLabels"); ml && ml->is_map()) {
    for (const auto& [k, v] : ml->entries) {
      if (k->is_scalar() && v->is_scalar()) s.match_labels[k->scalar] = v->scalar;
    }
  }
  if (const Node* me = n->get("matchExpressions"); me && me->is_seq()) {
    for (const Node* e : me->items) {
      LabelRequirement req;
      if (const Node* k = e->get("key")) req.key = k->scalar;
      if (const Node* o = e->get("operator")) req.op = o->scalar;
      if (const Node* vs = e->get("values"); vs && vs->is_seq()) {
        for (const Node* v : vs->items) req.values.push_back(v->scalar);
      }
      s.match_expressions.push_back(std::move(req));
    }
  }
  return s;
}

namespace {

bool has_containers(const Node* spec) {
  const Node* c = spec ? spec->get("containers") : nullptr;
  return c != nullptr && c->is_seq();
}

Controller controller_of(std::string_view kind) {
  if (kind == "Pod") return Controller::Pod;
  if (kind == "Deployment") return Controller::Deployment;
  if (kind == "StatefulSet") return Controller::StatefulSet;
  if (kind == "DaemonSet") return Controller::DaemonSet;
  if (kind == "ReplicaSet") return Controller::ReplicaSet;
  if (kind == "ReplicationController") return Controller::ReplicationController;
  if (kind == "Job") return Controller::Job;
  if (kind == "CronJob") return Controller::CronJob;
  return Controller::OtherPodTemplate;
}

bool is_agent_sandbox_group(std::string_view g) {
  return g == "agents.x-k8s.io" || g == "extensions.agents.x-k8s.io";
}

// Custom kinds known to embed a pod template at spec.template. They are workloads even when
// the template omits `containers` (then invalid, and still judged on its pod-level fields);
// any other kind counts only when its template has containers, since many CRDs have a
// `spec.template` that is not a pod's.
struct TemplateKind {
  std::string_view group, kind;
  Controller controller;
};
constexpr TemplateKind kTemplateKinds[] = {
    // OpenShift's Deployment: keeps its pods running and restarts them, as a Deployment does.
    {"apps.openshift.io", "DeploymentConfig", Controller::Deployment},
    // An Argo Rollout replaces a Deployment, and Knative runs each revision as one: their pods
    // live on and are restarted, which is what invariant 7's long-lived controller is about.
    {"argoproj.io", "Rollout", Controller::Deployment},
    {"serving.knative.dev", "Service", Controller::Deployment},
    {"serving.knative.dev", "Configuration", Controller::Deployment},
};

const TemplateKind* known_template_kind(const ObjectInfo& obj) {
  for (const TemplateKind& t : kTemplateKinds) {
    if (t.group == obj.api_group && t.kind == obj.kind) return &t;
  }
  return nullptr;
}

}  // namespace

bool is_pod_template_kind(const ObjectInfo& obj) {
  return known_template_kind(obj) != nullptr;
}

bool find_pod_template(const ObjectInfo& obj, const Node*& pod_meta, const Node*& pod_spec,
                       const Node*& spec_key, Controller& controller) {
  const Node* root = obj.root;
  const Node* spec = root->get("spec");
  controller = controller_of(obj.kind);
  if (obj.kind == "Pod" && obj.api_group.empty()) {
    pod_meta = root->get("metadata");
    pod_spec = spec;
    spec_key = root->key_node("spec");
    return spec != nullptr;
  }
  if (obj.kind == "PodTemplate" && obj.api_group.empty()) {
    const Node* t = root->get("template");
    if (t == nullptr) return false;
    pod_meta = t->get("metadata");
    pod_spec = t->get("spec");
    spec_key = t->key_node("spec");
    return pod_spec != nullptr;
  }
  if (is_agent_sandbox_group(obj.api_group)) {
    if (obj.kind == "Sandbox") controller = Controller::Sandbox;
    if (obj.kind == "SandboxTemplate") controller = Controller::SandboxTemplate;
  }
  const TemplateKind* known = known_template_kind(obj);
  if (known) controller = known->controller;
  const bool workload_kind = controller != Controller::OtherPodTemplate || known != nullptr;
  if (spec == nullptr || !spec->is_map()) return false;
  // Every template shape in use: spec.template (apps, batch, Argo Rollouts), spec.podTemplate
  // (agent-sandbox), spec.jobTemplate.spec.template (CronJob and look-alikes).
  const Node* candidates[] = {
      spec->get("template"), spec->get("podTemplate"),
      spec->get("jobTemplate") ? spec->get("jobTemplate")->get("spec") : nullptr};
  for (size_t i = 0; i < 3; ++i) {
    const Node* t = candidates[i];
    if (i == 2 && t != nullptr) t = t->get("template");
    if (t == nullptr || !t->is_map()) continue;
    const Node* s = t->get("spec");
    if (!has_containers(s) && !(workload_kind && s != nullptr)) {
      continue;
    }
    pod_meta = t->get("metadata");
    pod_spec = s;
    spec_key = t->key_node("spec");
    return true;
  }
  return false;
}

}  // namespace k8s

namespace {

using k8s::Node;
using k8s::ObjectInfo;
using k8s::Reader;

void read_object(const Reader& r, const Node* root, int depth);

// `items` of a List; `objects` of an OpenShift Template, with its parameters filled as `oc
// process` fills them (template_params.cpp).
void read_list(const Reader& r, const Node* root, int depth) {
  const bool is_template = root->get("objects") != nullptr;
  const Node* items = root->get(is_template ? "objects" : "items");
  if (items == nullptr || !items->is_seq()) return;
  const k8s::TemplateParams params =
      is_template ? k8s::template_params(root) : k8s::TemplateParams{};
  for (const Node* item : items->items) {
    std::deque<Node> arena;  // the filled copy lives while the object is read
    read_object(r, k8s::fill_template(item, params, arena), depth + 1);
  }
}

// Configuration files of cluster tools that borrow apiVersion/kind but are never applied to a
// cluster (a kind or k3d cluster config, kubeadm and kubelet settings, an audit policy): they
// have no metadata.name and run nothing, so they are other YAML, not invalid objects.
bool tool_configuration(std::string_view api_version) {
  static constexpr std::string_view kGroups[] = {"kind.x-k8s.io",
                                                 "k3d.io",
                                                 "kubeadm.k8s.io",
                                                 "kubelet.config.k8s.io",
                                                 "kubeproxy.config.k8s.io",
                                                 "apiserver.config.k8s.io",
                                                 "apiserver.k8s.io",
                                                 "audit.k8s.io",
                                                 "ctlptl.dev",
                                                 "skaffold",
                                                 "client.authentication.k8s.io"};
  std::string_view group = api_version.substr(0, api_version.find('/'));
  return std::find(std::begin(kGroups), std::end(kGroups), group) != std::end(kGroups);
}

void read_object(const Reader& r, const Node* root, int depth) {
  if (root == nullptr || !root->is_map() || depth > 8) return;
  const Node* kind = root->get("kind");
  const Node* api = root->get("apiVersion");
  if (kind == nullptr || api == nullptr || !kind->is_scalar() || !api->is_scalar() ||
      tool_configuration(api->scalar)) {
    ++r.out.summary.other_yaml_documents;
    return;
  }
  ++r.out.summary.kubernetes_documents;
  ObjectInfo obj;
  obj.kind = kind->scalar;
  obj.root = root;
  obj.kind_node = root->key_node("kind");
  size_t slash = api->scalar.find('/');
  obj.api_group = slash == std::string::npos ? "" : api->scalar.substr(0, slash);
  if ((obj.kind == "Template" && (obj.api_group == "template.openshift.io" ||
                                  (obj.api_group.empty() && root->get("objects")))) ||
      obj.kind == "List" ||
      (obj.kind.size() > 4 && obj.kind.substr(obj.kind.size() - 4) == "List" &&
       root->get("items"))) {
    read_list(r, root, depth);
    return;
  }
  const Node* meta = root->get("metadata");
  const Node* generate = meta ? meta->get("generateName") : nullptr;
  if (const Node* n = meta ? meta->get("name") : nullptr; n && n->is_scalar()) {
    obj.name = n->scalar;
  } else if (generate != nullptr && generate->is_scalar()) {
    // The API server appends five random characters: the object is named by its prefix.
    obj.name = generate->scalar + "*";
  } else if (generate == nullptr) {
    r.problem(ProblemKind::InvalidObject,
              fmt::format("{} has no metadata.name: the object is invalid and cannot be applied",
                          obj.kind),
              obj.kind_node);
  }
  if (const Node* ns = meta ? meta->get("namespace") : nullptr; ns && ns->is_scalar()) {
    obj.ns = ns->scalar;
  }
  obj.annotations = r.string_map(meta ? meta->get("annotations") : nullptr);

  if (k8s::read_cluster_object(r, obj)) return;

  const Node* pod_meta = nullptr;
  const Node* pod_spec = nullptr;
  const Node* spec_key = nullptr;
  Controller controller = Controller::Pod;
  if (!k8s::find_pod_template(obj, pod_meta, pod_spec, spec_key, controller)) {
    // Built-in workload kinds must carry a pod template; anything else is simply another kind.
    static const char* const kWorkloadKinds[] = {"Pod",       "Deployment", "StatefulSet",
                                                 "DaemonSet", "ReplicaSet", "ReplicationController",
                                                 "Job",       "CronJob"};
    for (const char* k : kWorkloadKinds) {
      if (obj.kind == k) {
        r.problem(ProblemKind::InvalidObject,
                  fmt::format("{} {} has no pod template with containers: nothing to review",
                              obj.kind, obj.name),
                  obj.kind_node);
      }
    }
    if (k8s::is_pod_template_kind(obj)) {
      r.problem(
          ProblemKind::InvalidObject,
          fmt::format("{} {} has no spec.template.spec: nothing to review", obj.kind, obj.name),
          obj.kind_node);
    }
    if ((obj.kind == "Sandbox" || obj.kind == "SandboxTemplate") &&
        (obj.api_group == "agents.x-k8s.io" || obj.api_group == "extensions.agents.x-k8s.io")) {
      r.problem(ProblemKind::InvalidObject,
                fmt::format("{} {} has no spec.podTemplate.spec", obj.kind, obj.name),
                obj.kind_node);
    }
    return;
  }
  size_t first = r.out.workloads.size();
  k8s::read_pod_spec(r, obj, controller, pod_meta, pod_spec, spec_key);
  k8s::apply_controller_fields(r, obj, first);
}

// Reads one document unless the file already made kMaxWorkloadsPerFile workloads: a stream of
// 10,000 pods of 30 containers each made 300,000 workloads and 4.4 GB. The first document past
// the budget is reported (SB0007) and the rest of the file adds no workload.
std::function<void(const yaml::Document&)> bounded_reader(Reader& r, FileId file) {
  return [&r, file, reported = false](const yaml::Document& doc) mutable {
    if (r.out.workloads.size() < kMaxWorkloadsPerFile) {
      read_object(r, doc.root, 0);
      return;
    }
    if (reported) return;
    reported = true;
    r.out.problems.push_back(
        {ProblemKind::BudgetExceeded,
         fmt::format("the file's documents already hold {} containers, sbreview's budget for one "
                     "file; this document and the rest of the file were not analysed",
                     kMaxWorkloadsPerFile),
         Location{file, doc.start_line, 1}, Cause::Analyzer});
  };
}

}  // namespace

void read_kubernetes_file(const SourceFile& file, FilePart& out, std::uint32_t max_documents) {
  std::string jsonc;  // only JSON needs a rewritten copy; YAML is read in place
  if (file.type == FileType::Json) jsonc = yaml::strip_jsonc(file.bytes);
  std::string_view text =
      file.type == FileType::Json ? std::string_view(jsonc) : std::string_view(file.bytes);
  Reader r{file.id, file.path, out};
  for_each_document(text, file.id, "YAML", out.problems, bounded_reader(r, file.id), max_documents);
}

namespace {

// Columns of leading spaces of each line (index 0 unused), Reader::kBlank for lines with
// nothing but spaces or a comment.
std::vector<std::uint32_t> line_indents(std::string_view text) {
  std::vector<std::uint32_t> out{Reader::kBlank};
  std::size_t k = 0;
  while (k <= text.size()) {
    std::size_t nl = text.find('\n', k);
    std::string_view line = text.substr(k, nl == std::string_view::npos ? nl : nl - k);
    std::size_t first = line.find_first_not_of(' ');
    bool blank = first == std::string_view::npos || line[first] == '#';
    out.push_back(blank ? Reader::kBlank : static_cast<std::uint32_t>(first));
    if (nl == std::string_view::npos) break;
    k = nl + 1;
  }
  return out;
}

}  // namespace

void read_rendered_stream(const render::RenderedStream& stream, FilePart& out,
                          std::uint32_t max_documents, const StreamReuse& reuse) {
  std::vector<std::uint32_t> indents;
  if (!stream.omissions.empty()) indents = line_indents(stream.text);
  Reader r{kNoFile, stream.root, out, &stream.map, stream.condition, &stream.omissions, &indents};
  if (stream.text.rfind("# Source: ", 0) == 0)
    r.source = stream.text.substr(10, stream.text.find('\n') - 10);
  const size_t first_problem = out.problems.size();
  for_each_document(stream.text, kNoFile, "rendered YAML", out.problems, bounded_reader(r, kNoFile),
                    max_documents, reuse);
  // Parse problems are located in the rendered text: move them to where that text came from.
  // Helm and kustomize both refuse output that does not parse, so a chart or overlay that
  // produces it is rare: far likelier, sbreview rendered it differently.
  for (size_t i = first_problem; i < out.problems.size(); ++i) {
    Problem& p = out.problems[i];
    if (!p.at.valid()) p.at = stream.map.find(p.at.line, p.at.column).at;
    if (p.kind == ProblemKind::ParseError) {
      p.cause = Cause::Analyzer;
      p.message += fmt::format(
          " ({} refuses output that does not parse, so sbreview's render "
          "probably differs from it here)",
          stream.engine == "kustomize" ? "kustomize" : "helm");
    }
  }
}

}  // namespace sbr
