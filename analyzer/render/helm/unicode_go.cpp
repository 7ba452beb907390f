// Go's rune classes and case mappings. ASCII is decided here; other runes are classified by
// RE2's Unicode tables (the general categories Go's unicode package uses) and case-mapped by
// glibc's C.UTF-8 tables, which hold the same simple mappings; without that locale they keep
// their case. Nothing here depends on the process locale.
#include "analyzer/render/helm/unicode_go.h"

#include <locale.h>
#include <re2/re2.h>
#include <wctype.h>

#include <memory>
#include <utility>
#include <vector>

namespace sbr::render::helm::go_unicode {

namespace {

bool in_category(char32_t r, const char* pattern) {
  std::string text;
  append(text, r);
  // One compiled class per pattern: the patterns are string literals, so their addresses key
  // the cache.
  thread_local std::vector<std::pair<const char*, std::unique_ptr<RE2>>> cache;
  for (auto& [p, re] : cache) {
    if (p == pattern) return RE2::FullMatch(text, *re);
  }
  cache.emplace_back(pattern, std::make_unique<RE2>(pattern));
  return RE2::FullMatch(text, *cache.back().second);
}

locale_t utf8_ctype() {
  static const locale_t loc = newlocale(LC_CTYPE_MASK, "C.UTF-8", static_cast<locale_t>(nullptr));
  return loc;
}

char32_t map_case(char32_t r, const char* how) {
  locale_t loc = utf8_ctype();
  if (loc == static_cast<locale_t>(nullptr)) return r;
  wctrans_t t = wctrans_l(how, loc);
  if (t == static_cast<wctrans_t>(nullptr)) t = wctrans_l("toupper", loc);
  return static_cast<char32_t>(towctrans_l(static_cast<wint_t>(r), t, loc));
}

}  // namespace

char32_t decode(std::string_view s, std::size_t pos, std::size_t& width) {
  width = 0;
  if (pos >= s.size()) return kRuneError;
  const auto b0 = static_cast<unsigned char>(s[pos]);
  width = 1;
  if (b0 < 0x80) return b0;
  int need = 0;
  char32_t r = 0, min = 0;
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    need = 1, r = b0 & 0x1F, min = 0x80;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    need = 2, r = b0 & 0x0F, min = 0x800;
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    need = 3, r = b0 & 0x07, min = 0x10000;
  } else {
    return kRuneError;
  }
  if (pos + static_cast<std::size_t>(need) >= s.size()) return kRuneError;
  for (int k = 1; k <= need; ++k) {
    const auto b = static_cast<unsigned char>(s[pos + k]);
    if ((b & 0xC0) != 0x80) return kRuneError;
    r = (r << 6) | (b & 0x3F);
  }
  if (r < min || r > 0x10FFFF || (r >= 0xD800 && r <= 0xDFFF)) return kRuneError;
  width = static_cast<std::size_t>(need) + 1;
  return r;
}

void append(std::string& out, char32_t r) {
  if (r > 0x10FFFF || (r >= 0xD800 && r <= 0xDFFF)) r = kRuneError;
  if (r < 0x80) {
    out += static_cast<char>(r);
  } else if (r < 0x800) {
    out += static_cast<char>(0xC0 | (r >> 6));
    out += static_cast<char>(0x80 | (r & 0x3F));
  } else if (r < 0x10000) {
    out += static_cast<char>(0xE0 | (r >> 12));
    out += static_cast<char>(0x80 | ((r >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (r & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (r >> 18));
    out += static_cast<char>(0x80 | ((r >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((r >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (r & 0x3F));
  }
}

bool is_upper(char32_t r) {
  if (r < 0x80) return r >= 'A' && r <= 'Z';
  return in_category(r, R"(\p{Lu})");
}
bool is_lower(char32_t r) {
  if (r < 0x80) return r >= 'a' && r <= 'z';
  return in_category(r, R"(\p{Ll})");
}
bool is_title(char32_t r) {
  return r >= 0x80 && in_category(r, R"(\p{Lt})");
}
bool is_letter(char32_t r) {
  if (r < 0x80) return (r | 0x20) >= 'a' && (r | 0x20) <= 'z';
  return in_category(r, R"(\p{L})");
}
bool is_digit(char32_t r) {
  if (r < 0x80) return r >= '0' && r <= '9';
  return in_category(r, R"(\p{Nd})");
}
bool is_number(char32_t r) {
  if (r < 0x80) return r >= '0' && r <= '9';
  return in_category(r, R"(\p{N})");
}
bool is_punct(char32_t r) {
  if (r < 0x80) {
    return r < 0x7F && std::string_view("!\"#%&'()*,-./:;?@[\\]_{}").find(static_cast<char>(r)) !=
                           std::string_view::npos;
  }
  return in_category(r, R"(\p{P})");
}
bool is_space(char32_t r) {
  switch (r) {
    case '\t':
    case '\n':
    case '\v':
    case '\f':
    case '\r':
    case ' ':
    case 0x85:
    case 0xA0:
    case 0x1680:
    case 0x2028:
    case 0x2029:
    case 0x202F:
    case 0x205F:
    case 0x3000:
      return true;
    default:
      return r >= 0x2000 && r <= 0x200A;
  }
}

char32_t to_upper(char32_t r) {
  if (r < 0x80) return r >= 'a' && r <= 'z' ? r - 0x20 : r;
  return map_case(r, "toupper");
}
char32_t to_lower(char32_t r) {
  if (r < 0x80) return r >= 'A' && r <= 'Z' ? r + 0x20 : r;
  return map_case(r, "tolower");
}
char32_t to_title(char32_t r) {
  if (r < 0x80) return to_upper(r);
  return map_case(r, "totitle");
}

}  // namespace sbr::render::helm::go_unicode
