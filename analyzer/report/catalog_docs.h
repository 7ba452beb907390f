// The catalog and the rule language as documents: `sbreview rules` (text, JSON), the generated
// docs/rules/index.md and docs/rules/match-reference.md. Tests compare the committed files with
// what these write, so the docs cannot drift from the catalog and the field table.
#pragma once

#include <optional>
#include <ostream>
#include <string>

#include "analyzer/check/catalog.h"

namespace sbr::report {

// The invariant's name ("the isolation boundary meets the floor") and its docs page.
std::string_view invariant_name(int invariant);
std::string_view invariant_page(int invariant);  // "1-isolation.md"

// What implements a rule: `data` (its `match:`) or the C++ module.
std::string implementation_of(const Rule& r);
// Where the rule's page and fixtures are, relative to the repository: built-in rules by their
// `<id>-<slug>`, user rules next to their file.
std::string page_of(const Rule& r);
std::string fixtures_of(const Rule& r);

void write_rules_text(const Catalog& c, std::optional<int> invariant, std::ostream& out);
void write_rules_json(const Catalog& c, std::optional<int> invariant, std::ostream& out);
void write_rules_index(const Catalog& c, std::ostream& out);
void write_match_reference(std::ostream& out);

}  // namespace sbr::report
