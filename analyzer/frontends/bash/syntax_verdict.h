// Whose gap a syntax error of tree-sitter-bash is: bash -n decides (analyzer/render/bash/bash_n.h).
#pragma once

#include <vector>

#include "analyzer/model/model.h"
#include "analyzer/source/source.h"

namespace sbr {

// For each ParseError the bash renderer reported: when bash accepts the file, the error is
// sbreview's (cause analyzer; the message says bash accepts it); when bash rejects it too, the
// repository's; when bash cannot be asked (`ask_bash` false, or not installed), sbreview's, as
// a gap it cannot rule out is never blamed on the repository. A file the renderer parsed only
// by rewriting constructs tree-sitter-bash lacks (ParseRecovered, SB0018) that bash rejects, or
// cannot be asked about, gets the ParseError it would have had. `script` holds the bytes of the
// rendered file; a sourced file's are found in `sources`.
void settle_syntax_errors(std::vector<Problem>& problems, const SourceFile& script,
                          const SourceSet* sources, bool ask_bash);

}  // namespace sbr
