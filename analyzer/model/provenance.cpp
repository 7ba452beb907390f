#include "analyzer/model/provenance.h"

namespace sbr {

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
