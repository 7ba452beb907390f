#include "analyzer/model/provenance.h"

namespace sbr {

namespace {

const Trail& no_trail() {
  static const Trail kNone;
  return kNone;
}

std::shared_ptr<Trail> make_trail(Condition c, std::vector<Step> v) {
  if (c.always() && c.atoms.empty() && !c.needs_switch && v.empty()) return nullptr;
  return std::make_shared<Trail>(Trail{std::move(c), std::move(v)});
}

}  // namespace

TrailRef::TrailRef(Condition c, std::vector<Step> v)
    : trail_(make_trail(std::move(c), std::move(v))) {}

const Condition& TrailRef::condition() const {
  return (trail_ ? *trail_ : no_trail()).condition;
}

const std::vector<Step>& TrailRef::via() const {
  return (trail_ ? *trail_ : no_trail()).via;
}

void TrailRef::set_condition(Condition c) {
  trail_ = make_trail(std::move(c), via());
}

void TrailRef::set_via(std::vector<Step> v) {
  trail_ = make_trail(condition(), std::move(v));
}

Trail& TrailRef::own_trail() {
  if (!trail_) {
    trail_ = std::make_shared<Trail>();
  } else if (trail_.use_count() > 1) {
    trail_ = std::make_shared<Trail>(*trail_);
  }
  return *trail_;
}

Condition& TrailRef::edit_condition() {
  return own_trail().condition;
}

std::vector<Step>& TrailRef::edit_via() {
  return own_trail().via;
}

// The role as reports name it: "via run.sh:12 (assigned flags)".
std::string_view step_role_name(StepRole r) {
  switch (r) {
    case StepRole::Used:
      return "used";
    case StepRole::Assigned:
      return "assigned";
    case StepRole::Element:
      return "array element";
    case StepRole::Default:
      return "default";
    case StepRole::Argument:
      return "function argument";
    case StepRole::Output:
      return "printed";
    case StepRole::Rendered:
      return "rendered";
    case StepRole::Template:
      return "template";
    case StepRole::Values:
      return "values";
    case StepRole::Patched:
      return "patched";
  }
  return "step";
}

}  // namespace sbr
