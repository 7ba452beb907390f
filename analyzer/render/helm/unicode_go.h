// Go's view of UTF-8 text for the string functions that walk runes (camelcase, snakecase,
// swapcase, title, untitle...): utf8.DecodeRuneInString, utf8.AppendRune and the unicode
// package's classes and case mappings.
#pragma once

#include <string>
#include <string_view>

namespace sbr::render::helm::go_unicode {

constexpr char32_t kRuneError = 0xFFFD;

// utf8.DecodeRuneInString: the rune at `s[pos]` and its width; an invalid or truncated
// sequence is kRuneError of width 1. `width` is 0 at the end.
char32_t decode(std::string_view s, std::size_t pos, std::size_t& width);
// utf8.AppendRune: a surrogate or a value past U+10FFFF is written as U+FFFD.
void append(std::string& out, char32_t r);

bool is_upper(char32_t r);   // unicode.IsUpper (Lu)
bool is_lower(char32_t r);   // unicode.IsLower (Ll)
bool is_title(char32_t r);   // unicode.IsTitle (Lt)
bool is_letter(char32_t r);  // unicode.IsLetter (L)
bool is_digit(char32_t r);   // unicode.IsDigit (Nd)
bool is_number(char32_t r);  // unicode.IsNumber (N)
bool is_punct(char32_t r);   // unicode.IsPunct (P)
bool is_space(char32_t r);   // unicode.IsSpace (Latin-1 spaces, then White_Space)

char32_t to_upper(char32_t r);
char32_t to_lower(char32_t r);
char32_t to_title(char32_t r);

}  // namespace sbr::render::helm::go_unicode
