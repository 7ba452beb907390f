// The one loop every YAML/JSON frontend runs: each document of a file, with parse errors,
// duplicate keys and alias expansion past the node budget reported as located problems rather
// than trusted or skipped.
#pragma once

#include <functional>
#include <string_view>
#include <vector>

#include "analyzer/model/model.h"
#include "analyzer/support/yaml_splice.h"
#include "analyzer/support/yaml_tree.h"

namespace sbr {

// A stream read next to another that differs from it in a few lines (a Helm switch's flipped
// render of a template, and its default render).
struct StreamReuse {
  std::string_view base_text;             // the other stream's text
  const yaml::Documents* base = nullptr;  // its documents, each one read; nullptr: none
  yaml::Documents* keep = nullptr;        // receives this stream's documents when every one
                                          // was read and reported (left empty otherwise)
};

// Calls `fn` for every document that parsed and stays within budget. `what` names the format
// in messages ("YAML", "compose file", "devcontainer.json"). After `max_documents` documents
// (limits.max_documents; 1 for formats that hold a single document) it stops, and a document
// past the bound is reported (invariant 0) rather than silently left out. With `reuse.base`,
// the documents come from yaml::splice_stream where it applies (the same documents, the same
// problems, a fraction of the parse).
void for_each_document(std::string_view text, FileId file, std::string_view what,
                       std::vector<Problem>& problems,
                       const std::function<void(const yaml::Document&)>& fn,
                       size_t max_documents = static_cast<size_t>(-1),
                       const StreamReuse& reuse = {});

}  // namespace sbr
