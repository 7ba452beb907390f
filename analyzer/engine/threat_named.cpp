// A stack whose sandboxes are started at run time: its orchestrator (a compose service holding
// the runtime socket, a Kubernetes workload whose account may create pods or sandboxes) is in
// the input, the sandboxes are not. A workload of that stack with no evidence of its own whose
// name says it is the platform (`sandbox-web`, `admin-ui`, `catalogue-db`) is not one of the
// sandboxes: they are the containers the orchestrator starts (docs/threat-classes.md).
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "analyzer/engine/threat_evidence.h"
#include "analyzer/support/strings.h"

namespace sbr::engine::threat {
namespace {

bool has_signal(const Evidence& ev, std::initializer_list<ThreatSignal> signals) {
  return std::any_of(ev.begin(), ev.end(), [&](const ThreatEvidence& e) {
    return std::find(signals.begin(), signals.end(), e.signal) != signals.end();
  });
}

bool no_evidence_of_its_own(const Evidence& ev) {
  return std::all_of(ev.begin(), ev.end(),
                     [](const ThreatEvidence& e) { return e.signal == ThreatSignal::Launcher; });
}

// The stack a workload belongs to: its compose project, or its Kubernetes namespace and the
// directory above its manifest's (a chart's templates/, a manifests/ tree).
std::string stack_of(const Model& m, const Workload& w) {
  if (w.engine == Engine::Compose) return "compose:" + w.id.name;
  if (!is_kubernetes(w)) return "";
  std::string dir = dir_of(m.files.path(w.object_from.at.file));
  return fmt::format("k8s:{}:{}", w.id.ns, dir_of(dir));
}

std::string_view name_of(const Workload& w) {
  return w.engine == Engine::Compose ? w.id.container : w.id.name;
}

}  // namespace

void named_platform_evidence(const Model& m, std::vector<Evidence>& evidence) {
  // The orchestrators of each stack, by their own evidence.
  std::map<std::string, std::size_t> orchestrator;
  for (std::size_t i = 0; i < m.workloads.size(); ++i) {
    if (strong_code(evidence[i]) ||
        !has_signal(evidence[i], {ThreatSignal::Orchestrator, ThreatSignal::RbacPods,
                                  ThreatSignal::RbacSandboxes}))
      continue;
    std::string stack = stack_of(m, m.workloads[i]);
    if (!stack.empty()) orchestrator.emplace(stack, i);
  }
  for (std::size_t i = 0; i < m.workloads.size(); ++i) {
    const Workload& w = m.workloads[i];
    if (!no_evidence_of_its_own(evidence[i])) continue;
    auto it = orchestrator.find(stack_of(m, w));
    if (it == orchestrator.end()) continue;
    std::string word = platform_word(name_of(w));
    if (word.empty()) continue;
    const Workload& o = m.workloads[it->second];
    add(evidence[i], ThreatSignal::PlatformName, ThreatClass::UntrustedInput,
        fmt::format("its name {} says it is the platform ({}), and {} starts this stack's "
                    "sandboxes: they are the containers it starts",
                    name_of(w), word, reader_name(o)),
        w.object_from);
  }
}

}  // namespace sbr::engine::threat
