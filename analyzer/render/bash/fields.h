// Word-level helpers shared by the expansion translation units (expand.cpp, expand_text.cpp).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "analyzer/render/bash/evaluator.h"
#include "analyzer/support/strings.h"

namespace sbr::bash {

// Joins field lists as adjacent text does: the last field of `acc` meets the first of `next`.
void join_fields(std::vector<EWord>& acc, std::vector<EWord> next, bool& started);
// Splits an unquoted expansion on IFS characters.
std::vector<EWord> split_fields(const EWord& w, const std::string& ifs = " \t\n");
// Removes backslash escapes of an unquoted or double-quoted word.
std::string unescape_word(std::string_view s);
// $'...' escapes.
std::string ansi_c(std::string_view s);
// Shell pattern matching (`case`, `${x#pat}`): *, ?, [...].
// Variables every login environment sets: symbolic, but not attacker-chosen.
bool well_known_env(const std::string& n);
// The value of an environment parameter: symbolic, and tainted unless well known.
std::vector<EWord> env_word(const std::string& name, Location at);

}  // namespace sbr::bash
