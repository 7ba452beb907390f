// `man sbreview`, generated at build time from the command's own help (kUsage, read back by
// parse_usage) and docs/usage.md (through cmark-gfm's man renderer), so that no hand-written
// copy can drift from either.
#pragma once

#include <iosfwd>
#include <string_view>

#include "analyzer/cli/usage_spec.h"

namespace sbr {

// A man(7) page in section 1: NAME, SYNOPSIS, DESCRIPTION and OPTIONS from the help, then the
// sections of `usage_markdown` (its `## Options` table is left out: the help's OPTIONS is the
// list; its subsections stay), then SEE ALSO naming `doc_dir`, where the documentation is
// installed. Tables become tagged paragraphs (tbl cannot wrap them).
void write_man_page(const UsageSpec& usage, std::string_view usage_markdown,
                    std::string_view doc_dir, std::ostream& out);

}  // namespace sbr
