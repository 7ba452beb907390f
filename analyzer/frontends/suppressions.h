// Reads the suppressions people write in their files: `sbreview-ignore` comments in any text
// file the run reads (YAML, shell, Dockerfile, JSONC, Markdown, gates) and the
// `sbreview.dev/ignore` annotation on Kubernetes objects. Grammar (docs/suppressions.md):
//
//   # sbreview-ignore SB2001[,SB3003] [until YYYY-MM-DD] -- reason
#pragma once

#include <string_view>
#include <vector>

#include "analyzer/model/model.h"
#include "analyzer/source/source.h"

namespace sbr {

// The text after the marker, or one entry of the annotation: rule ids, expiry and reason, or
// an `error` saying how to write it.
Suppression parse_suppression(std::string_view text);

// Every `sbreview-ignore` comment of the file, in order. Text that only mentions the marker
// outside a comment is not a suppression.
void read_suppression_comments(const SourceFile& file, std::vector<Suppression>& out);

// One suppression per annotated object (its workloads' identities), entries split at `;`.
// Located at the annotation's line in the object's file when it is written there.
void read_suppression_annotations(const Model& model, const SourceSet& sources,
                                  std::vector<Suppression>& out);

}  // namespace sbr
