#include "analyzer/support/cause.h"

namespace sbr {

std::string_view cause_name(Cause c) {
  switch (c) {
    case Cause::Repository:
      return "repository";
    case Cause::Analyzer:
      return "analyzer";
    case Cause::Environment:
      return "environment";
  }
  return "analyzer";
}

std::optional<Cause> parse_cause(std::string_view s) {
  for (Cause c : {Cause::Repository, Cause::Analyzer, Cause::Environment}) {
    if (cause_name(c) == s) return c;
  }
  return std::nullopt;
}

std::string_view cause_words(Cause c) {
  switch (c) {
    case Cause::Repository:
      return "the repository's input";
    case Cause::Analyzer:
      return "sbreview's gap";
    case Cause::Environment:
      return "a missing tool or dependency";
  }
  return "sbreview's gap";
}

}  // namespace sbr
