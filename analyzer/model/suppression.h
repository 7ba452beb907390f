// Suppressions written in the input: a comment naming rule ids with a reason, on the line of a
// finding or the line before it, or a Kubernetes annotation on the object. The model records
// what is written and where; whether one applies, lacks a reason, expired or matched nothing is
// the runner's verdict (analyzer/check/runner.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analyzer/model/provenance.h"

namespace sbr {

enum class SuppressionKind : std::uint8_t {
  Comment,     // `# sbreview-ignore SB2001 -- reason` (also `//` and `<!-- -->`)
  Annotation,  // `sbreview.dev/ignore: "SB2001 -- reason"` on a Kubernetes object
};

struct Suppression {
  SuppressionKind kind = SuppressionKind::Comment;
  Location at;                     // the comment or the object carrying the annotation
  std::vector<std::string> rules;  // rule ids as written (SB2001)
  std::string reason;              // "" when none was given: the suppression is ignored
  std::string expires;             // YYYY-MM-DD, or ""
  std::string error;               // what is wrong with how it is written, or ""
  // Comment: findings located on these lines of at.file (its own line, and for a comment
  // alone on its line, the next line that is neither blank nor a comment).
  std::uint32_t line = 0, next_line = 0;
  // Annotation: the identity keys of the workloads of the annotated object.
  std::vector<std::string> identities;
};

inline constexpr const char* kIgnoreMarker = "sbreview-ignore";
inline constexpr const char* kIgnoreAnnotation = "sbreview.dev/ignore";

}  // namespace sbr
