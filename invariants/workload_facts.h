// Facts derived from a workload that the isolation, privilege and filesystem checks share, and
// the finding sink that keeps one finding per fact when several containers inherit it.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "analyzer/check/finding.h"
#include "analyzer/check/summary.h"
#include "analyzer/engine/defaults.h"
#include "analyzer/model/model.h"
#include "invariants/object_order.h"

namespace sbr::inv {

// Which of two workloads sharing one finding names it: the stronger threat class, and among
// equals a main container, so that a pod-level finding is not attributed to an init container.
bool names_finding_better(const Workload& candidate, const Workload& current);

// Every container of a pod inherits the pod's fields (hostNetwork, a pod securityContext, the
// runtime class): reported once, at the field, naming the pod and the containers concerned.
// When the containers differ in threat class the finding keeps the strongest one, so a
// trusted sidecar never hides an untrusted agent.
//
// Workloads are added in the model's order (ObjectOrder): an object's findings are emitted as
// soon as the checks have passed its last container, and the rest when the sink is destroyed.
class FactFindings {
 public:
  FactFindings(Findings& out, const Model& model) : out_(out), order_(model) {}
  FactFindings(const FactFindings&) = delete;
  FactFindings& operator=(const FactFindings&) = delete;
  ~FactFindings() { flush(); }

  // `what` completes a sentence whose subject is the workload ("runs privileged ...").
  void add(const Workload& w, RuleId rule, std::string what, const Provenance& at,
           std::string fact_path, std::vector<Related> related = {});
  // Worded by the rule's catalog summary; `workload` is the pod or container named above.
  void add(const Workload& w, RuleId rule, MessageArgs args, const Provenance& at,
           std::string fact_path, std::vector<Related> related = {});
  void flush();

 private:
  struct Entry {
    const Workload* w = nullptr;
    RuleId rule;
    std::string what, fact_path;
    std::optional<MessageArgs> args;  // set: the message is the rule's summary
    Provenance at;
    std::vector<Related> related;
    std::vector<std::string> containers;
  };
  // The entry for this fact, or nullptr when an earlier container's entry now covers it.
  Entry* place(const Workload& w, RuleId rule, const Provenance& at, std::string fact_path,
               std::vector<Related> related);
  void emit(Entry& e);
  // Emits the entries of objects the checks have passed (all of them when `all`).
  void flush_complete(bool all);
  using Key = std::tuple<RuleId, Location, std::string, std::string, std::string>;
  Findings& out_;
  ObjectOrder order_;
  std::vector<Entry> entries_;
  std::map<Key, size_t> index_;
  std::size_t first_end_ = 0;  // the smallest object end among entries_
};

// A setting as the user wrote it: the Kubernetes field, the compose key (when given) or the
// podman/docker flag (devcontainer runArgs are flags too).
std::string spell(const Workload& w, std::string_view k8s, std::string_view cli,
                  std::string_view compose = {});

// "Deployment agents/runner" for Kubernetes objects; describe(w) otherwise.
std::string describe_pod(const Workload& w);

bool is_privileged(const Workload& w);

// The user the container process runs as, as far as the input tells.
enum class UserState { Root, NonRoot, Named, Unknown };
UserState user_state(const Workload& w);

// Whether a mount lets the container write to the host path (an overlay `:O` does not).
bool writes_host(const Mount& m);
// A volume that is still there after the run: a host path, a named volume, a claim (an
// anonymous volume only without --rm).
bool outlives_run(const Mount& m, const Workload& w);
// "host path", "named volume", "PersistentVolumeClaim", for messages.
std::string_view mount_kind_words(MountKind k);
// The mount's primary location: the host path's `path:` / the -v argument, else the mount.
const Provenance& mount_anchor(const Workload& w, const Mount& m);
// "mounted at /x" (and where), for related locations.
std::vector<Related> mount_related(const Mount& m);

// The runtime the workload gets; also resolves a RuntimeClass object in the input that the
// frontend did not link, and a cluster default class named by a RuntimeClass object.
struct ResolvedRuntime {
  engine::EffectiveRuntime rt;
  std::optional<Related> handler_line;  // the RuntimeClass `handler:` line when known
};
ResolvedRuntime resolve_runtime(const Model& model, const Workload& w);
std::string_view runtime_kind_name(engine::RuntimeKind k);

// Pod Security Admission: a suffix saying the namespace's enforce label would reject the pod,
// or "" when it would not (or the workload is not a Kubernetes pod).
enum class PsaLevel { Baseline, Restricted };
std::string admission_note(const Workload& w, PsaLevel rejected_at);

}  // namespace sbr::inv
