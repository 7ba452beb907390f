#include "invariants/common.h"

#include <fmt/format.h>

namespace sbr::inv {

std::string subject_of(const Workload& w) {
  return fmt::format("{}/{}/{}/{}", w.id.kind, w.id.ns, w.id.name, w.id.container);
}

namespace {

std::string describe_configured(const Workload& w) {
  if (is_kubernetes(w)) {
    std::string ns = w.id.ns.empty() ? "" : w.id.ns + "/";
    if (w.pod_only)
      return fmt::format("{} {}{} (a pod spec without containers)", w.id.kind, ns, w.id.name);
    // A container without a name (an invalid object, still judged) is said so, not left blank.
    return fmt::format("{} {}{}, container {}", w.id.kind, ns, w.id.name,
                       w.id.container.empty() ? "(unnamed)" : reader_name(w.id.container));
  }
  return fmt::format("{} {} ({})", w.id.kind, w.id.name, reader_name(w.id.container));
}

}  // namespace

std::string describe(const Workload& w) {
  // An example read from a document (docs/doc-claims.md) says so wherever it is named.
  if (!w.example_of.empty())
    return fmt::format("example ({}) {}", w.example_of, describe_configured(w));
  return describe_configured(w);
}

namespace {

// A helper step or a test container that the inference lowered to untrusted-input for being
// one (a test launch with agent evidence of its own stays untrusted-code: judged alone).
RepeatedStep repeated_step(const Workload& w) {
  if (w.threat != ThreatClass::UntrustedInput) return RepeatedStep::None;
  for (const ThreatEvidence& e : w.threat_evidence) {
    if (e.points_to != ThreatClass::UntrustedInput) continue;
    if (e.signal == ThreatSignal::TestScript) return RepeatedStep::Test;
    if (e.signal == ThreatSignal::HelperStep) return RepeatedStep::Helper;
  }
  return RepeatedStep::None;
}

}  // namespace

Finding make(const Workload& w, RuleId rule, std::string message, const Provenance& at,
             std::string fact_path) {
  Finding f;
  f.rule_id = rule;
  f.message = MessageText::around(std::move(message), w.id.name);
  f.at = at.at;
  f.subject = subject_of(w);
  f.identity = identity_key(w.id);
  f.fact_path = std::move(fact_path);
  f.share_trail(at);
  f.threat = w.threat;
  f.engine = is_kubernetes(w)                   ? "kubernetes"
             : w.engine == Engine::Compose      ? "compose"
             : w.engine == Engine::Devcontainer ? "devcontainer"
                                                : "launcher";
  f.threat_reason = w.threat_reason;
  f.label = describe(w);
  f.step = repeated_step(w);
  return f;
}

Finding make(const Workload& w, RuleId rule, MessageArgs args, const Provenance& at,
             std::string fact_path) {
  default_arg(args, "workload", describe(w));
  return make(w, rule, rule_message(rule, args), at, std::move(fact_path));
}

void default_arg(MessageArgs& args, const char* name, std::string value) {
  for (const MessageArg& a : args) {
    if (std::string_view(a.name) == name) return;
  }
  args.push_back({name, std::move(value)});
}

const Provenance& container_anchor(const Workload& w) {
  return w.container_from.at.valid() ? w.container_from : object_anchor(w);
}
const Provenance& pod_anchor(const Workload& w) {
  return w.pod_spec_from.at.valid() ? w.pod_spec_from : object_anchor(w);
}
const Provenance& object_anchor(const Workload& w) {
  return w.object_from;
}
const Provenance& container_security_anchor(const Workload& w) {
  return w.security_context_from.at.valid() ? w.security_context_from : container_anchor(w);
}
const Provenance& pod_security_anchor(const Workload& w) {
  return w.pod_security_context_from.at.valid() ? w.pod_security_context_from : pod_anchor(w);
}

const Provenance& omitted_anchor(const Workload& w, std::string_view field,
                                 const Provenance& fallback) {
  for (const Workload::Omitted& o : w.omitted) {
    if (o.field == field) return o.from;
  }
  return fallback;
}

}  // namespace sbr::inv
