// The bound on a scalar's values where paths meet (private to paths_merge.cpp): past
// kMaxValueAlts values, the rest are cut, folded into one list of every piece the paths
// appended, or stood for by one unknown value (docs/bash-evaluation.md "Values and argument
// lists").
#pragma once

#include <string>

#include "analyzer/render/bash/value.h"

namespace sbr::bash {

// The alternative that stands for the values past the bound (widen()): an unknown word, or the
// pieces every such value appended to the default one.
bool widened(const Alt& a);
// Same words, by text (where each word was written aside).
bool same_texts(const std::vector<EWord>& a, const std::vector<EWord>& b);
// Bounds `v` to kMaxValueAlts alternatives, `name` being the variable's.
void widen(Value& v, const std::string& name);
// Whether merging `other` into `def`, which holds the most values a value keeps with its last
// one widened, would leave `def` as it is: the widened value already stands for every value
// `other` brings.
bool widening_covers(const Value& def, const Value& other);

}  // namespace sbr::bash
