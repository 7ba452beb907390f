#include "invariants/workload_facts.h"

#include <fmt/format.h>

#include <algorithm>

#include "invariants/common.h"

namespace sbr::inv {
namespace {

int threat_rank(ThreatClass t) {
  switch (t) {
    case ThreatClass::UntrustedCode:
    case ThreatClass::MultiTenant:
      return 3;
    case ThreatClass::UntrustedInput:
      return 2;
    case ThreatClass::Trusted:
      return 1;
  }
  return 3;
}

}  // namespace

bool names_finding_better(const Workload& candidate, const Workload& current) {
  int now = threat_rank(current.threat), cand = threat_rank(candidate.threat);
  return cand > now || (cand == now && current.role != ContainerRole::Main &&
                        candidate.role == ContainerRole::Main);
}

void FactFindings::add(const Workload& w, RuleId rule, std::string what, const Provenance& at,
                       std::string fact_path, std::vector<Related> related) {
  if (Entry* e = place(w, rule, at, std::move(fact_path), std::move(related))) {
    e->what = std::move(what);
  }
}

void FactFindings::add(const Workload& w, RuleId rule, MessageArgs args, const Provenance& at,
                       std::string fact_path, std::vector<Related> related) {
  if (Entry* e = place(w, rule, at, std::move(fact_path), std::move(related))) {
    e->args = std::move(args);
  }
}

FactFindings::Entry* FactFindings::place(const Workload& w, RuleId rule, const Provenance& at,
                                         std::string fact_path, std::vector<Related> related) {
  order_.reach(w);
  if (!entries_.empty() && first_end_ < order_.reached()) flush_complete(false);
  Key key{rule, at.at, fact_path, at.condition().text,
          w.id.render_root + "\x1f" + w.id.kind + "\x1f" + w.id.ns + "\x1f" + w.id.name};
  auto it = index_.find(key);
  if (it == index_.end() || !at.at.valid()) {
    if (entries_.empty() || order_.end_of(w) < first_end_) first_end_ = order_.end_of(w);
    index_.emplace(key, entries_.size());
    Entry& e = entries_.emplace_back();
    e.w = &w;
    e.rule = rule;
    e.fact_path = std::move(fact_path);
    e.at = at;
    e.related = std::move(related);
    e.containers.push_back(reader_name(w.id.container));
    return &e;
  }
  Entry& e = entries_[it->second];
  // Launches with one label (a function's launch at each level of its recursion, a loop's
  // at each iteration) are one place for the reader: named once.
  if (std::string name = reader_name(w.id.container);
      std::find(e.containers.begin(), e.containers.end(), name) == e.containers.end())
    e.containers.push_back(std::move(name));
  // The strongest threat class names the finding; among equals a main container does, so a
  // pod-level finding is not attributed to an init container.
  if (names_finding_better(w, *e.w)) e.w = &w;
  return nullptr;
}

void FactFindings::flush() {
  flush_complete(true);
}

void FactFindings::flush_complete(bool all) {
  first_end_ = emit_complete(entries_, index_, order_, all, [this](Entry& e) { emit(e); });
}

void FactFindings::emit(Entry& e) {
  std::string who;
  if (e.containers.size() > 1 && is_kubernetes(*e.w)) {
    who = describe_pod(*e.w) + " (containers " + fmt::format("{}", fmt::join(e.containers, ", ")) +
          ")";
  } else if (e.containers.size() > 1) {
    // A compose file's services, a script's launches: "compose stack.yml (planner, coder)".
    who = fmt::format("{} {} ({})", e.w->id.kind, e.w->id.name, fmt::join(e.containers, ", "));
  } else {
    who = describe(*e.w);
  }
  std::string message;
  if (e.args) {
    default_arg(*e.args, "workload", std::move(who));
    message = rule_message(e.rule, *e.args);
  } else {
    message = who + " " + e.what;
  }
  Finding f = make(*e.w, e.rule, std::move(message), e.at, e.fact_path);
  f.related = std::move(e.related);
  out_.add(std::move(f));
}

std::string spell(const Workload& w, std::string_view k8s, std::string_view cli,
                  std::string_view compose) {
  if (is_kubernetes(w)) return std::string(k8s);
  if (w.engine == Engine::Compose && !compose.empty()) return std::string(compose);
  return std::string(cli);
}

std::string describe_pod(const Workload& w) {
  if (!is_kubernetes(w)) return describe(w);
  std::string ns = w.id.ns.empty() ? "" : w.id.ns + "/";
  return fmt::format("{} {}{}", w.id.kind, ns, w.id.name);
}

bool is_privileged(const Workload& w) {
  return w.identity.privileged && w.identity.privileged->value;
}

UserState user_state(const Workload& w) {
  if (auto uid = engine::effective_uid(w)) return *uid == 0 ? UserState::Root : UserState::NonRoot;
  if (w.identity.user_name) {
    return w.identity.user_name->value == "root" ? UserState::Root : UserState::Named;
  }
  // The kubelet refuses to start a runAsNonRoot container whose image user is root.
  if (w.identity.run_as_non_root && w.identity.run_as_non_root->value) return UserState::NonRoot;
  // podman --userns=keep-id runs the process as the invoking user's uid unless --user says
  // otherwise.
  if (w.identity.userns && w.identity.userns->value.rfind("keep-id", 0) == 0) {
    return UserState::NonRoot;
  }
  return UserState::Unknown;
}

bool writes_host(const Mount& m) {
  if (m.overlay) return false;
  return !(m.read_only && m.read_only->value);
}

bool outlives_run(const Mount& m, const Workload& w) {
  if (m.kind == MountKind::NamedVolume && m.source.empty()) {
    // An anonymous volume (`-v /home/agent`) is removed with the container under --rm.
    return !(w.lifecycle.remove_on_exit && w.lifecycle.remove_on_exit->value);
  }
  return m.kind == MountKind::PersistentVolumeClaim || m.kind == MountKind::HostPath ||
         m.kind == MountKind::NamedVolume;
}

std::string_view mount_kind_words(MountKind k) {
  switch (k) {
    case MountKind::PersistentVolumeClaim:
      return "PersistentVolumeClaim";
    case MountKind::HostPath:
      return "host path";
    default:
      return "named volume";
  }
}

const Provenance& mount_anchor(const Workload& w, const Mount& m) {
  if (m.source_from.at.valid()) return m.source_from;
  if (m.mount_from.at.valid()) return m.mount_from;
  return container_anchor(w);
}

std::vector<Related> mount_related(const Mount& m) {
  std::vector<Related> r;
  if (m.mount_from.at.valid() && m.mount_from.at != m.source_from.at) {
    std::string ro = m.read_only && m.read_only->value ? " read-only" : "";
    r.push_back({m.mount_from.at, fmt::format("mounted{} at {}", ro, m.shown_target())});
  }
  return r;
}

ResolvedRuntime resolve_runtime(const Model& model, const Workload& w) {
  ResolvedRuntime out;
  out.rt = engine::effective_runtime(w, model.cluster_facts);
  auto find_class = [&](const std::string& name) -> const RuntimeClassObject* {
    for (const auto& rc : model.cluster.runtime_classes) {
      if (rc.ref.name == name) return &rc;
    }
    return nullptr;
  };
  if (w.runtime_handler) {
    out.handler_line = Related{
        w.runtime_handler->from.at,
        fmt::format("RuntimeClass {} has handler {}", out.rt.name, w.runtime_handler->value)};
    return out;
  }
  if (!is_kubernetes(w) && !out.rt.name.empty()) {
    // --runtime may be a path to the binary: /usr/local/bin/runsc is runsc.
    std::string base = out.rt.name.substr(out.rt.name.find_last_of('/') + 1);
    out.rt.kind = engine::runtime_kind_of_handler(base);
    return out;
  }
  if (is_kubernetes(w) && !out.rt.name.empty()) {
    if (const RuntimeClassObject* rc = find_class(out.rt.name)) {
      out.rt.handler = rc->handler;
      out.rt.kind = engine::runtime_kind_of_handler(rc->handler);
      out.handler_line = Related{rc->handler_from.at, fmt::format("RuntimeClass {} has handler {}",
                                                                  rc->ref.name, rc->handler)};
    }
  }
  return out;
}

std::string_view runtime_kind_name(engine::RuntimeKind k) {
  switch (k) {
    case engine::RuntimeKind::Runc:
      return "runc-class";
    case engine::RuntimeKind::GVisor:
      return "gVisor";
    case engine::RuntimeKind::MicroVm:
      return "microVM";
  }
  return "runc-class";
}

std::string admission_note(const Workload& w, PsaLevel rejected_at) {
  if (w.engine != Engine::Kubelet || !w.pod_security) return "";
  const std::string& e = w.pod_security->enforce;
  bool rejects = e == "restricted" || (e == "baseline" && rejected_at == PsaLevel::Baseline);
  if (!rejects) return "";
  std::string ns = w.id.ns.empty() ? "its namespace" : "namespace " + w.id.ns;
  return fmt::format(" (Pod Security Admission enforce={} on {} would reject this pod)", e, ns);
}

}  // namespace sbr::inv
