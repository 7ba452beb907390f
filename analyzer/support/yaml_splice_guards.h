// The shapes of YAML a spliced re-read refuses because their reading depends on what surrounds
// them. Internal to yaml_splice.cpp and its tests.
#pragma once

#include <cstdint>
#include <string_view>

#include "analyzer/support/yaml_splice_lines.h"
#include "analyzer/support/yaml_tree.h"

namespace sbr::yaml::splice {

// A key that no `:` followed, anywhere under `n`.
bool bare_key(const Node* n);

// A line whose first token is a `:` value indicator.
bool value_line(std::string_view line);

// The first line after the region that holds more than a comment starts a node of the old
// tree `root` (or is a document marker, or there is none).
bool next_line_read(const Node* root, const Lines& o, const Region& r);

}  // namespace sbr::yaml::splice
