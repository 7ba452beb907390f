// The unknown parts of a word (model/invocation.h UnknownPart): what a message shows where the
// evaluator has no text for a piece of a word (`<unknown: $1>`), placed as pieces are joined.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analyzer/render/bash/value.h"

namespace sbr::bash {

// The short name a message gives the unknown value of `x`: the parameter its identity starts
// with (`$NAME`, `$1`, `$$`), else what its origin says (`$(cmd ...)`, `$@`).
std::string unknown_name(const EWord& x);
// The unknown parts of `x`: its own, or the whole word when it is one unknown piece with no
// text (no guess); none for a word with text and no parts.
std::vector<UnknownPart> unknown_parts_of(const EWord& x);
// `b` is about to be appended to `a`'s text: `a` keeps its parts (or gets the whole-word one),
// then `b`'s follow at the end of `a`'s text, at most kMaxUnknownParts in all.
void join_unknown_parts(EWord& a, const EWord& b);

// Two words that start with the same one of the operator's own variables followed by known
// text (`$HOME/.pi` and `"$HOME"/*`: HOME, PWD, USER... stay `$NAME` in a word's text,
// docs/bash-evaluation.md): their known rests ({"/.pi", "/*"}), on which a test or a pattern
// operator that compares them decides, whatever the variable holds. nullopt otherwise.
std::optional<std::pair<std::string, std::string>> same_host_variable(const EWord& a,
                                                                      const EWord& b);

}  // namespace sbr::bash
