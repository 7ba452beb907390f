// Re-reading a YAML stream that differs from one already read in a few lines (a Helm switch's
// flipped render of a template against its default render): only the entries of the block
// collection around the changed lines are parsed again, and spliced into a copy of the read
// documents with the positions after them moved. yaml-cpp costs 25-40 K instructions a line,
// so a one-line change to a 35-line Deployment costs a fraction of a full parse.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string_view>
#include <vector>

#include "analyzer/support/yaml_tree.h"

namespace sbr::yaml {

// A stream's documents. A deque: a Document's nodes point into its own arena, and a vector
// would copy (not move) documents when it grows.
using Documents = std::deque<Document>;

// The documents of `text`, derived from `base`: every document of `base_text` as DocumentReader
// read it (each one parsed, none over budget). Equal, node for node (kind, scalar, quoted, flow,
// line, column, order, duplicate keys, document start lines), to reading `text` whole; nullopt
// whenever that cannot be shown from the text (the change is not whole entries of one block
// collection, or crosses a flow collection, a document marker, a directive, a tab, an anchor or
// alias...), and the caller then reads `text` whole.
std::optional<Documents> splice_stream(std::string_view base_text, const Documents& base,
                                       std::string_view text,
                                       std::uint64_t node_budget = 2'000'000);

// A copy of `doc` whose nodes live in their own arena, every line moved by `shift`.
Document copy_document(const Document& doc, std::int64_t shift = 0);

// The duplicate keys of `root`'s maps, in the order DocumentReader reports them (each map when
// it closes, inner maps first).
std::vector<DuplicateKey> duplicate_keys(const Node* root);

}  // namespace sbr::yaml
