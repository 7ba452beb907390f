// Go's regexp package over RE2 (the same syntax and leftmost-first matching): how successive
// matches are found, Expand's `$1` `${1}` `$name` `$$` templates, and Split, as sprig's
// regexReplaceAll, regexReplaceAllLiteral and regexSplit use them.
#pragma once

#include <re2/re2.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sbr::render::helm {

// One match: byte offsets of the whole match and of each group, begin and end in turn (-1 for a
// group that did not take part).
using GoMatch = std::vector<std::int64_t>;

// Go's FindAllStringSubmatchIndex: successive matches, at most `n` (all when n < 0); an empty
// match right after the previous match is skipped.
std::vector<GoMatch> go_find_all(const RE2& re, std::string_view s, std::int64_t n);
// Go's ReplaceAllString (`repl` expanded as Expand does) or, with `literal`,
// ReplaceAllLiteralString.
std::string go_replace_all(const RE2& re, std::string_view s, std::string_view repl, bool literal);
// Go's Split: at most `n` pieces (all when n < 0, none when n == 0).
std::vector<std::string> go_split(const RE2& re, std::string_view s, std::int64_t n);

}  // namespace sbr::render::helm
