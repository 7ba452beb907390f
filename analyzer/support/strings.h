// The small string helpers every layer needs, in one place so they behave alike everywhere.
// (`starts_with`/`ends_with` are std::string_view members since C++20: use those.)
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sbr {

// ASCII lower case; configuration and engine names are ASCII.
std::string lower(std::string_view s);

// The last path component: "a/b/c.sh" -> "c.sh".
std::string base_name(std::string_view path);
// Everything before the last '/': "a/b/c.sh" -> "a/b"; "c.sh" -> "".
std::string dir_of(std::string_view path);

// The non-empty components of a '/'-separated path: "a//b/" -> {"a", "b"}.
std::vector<std::string> path_components(std::string_view path);

// Shell-style pattern match (`*`, `?`, `[...]`, backslash escapes), as bash `case` and the
// configuration's selectors both mean it. `/` is an ordinary character.
bool glob_match(std::string_view pattern, std::string_view text);

// The pieces between `sep`, empty ones kept: "a,,b" -> {"a", "", "b"}; "" -> {""}.
std::vector<std::string> split(std::string_view s, char sep);

// Without leading and trailing spaces, tabs and carriage returns.
std::string_view trim(std::string_view s);

// The longest start of `s` of at most `max` bytes that ends between two characters: never half
// of a UTF-8 sequence (a message must stay valid UTF-8: a cut sequence is a replacement
// character in every report).
std::string_view head_chars(std::string_view s, std::size_t max);

// `s` when it has at most `max` bytes; else head_chars(s, max - 3), then "...".
std::string shorten(std::string_view s, std::size_t max);

// "at line 12" or "at lines 12, 40, 95" (the first six, then "..."): the other places a folded
// finding stands for, as its message names them.
std::string at_lines(const std::vector<std::uint32_t>& lines);

}  // namespace sbr
