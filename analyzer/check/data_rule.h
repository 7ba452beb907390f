// A rule written as data: its `match:` (one case or a list of cases), each selecting objects of
// one kind with a predicate, and saying where the finding points, what its fingerprint's fact
// path is and how its message reads. Compiled once when the catalog loads; run by
// check/data_run.h. The language: docs/rules/writing-rules.md.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/check/matcher.h"
#include "analyzer/support/result.h"
#include "analyzer/support/yaml_tree.h"

namespace sbr::match {

// Message helpers a template may name besides fields and vars.
enum class Builtin : std::uint8_t {
  Workload,             // the workload (or the pod and its containers, grouped)
  Pod,                  // the pod's object ("Deployment agents/runner")
  Object,               // the object ("Deployment agents/runner"), launchers as workloads
  AdmissionBaseline,    // " (Pod Security Admission enforce=... would reject this pod)" or ""
  AdmissionRestricted,  // the same at the restricted level
  QosContext,           // " (pod QoS class Burstable)" or ""
};

// `{name}` references and literal text. `{{`/`}}` are literal braces.
struct Template {
  struct Part {
    enum class K : std::uint8_t { Text, Field, Var, Builtin } k = K::Text;
    std::string text;
    FieldRef field;
    int var = -1;
    Builtin builtin = Builtin::Workload;
  };
  std::vector<Part> parts;
  bool uses_workload = false;
};

// A named text chosen per object: the first choice whose `when` holds (none: unset).
struct Var {
  std::string name;
  struct Choice {
    std::optional<Pred> when;
    Template text;
  };
  std::vector<Choice> choices;
};

// How findings of one case that several containers share are reported.
enum class Group : std::uint8_t {
  None,           // one finding per matched object
  PodFact,        // containers of one pod with the fact at the same place: one finding naming them
  OncePerObject,  // once per object (kind line) and threat class, main containers first
  OncePerPod,     // once per pod, fact and threat class, main containers first
};

struct Case {
  const KindDef* kind = nullptr;
  std::vector<const KindDef*> chain;  // kind, then its enclosing kinds
  Pred where;
  std::vector<FieldRef> at;  // the first one with a location is where the finding points
  struct RelatedT {
    FieldRef at;
    Template message;
  };
  std::vector<RelatedT> related;
  Template fact;     // the fingerprint's fact path
  Template summary;  // the message
  std::vector<Var> vars;
  std::vector<int> require;  // vars that must be set for the case to report
  Group group = Group::None;
};

struct DataRule {
  std::vector<Case> cases;
};

// Compiles `match:` (with the rule's `vars:` and `summary:`, both optional nodes). `file` names
// the rule file in errors.
Result<DataRule> compile_rule(std::string_view file, const yaml::Node& match,
                              const yaml::Node* vars, const yaml::Node* summary);

}  // namespace sbr::match
