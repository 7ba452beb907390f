// Sprig's word and case functions, as the libraries sprig v3.3.0 calls compute them:
// huandu/xstrings v1.5.0 (camelcase is its ToPascalCase, snakecase and kebabcase its word
// splitter: xstrings_case.cpp), Masterminds/goutils v1.1.1 (swapcase, untitle, initials, wrap,
// abbrev) and Go's strings (title, splitn). goutils' initials and wrap walk bytes, not runes, as
// they do there.
#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/render/helm/exec.h"
#include "analyzer/render/helm/funcs.h"
#include "analyzer/render/helm/unicode_go.h"

namespace sbr::render::helm {

namespace {

using Args = std::vector<Value>;
namespace gu = go_unicode;

// Applies `f(rune, state)` to every rune, as Go's []rune conversion walks a string (an invalid
// byte is U+FFFD).
template <typename F>
std::string map_runes(std::string_view s, F f) {
  std::string out;
  for (std::size_t pos = 0, w = 0; pos < s.size(); pos += w)
    gu::append(out, f(gu::decode(s, pos, w)));
  return out;
}

Value fn_camelcase(Exec&, Args& a, const Location& at) {
  arity(a, 1, 1, "camelcase", at);
  return Value::string(xstrings_pascal_case(text_of(a[0])));
}
Value fn_snakecase(Exec&, Args& a, const Location& at) {
  arity(a, 1, 1, "snakecase", at);
  return Value::string(xstrings_lower_case(text_of(a[0]), '_'));
}
Value fn_kebabcase(Exec&, Args& a, const Location& at) {
  arity(a, 1, 1, "kebabcase", at);
  return Value::string(xstrings_lower_case(text_of(a[0]), '-'));
}

// goutils' SwapCase: upper and title runes lowered, a lower rune title-cased after a space
// (or first) and upper-cased elsewhere.
Value fn_swapcase(Exec&, Args& a, const Location& at) {
  arity(a, 1, 1, "swapcase", at);
  bool after_space = true;
  return Value::string(map_runes(text_of(a[0]), [&after_space](char32_t r) {
    if (gu::is_upper(r) || gu::is_title(r)) {
      after_space = false;
      return gu::to_lower(r);
    }
    if (gu::is_lower(r)) {
      char32_t out = after_space ? gu::to_title(r) : gu::to_upper(r);
      after_space = false;
      return out;
    }
    after_space = gu::is_space(r);
    return r;
  }));
}

// goutils' Uncapitalize: the first rune of every space-separated word lowered.
Value fn_untitle(Exec&, Args& a, const Location& at) {
  arity(a, 1, 1, "untitle", at);
  bool next = true;
  return Value::string(map_runes(text_of(a[0]), [&next](char32_t r) {
    if (gu::is_space(r)) {
      next = true;
      return r;
    }
    if (!next) return r;
    next = false;
    return gu::to_lower(r);
  }));
}

// Go's strings.Title: a rune after a separator (not an ASCII letter, digit or `_`; not a Unicode
// letter or digit; a space) title-cased.
Value fn_title(Exec&, Args& a, const Location& at) {
  arity(a, 1, 1, "title", at);
  char32_t prev = ' ';
  auto separator = [](char32_t r) {
    if (r < 0x80) return !(gu::is_letter(r) || gu::is_digit(r) || r == '_');
    if (gu::is_letter(r) || gu::is_digit(r)) return false;
    return gu::is_space(r);
  };
  return Value::string(map_runes(text_of(a[0]), [&](char32_t r) {
    bool start = separator(prev);
    prev = r;
    return start ? gu::to_title(r) : r;
  }));
}

// goutils' byte-wise whitespace test: a byte read as a Latin-1 rune.
bool gou_space_byte(unsigned char c) {
  return c == ' ' || (c >= '\t' && c <= '\r') || c == 0x85 || c == 0xA0;
}

// goutils' Initials: the first byte of every word, each written as the rune of that value.
Value fn_initials(Exec&, Args& a, const Location& at) {
  arity(a, 1, 1, "initials", at);
  std::string out;
  bool gap = true;
  for (unsigned char c : text_of(a[0])) {
    if (gou_space_byte(c)) {
      gap = true;
    } else if (gap) {
      gu::append(out, c);
      gap = false;
    }
  }
  return Value::string(out);
}

// goutils' WrapCustom: breaks at the last space within `width` bytes; a longer word is cut
// (`long_words`) or kept whole up to its next space.
std::string gou_wrap(const std::string& s, std::int64_t width, std::string sep, bool long_words) {
  if (s.empty()) return "";
  if (sep.empty()) sep = "\n";
  const std::size_t w = width < 1 ? 1 : static_cast<std::size_t>(width);
  std::string out;
  std::size_t offset = 0;
  while (s.size() - offset > w) {
    if (s[offset] == ' ') {
      ++offset;
      continue;
    }
    std::size_t space = s.substr(offset, w + 1).rfind(' ');
    if (space != std::string::npos) {
      out += s.substr(offset, space) + sep;
      offset += space + 1;
    } else if (long_words) {
      out += s.substr(offset, w) + sep;
      offset += w;
    } else {
      std::size_t next = s.find(' ', offset + w);
      if (next == std::string::npos) {
        out += s.substr(offset);
        offset = s.size();
      } else {
        out += s.substr(offset, next - offset) + sep;
        offset = next + 1;
      }
    }
  }
  return out + s.substr(offset);
}

Value fn_wrap(Exec&, Args& a, const Location& at) {
  arity(a, 2, 2, "wrap", at);
  return Value::string(gou_wrap(text_of(a[1]), int_of(a[0]), "", false));
}

Value fn_wrap_with(Exec& ex, Args& a, const Location& at) {
  arity(a, 3, 3, "wrapWith", at);
  const std::string s = text_of(a[2]), sep = text_of(a[1]);
  // At most one separator per input byte: charged before it is built.
  ex.charge(s.size() + s.size() * sep.size(), "wrapWith", at);
  return Value::string(gou_wrap(s, int_of(a[0]), sep, true));
}

// goutils' AbbreviateFull, its errors as sprig swallows them (""); widths in bytes.
std::string gou_abbreviate(const std::string& s, std::int64_t offset, std::int64_t width) {
  if (s.empty() || width < 4) return "";
  const auto len = static_cast<std::int64_t>(s.size());
  if (len <= width) return s;
  offset = std::min(offset, len);
  if (len - offset < width - 3) offset = len - (width - 3);
  if (offset <= 4) return s.substr(0, static_cast<std::size_t>(width - 3)) + "...";
  if (width < 7) return "";
  if (offset + width - 3 < len) return "..." + gou_abbreviate(s.substr(offset), 0, width - 3);
  return "..." + s.substr(static_cast<std::size_t>(len - (width - 3)));
}

Value fn_abbrev(Exec&, Args& a, const Location& at) {
  arity(a, 2, 2, "abbrev", at);
  const std::int64_t width = int_of(a[0]);
  const std::string s = text_of(a[1]);
  return Value::string(width < 4 ? s : gou_abbreviate(s, 0, width));
}

Value fn_abbrevboth(Exec&, Args& a, const Location& at) {
  arity(a, 3, 3, "abbrevboth", at);
  const std::int64_t left = int_of(a[0]), right = int_of(a[1]);
  const std::string s = text_of(a[2]);
  if (right < 4 || (left > 0 && right < 7)) return Value::string(s);
  return Value::string(gou_abbreviate(s, left, right));
}

Value fn_plural(Exec&, Args& a, const Location& at) {
  arity(a, 3, 3, "plural", at);
  return int_of(a[2]) == 1 ? Value::string(text_of(a[0])) : Value::string(text_of(a[1]));
}

// Go's strings.SplitN as a dict _0.._n-1: n == 0 gives none, n < 0 every part, and an empty
// separator splits between runes.
Value fn_splitn(Exec&, Args& a, const Location& at) {
  arity(a, 3, 3, "splitn", at);
  const std::string sep = text_of(a[0]), s = text_of(a[2]);
  const std::int64_t n = int_of(a[1]);
  std::vector<std::string> parts;
  auto room = [&] { return n < 0 || static_cast<std::int64_t>(parts.size()) + 1 < n; };
  std::size_t k = 0;
  if (n != 0 && sep.empty()) {
    while (k < s.size() && room()) {
      std::size_t w = 0;
      gu::decode(s, k, w);
      parts.push_back(s.substr(k, w));
      k += w;
    }
    if (k < s.size()) parts.push_back(s.substr(k));
  } else if (n != 0) {
    for (std::size_t f; room() && (f = s.find(sep, k)) != std::string::npos; k = f + sep.size())
      parts.push_back(s.substr(k, f - k));
    parts.push_back(s.substr(k));
  }
  Map out;
  for (std::size_t i = 0; i < parts.size(); ++i)
    out["_" + std::to_string(i)] = Value::string(parts[i]);
  return Value::new_map(std::move(out));
}

Value fn_hello(Exec&, Args& a, const Location& at) {
  arity(a, 0, 0, "hello", at);
  return Value::string("Hello!");
}

}  // namespace

void add_text_functions(FunctionTable& t) {
  t["camelcase"] = fn_camelcase;
  t["snakecase"] = fn_snakecase;
  t["kebabcase"] = fn_kebabcase;
  t["swapcase"] = fn_swapcase;
  t["untitle"] = fn_untitle;
  t["title"] = fn_title;
  t["initials"] = fn_initials;
  t["wrap"] = fn_wrap;
  t["wrapWith"] = fn_wrap_with;
  t["abbrev"] = fn_abbrev;
  t["abbrevboth"] = fn_abbrevboth;
  t["plural"] = fn_plural;
  t["splitn"] = fn_splitn;
  t["hello"] = fn_hello;
  t["trimall"] = t.at("trimAll");  // sprig's deprecated spelling of the same function
}

}  // namespace sbr::render::helm
