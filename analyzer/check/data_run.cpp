#include "analyzer/check/data_run.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <tuple>

#include "analyzer/model/enum_names.h"
#include "invariants/common.h"
#include "invariants/object_order.h"
#include "invariants/workload_facts.h"

namespace sbr::match {
namespace {

// Stands for the workload's name in a grouped message until the group's members are known.
constexpr std::string_view kWorkloadMark = "\x01workload\x01";

// `display`: a message's text, which names the parts a script left unknown (Value::shown); a
// fact (and so a fingerprint) keeps the value as the checks read it.
std::string value_text(const Value& v, bool display) {
  switch (v.kind) {
    case Value::Kind::Unset:
      return "";
    case Value::Kind::Bool:
      return v.b ? "true" : "false";
    case Value::Kind::Int:
      return std::to_string(v.i);
    case Value::Kind::Str:
      return std::string(display && !v.shown.empty() ? v.shown : v.s);
    case Value::Kind::List:
      return fmt::format("{}", fmt::join(*v.list, ", "));
  }
  return "";
}

std::string object_name(const Workload& w) {
  return fmt::format("{} {}", w.id.kind, w.id.ns.empty() ? w.id.name : w.id.ns + "/" + w.id.name);
}

std::string builtin_text(Builtin b, const Workload& w) {
  switch (b) {
    case Builtin::Workload:
      return inv::describe(w);
    case Builtin::Pod:
      return inv::describe_pod(w);
    case Builtin::Object:
      return object_name(w);
    case Builtin::AdmissionBaseline:
      return inv::admission_note(w, inv::PsaLevel::Baseline);
    case Builtin::AdmissionRestricted:
      return inv::admission_note(w, inv::PsaLevel::Restricted);
    case Builtin::QosContext:
      return w.resources.qos ? fmt::format(" (pod QoS class {})", qos_name(*w.resources.qos)) : "";
  }
  return "";
}

struct Render {
  const Scope& scope;
  const std::vector<std::optional<std::string>>& vars;
  bool mark_workload = false;
  bool display = false;  // a message, not a fact

  std::string operator()(const Template& t) const {
    std::string out;
    for (const Template::Part& p : t.parts) {
      switch (p.k) {
        case Template::Part::K::Text:
          out += p.text;
          break;
        case Template::Part::K::Field:
          out += value_text(get(p.field, scope), display);
          break;
        case Template::Part::K::Var:
          if (vars[p.var]) out += *vars[p.var];
          break;
        case Template::Part::K::Builtin:
          if (p.builtin == Builtin::Workload && mark_workload) {
            out += kWorkloadMark;
          } else {
            out += builtin_text(p.builtin, *scope.workload());
          }
          break;
      }
    }
    return out;
  }
};

std::vector<std::optional<std::string>> eval_vars(const Case& c, const Scope& s) {
  std::vector<std::optional<std::string>> out(c.vars.size());
  const std::vector<std::optional<std::string>> none;
  for (size_t i = 0; i < c.vars.size(); ++i) {
    for (const Var::Choice& ch : c.vars[i].choices) {
      if (ch.when && !eval(*ch.when, s)) continue;
      out[i] = Render{s, none, false, false}(ch.text);
      break;
    }
  }
  return out;
}

// The finding's subject and identity for an object that is not in a workload.
Finding model_finding(const Scope& s, RuleId id, std::string message, const Provenance& at,
                      std::string fact) {
  Finding f;
  f.rule_id = id;
  f.message = std::move(message);
  f.at = at.at;
  f.share_trail(at);
  f.fact_path = std::move(fact);
  const Scope* root = &s;
  while (root->parent != nullptr && root->parent->kind != nullptr) root = root->parent;
  std::string_view kind = root->kind->name;
  if (kind == "image") {
    f.subject = "image " + s.model->files.path(root->as<ImageBuild>().file);
  } else if (kind == "namespace") {
    f.subject = "Namespace//" + root->as<NamespaceObject>().ref.name;
  } else if (kind == "config_data") {
    f.subject = root->as<DataEntry>().object;
  } else if (kind == "service") {
    const auto& svc = root->as<ServiceObject>();
    f.subject = "Service/" + svc.ref.ns + "/" + svc.ref.name;
  } else if (kind == "seccomp_profile") {
    f.subject = "seccomp " + root->as<SeccompProfile>().path;
  } else if (kind == "script") {
    f.subject = s.model->files.path(root->as<ScriptFacts>().file);
    f.threat = ThreatClass::UntrustedCode;
    f.threat_reason = "a launcher script: judged for the sandbox it starts";
  }
  return f;
}

// A finding waiting for the other containers of its pod (Group::PodFact) or for a better
// reporter (Group::OncePerObject, OncePerPod).
struct Pending {
  RuleId id;
  const Workload* w = nullptr;
  std::string message;  // with kWorkloadMark for PodFact
  Provenance at;
  std::string fact;
  std::vector<Related> related;
  std::vector<std::string> containers;
};

// Workloads come in the model's order (the walk visits each workload with its children before
// the next): an object's pending findings are emitted once the walk has passed it.
class Runner {
 public:
  Runner(Findings& out, const Model& model) : out_(out), order_(model) {}

  void match(const Scope& s, RuleId id, const Case& c) {
    if (!eval(c.where, s)) return;
    auto vars = eval_vars(c, s);
    for (int r : c.require) {
      if (!vars[r]) return;
    }
    Provenance at;
    for (const FieldRef& ref : c.at) {
      Value v = get(ref, s);
      if (v.from != nullptr && v.from->at.valid()) {
        at = *v.from;
        break;
      }
    }
    const Workload* w = s.workload();
    if (w != nullptr) reach(*w);
    Render render{s, vars, c.group == Group::PodFact, true};
    std::string message = render(c.summary);
    std::string fact = Render{s, vars, false, false}(c.fact);
    std::vector<Related> related;
    for (const Case::RelatedT& r : c.related) {
      Value v = get(r.at, s);
      if (v.from == nullptr || !v.from->at.valid() || v.from->at == at.at) continue;
      related.push_back({v.from->at, Render{s, vars, false, true}(r.message)});
    }
    if (w == nullptr) {
      Finding f = model_finding(s, id, std::move(message), at, std::move(fact));
      f.related = std::move(related);
      out_.add(std::move(f));
      return;
    }
    Pending p{id, w, std::move(message), std::move(at), std::move(fact), std::move(related), {}};
    switch (c.group) {
      case Group::None:
        emit(p, p.message);
        return;
      case Group::PodFact:
        pod_fact(std::move(p));
        return;
      case Group::OncePerObject:
      case Group::OncePerPod:
        once(std::move(p), c.group);
        return;
    }
  }

  void flush() { flush_complete(true); }

 private:
  void reach(const Workload& w) {
    order_.reach(w);
    if (first_end_ < order_.reached()) flush_complete(false);
  }

  void flush_complete(bool all) {
    std::size_t facts_end =
        inv::emit_complete(facts_, fact_index_, order_, all, [this](Pending& p) { emit_fact(p); });
    std::size_t once_end = SIZE_MAX;
    for (auto it = once_.begin(); it != once_.end();) {
      if (all || order_.complete(*it->second.w)) {
        emit(it->second, it->second.message);
        it = once_.erase(it);
      } else {
        once_end = std::min(once_end, order_.end_of(*it->second.w));
        ++it;
      }
    }
    first_end_ = std::min(facts_end, once_end);
  }

  // A pod fact: the message names the pod's containers the fact holds for.
  void emit_fact(Pending& p) {
    std::string who;
    const Workload& w = *p.w;
    if (p.containers.size() > 1 && is_kubernetes(w)) {
      who = fmt::format("{} (containers {})", inv::describe_pod(w), fmt::join(p.containers, ", "));
    } else if (p.containers.size() > 1) {
      who = fmt::format("{} {} ({})", w.id.kind, w.id.name, fmt::join(p.containers, ", "));
    } else {
      who = inv::describe(w);
    }
    std::string message = p.message;
    for (size_t at = message.find(kWorkloadMark); at != std::string::npos;
         at = message.find(kWorkloadMark, at + who.size())) {
      message.replace(at, kWorkloadMark.size(), who);
    }
    emit(p, message);
  }

  void emit(Pending& p, const std::string& message) {
    Finding f = inv::make(*p.w, p.id, message, p.at, p.fact);
    f.related = std::move(p.related);
    out_.add(std::move(f));
  }

  // invariants/workload_facts.h FactFindings: the strongest threat class names the finding,
  // among equals a main container; the message and related places are the first container's.
  void pod_fact(Pending p) {
    const Workload& w = *p.w;
    FactKey key{p.id, p.at.at, p.fact, p.at.condition().text,
                w.id.render_root + "\x1f" + w.id.kind + "\x1f" + w.id.ns + "\x1f" + w.id.name};
    auto it = fact_index_.find(key);
    if (it == fact_index_.end() || !p.at.at.valid()) {
      first_end_ = std::min(first_end_, order_.end_of(w));
      fact_index_.emplace(key, facts_.size());
      p.containers.push_back(reader_name(w.id.container));
      facts_.push_back(std::move(p));
      return;
    }
    Pending& e = facts_[it->second];
    // A launcher's project rendered on several paths holds each service once per variant.
    std::string name = reader_name(w.id.container);
    if (std::find(e.containers.begin(), e.containers.end(), name) == e.containers.end())
      e.containers.push_back(std::move(name));
    if (inv::names_finding_better(w, *e.w)) e.w = &w;
  }

  // Once per object or pod (and threat class): the first main container reports, else the
  // first container.
  void once(Pending p, Group g) {
    const Workload& w = *p.w;
    std::string key;
    if (g == Group::OncePerObject) {
      const Location& at = w.object_from.at;
      key = fmt::format("{}\x1f{}:{}:{}\x1f{}\x1f{}\x1f{}", p.id, at.file, at.line, at.column,
                        w.id.kind, w.id.name, static_cast<int>(w.threat));
    } else {
      const Location& at = w.pod_spec_from.at.valid() ? w.pod_spec_from.at : w.object_from.at;
      std::string unit = is_kubernetes(w) ? w.id.name : w.id.name + "\x1f" + w.id.container;
      key = fmt::format("{}\x1f{}\x1f{}\x1f{}\x1f{}\x1f{}:{}:{}\x1f{}\x1f{}", p.id,
                        w.id.render_root, w.id.kind, w.id.ns, unit, at.file, at.line, at.column,
                        static_cast<int>(w.threat), p.fact);
    }
    auto it = once_.find(key);
    if (it == once_.end()) {
      first_end_ = std::min(first_end_, order_.end_of(w));
      once_.emplace(std::move(key), std::move(p));
    } else if (it->second.w->role != ContainerRole::Main && w.role == ContainerRole::Main) {
      it->second = std::move(p);
    }
  }

  using FactKey = std::tuple<RuleId, Location, std::string, std::string, std::string>;
  Findings& out_;
  inv::ObjectOrder order_;
  std::size_t first_end_ = SIZE_MAX;  // the smallest object end among the pending findings
  std::vector<Pending> facts_;
  std::map<FactKey, size_t> fact_index_;
  std::map<std::string, Pending> once_;
};

struct CaseRef {
  RuleId id;
  const Case* c;
};

}  // namespace

void run_data_rules(const Model& model, const std::vector<RuleRef>& rules, Findings& out) {
  const auto& kinds = object_kinds();
  std::vector<std::vector<CaseRef>> by_kind(kinds.size());
  for (const RuleRef& r : rules) {
    for (const Case& c : r.rule->cases) by_kind[c.kind->index].push_back({r.id, &c});
  }
  // A kind is walked when it or a kind inside it has cases (children come after parents).
  std::vector<bool> needed(kinds.size(), false);
  for (size_t i = kinds.size(); i-- > 0;) {
    needed[i] = needed[i] || !by_kind[i].empty();
    if (needed[i] && !kinds[i].parent.empty()) needed[find_kind(kinds[i].parent)->index] = true;
  }
  Runner runner(out, model);
  walk(
      model,
      [&](const Scope& s) {
        for (const CaseRef& c : by_kind[s.kind->index]) runner.match(s, c.id, *c.c);
      },
      [&](const KindDef& k) { return needed[k.index]; });
  runner.flush();
}

}  // namespace sbr::match
