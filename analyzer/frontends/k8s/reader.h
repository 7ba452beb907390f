// Internal helpers of the Kubernetes frontend: positioned access to YAML nodes and the readers
// for each object family. Nothing outside analyzer/frontends/k8s includes this header.
#pragma once

#include <deque>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "analyzer/frontends/frontend.h"
#include "analyzer/render/render_roots.h"
#include "analyzer/support/yaml_tree.h"

namespace sbr::k8s {

using yaml::Node;

struct Reader {
  FileId file = kNoFile;
  std::string path;
  FilePart& out;
  // A rendered stream (Helm, Kustomize): positions are in text that exists only in memory, so
  // every location goes through the map to the template, patch or values line it came from.
  const render::SourceMap* map = nullptr;
  Condition condition{};  // a render with a switch flipped: every fact holds only then
  // Branches a template guard left out, and the indentation of each output line (blank and
  // comment lines: kBlank), to tell which mapping an omission was in.
  const std::vector<render::Omission>* omissions = nullptr;
  const std::vector<std::uint32_t>* indents = nullptr;
  std::string source{};  // a chart template's `# Source:` name
  static constexpr std::uint32_t kBlank = 0xffffffffu;

  Location loc(const Node* n) const {
    if (map != nullptr) return map->find(n ? n->line : 1, n ? n->column : 1).at;
    return n ? Location{file, n->line, n->column} : Location{file, 1, 1};
  }
  // A value fed by a values file is reported there (the chart's consumer edits it), with the
  // template line that used it as the step before.
  Provenance prov(const Node* n) const {
    if (map == nullptr) return Provenance{loc(n), Frontend::Kubernetes, condition};
    const render::Origin& o = map->find(n ? n->line : 1, n ? n->column : 1);
    if (!o.values.valid()) return Provenance{o.at, Frontend::Kubernetes, condition};
    return Provenance{o.values, Frontend::Kubernetes, condition, {Step{o.role, o.at, o.note}}};
  }
  // The `key:` of an entry of `map`; `fallback` when the key came through a `<<` merge.
  Provenance key_prov(const Node* map, std::string_view key, const Node* fallback) const {
    const Node* k = map ? map->key_node(key) : nullptr;
    return prov(k ? k : fallback);
  }
  void problem(ProblemKind k, std::string message, const Node* at) const {
    out.problems.push_back({k, std::move(message), loc(at)});
  }

  // The guard that left `key` out of the block mapping `map`, with the values key that decided
  // it as a step; nullopt when `map` has the key or no guard left it out.
  std::optional<Provenance> omitted(const Node* map, std::string_view key) const;

  // Typed reads with provenance; nullopt when absent or of another type.
  Maybe<bool> boolean(const Node* map, std::string_view key) const;
  Maybe<std::int64_t> integer(const Node* map, std::string_view key) const;
  Maybe<std::string> string(const Node* map, std::string_view key) const;
  std::map<std::string, std::string> string_map(const Node* map) const;
};

// Identity of the object a pod template belongs to.
struct ObjectInfo {
  std::string kind, api_group, ns, name;
  const Node* root = nullptr;
  const Node* kind_node = nullptr;
  std::map<std::string, std::string> annotations;
};

// A custom kind known to embed a pod template (OpenShift DeploymentConfig, Argo Rollout,
// Knative Service): a workload even when its template has no containers.
bool is_pod_template_kind(const ObjectInfo& obj);

// Unwraps any workload kind into its pod template (metadata + spec), or returns false.
bool find_pod_template(const ObjectInfo& obj, const Node*& pod_meta, const Node*& pod_spec,
                       const Node*& spec_key, Controller& controller);

// Builds one Workload per container of the pod spec (pod_spec.cpp).
void read_pod_spec(const Reader& r, const ObjectInfo& obj, Controller controller,
                   const Node* pod_meta, const Node* pod_spec, const Node* spec_key);

// Job / CronJob / Sandbox lifecycle fields and agent-sandbox managed policies (workload_meta.cpp).
void apply_controller_fields(const Reader& r, const ObjectInfo& obj, size_t first_workload);

// Non-workload objects (objects.cpp). Returns false when the kind is not one of them.
bool read_cluster_object(const Reader& r, const ObjectInfo& obj);

// NetworkPolicy ingress/egress rule lists (objects.cpp); `egress` picks `to` over `from`.
std::vector<PolicyRuleSet> read_policy_rules(const Reader& r, const Node* list, bool egress);
// The egress half of a policy as a gate on the workloads it selects (link.cpp).
EgressGate egress_gate_of(const NetworkPolicyObject& p);

// A label selector as Kubernetes writes it (matchLabels + matchExpressions).
LabelSelector read_selector(const Node* n);

// An OpenShift Template's parameters by name: the value (the default the operator may
// override), or nullopt when none is written or it is generated at processing time
// (template_params.cpp).
using TemplateParams = std::map<std::string, std::optional<std::string>>;
TemplateParams template_params(const Node* template_root);
// A copy of `object` (its nodes in `arena`) with `${NAME}` and `${{NAME}}` filled as `oc
// process` fills them; an unknown value is `<unknown $NAME>`.
const Node* fill_template(const Node* object, const TemplateParams& params,
                          std::deque<Node>& arena);
// Whether a value holds a parameter the Template leaves unknown.
bool is_unknown_parameter(std::string_view value);

}  // namespace sbr::k8s
