#include "analyzer/support/severity.h"

namespace sbr {

std::string_view severity_name(Severity s) {
  switch (s) {
    case Severity::Note:
      return "note";
    case Severity::Low:
      return "low";
    case Severity::Medium:
      return "medium";
    case Severity::High:
      return "high";
    case Severity::Critical:
      return "critical";
  }
  return "note";
}

std::optional<Severity> parse_severity(std::string_view s) {
  for (Severity v :
       {Severity::Note, Severity::Low, Severity::Medium, Severity::High, Severity::Critical}) {
    if (severity_name(v) == s) return v;
  }
  return std::nullopt;
}

}  // namespace sbr
