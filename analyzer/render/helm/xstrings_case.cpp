// huandu/xstrings v1.5.0's case conversions as sprig calls them: ToSnakeCase and ToKebabCase
// (camelCaseToLowerCase over its nextWord splitter) and ToPascalCase (sprig's camelcase).
#include <string>
#include <string_view>

#include "analyzer/render/helm/funcs.h"
#include "analyzer/render/helm/unicode_go.h"

namespace sbr::render::helm {

namespace {

namespace gu = go_unicode;

enum class WordKind { Invalid, Number, Upper, Alphabet, Connector, Punct, Other };

struct XWord {
  WordKind kind = WordKind::Invalid;
  std::string_view word, rest;
};

bool xs_connector(char32_t r) {
  return r == '-' || r == '_' || gu::is_space(r);
}

// A letter outside the CJK ideograph blocks.
bool xs_alphabet(char32_t r) {
  if (!gu::is_letter(r)) return false;
  if (r < 0x3400) return true;
  if ((r >= 0x4E00 && r <= 0x9FCC) || (r >= 0x3400 && r <= 0x4D85)) return false;
  return !(r >= 0x20000 && r <= 0x2B81D);
}

// The next rune that decodes, skipping invalid bytes (their widths are counted); `prev` when
// none does.
char32_t xs_next_valid(std::string_view s, char32_t prev, std::size_t& size) {
  size = 0;
  for (std::size_t pos = 0; pos < s.size();) {
    std::size_t w = 0;
    char32_t r = gu::decode(s, pos, w);
    size += w;
    if (r != gu::kRuneError) return r;
    pos += w;
  }
  return prev;
}

XWord xs_next_word(std::string_view str) {
  XWord out;
  if (str.empty()) return out;
  std::size_t size = 0;
  char32_t r = xs_next_valid(str, gu::kRuneError, size);
  std::size_t offset = size;
  std::string_view rest = str;
  if (r == gu::kRuneError) return {WordKind::Invalid, str.substr(0, offset), str.substr(offset)};
  // Extends the word while `keep` holds for the next valid rune.
  auto extend = [&](auto keep) {
    while (!rest.empty()) {
      r = xs_next_valid(rest, r, size);
      if (!keep(r)) break;
      offset += size;
      rest.remove_prefix(size);
    }
  };
  auto lower_letter = [](char32_t c) { return xs_alphabet(c) && !gu::is_upper(c); };
  rest.remove_prefix(size);
  if (xs_connector(r)) {
    out.kind = WordKind::Connector;
    extend(xs_connector);
  } else if (gu::is_punct(r)) {
    out.kind = WordKind::Punct;
    extend(gu::is_punct);
  } else if (gu::is_upper(r)) {
    out.kind = WordKind::Upper;
    if (!rest.empty()) {
      r = xs_next_valid(rest, r, size);
      if (gu::is_upper(r)) {
        // "HTTPStatus": the upper-case run ends before the capital that starts a word.
        std::size_t prev_size = size;
        offset += size;
        rest.remove_prefix(size);
        while (!rest.empty()) {
          r = xs_next_valid(rest, r, size);
          if (!gu::is_upper(r)) break;
          prev_size = size;
          offset += size;
          rest.remove_prefix(size);
        }
        if (!rest.empty() && xs_alphabet(r)) {
          offset -= prev_size;
          rest = str.substr(offset);
        }
      } else if (xs_alphabet(r)) {
        offset += size;
        rest.remove_prefix(size);
        extend(lower_letter);
      }
    }
  } else if (xs_alphabet(r)) {
    out.kind = WordKind::Alphabet;
    extend(lower_letter);
  } else if (gu::is_number(r)) {
    out.kind = WordKind::Number;
    extend(gu::is_number);
  } else {
    out.kind = WordKind::Other;
    while (!rest.empty()) {
      r = xs_next_valid(rest, r, size);
      if (size == 0 || xs_connector(r) || xs_alphabet(r) || gu::is_number(r) || gu::is_punct(r))
        break;
      offset += size;
      rest.remove_prefix(size);
    }
  }
  out.word = str.substr(0, offset);
  out.rest = rest;
  return out;
}

// Upper-case words and connector runs are lowered (connectors become `connector`); others are
// copied as they are.
void xs_lower(std::string& out, WordKind kind, std::string_view word, char connector) {
  if (kind != WordKind::Upper && kind != WordKind::Connector) return void(out += word);
  for (std::size_t pos = 0; pos < word.size();) {
    std::size_t w = 0;
    char32_t r = gu::decode(word, pos, w);
    pos += w;
    if (xs_connector(r)) {
      out += connector;
    } else {
      gu::append(out, gu::is_upper(r) ? gu::to_lower(r) : r);
    }
  }
}

}  // namespace

std::string xstrings_lower_case(std::string_view str, char connector) {
  std::string out;
  if (str.empty()) return out;
  XWord w = xs_next_word(str);
  auto next = [&w] { w = xs_next_word(w.rest); };
  auto number_or_letters = [&w] {
    return w.kind == WordKind::Alphabet || w.kind == WordKind::Number;
  };
  while (!w.rest.empty()) {
    if (w.kind != WordKind::Connector) xs_lower(out, w.kind, w.word, connector);
    const WordKind prev = w.kind;
    const std::string_view last = w.word;
    next();
    if (prev == WordKind::Number) {
      for (; number_or_letters(); next()) xs_lower(out, w.kind, w.word, connector);
      if (w.kind != WordKind::Invalid && w.kind != WordKind::Punct && w.kind != WordKind::Connector)
        out += connector;
    } else if (prev == WordKind::Connector) {
      xs_lower(out, prev, last, connector);
    } else if (prev != WordKind::Punct) {
      if (w.kind != WordKind::Number) {
        if (w.kind != WordKind::Connector && w.kind != WordKind::Punct) out += connector;
        continue;
      }
      if (w.rest.empty()) continue;
      const std::string_view digits = w.word;
      next();
      // "Bld4Floor" keeps the number with the word before it; "HTTP2xx" starts a word with it.
      if (w.kind != WordKind::Alphabet) {
        xs_lower(out, WordKind::Number, digits, connector);
        if (w.kind != WordKind::Connector && w.kind != WordKind::Punct) out += connector;
        continue;
      }
      out += connector;
      xs_lower(out, WordKind::Number, digits, connector);
      for (; number_or_letters(); next()) xs_lower(out, w.kind, w.word, connector);
      if (w.kind != WordKind::Invalid && w.kind != WordKind::Connector && w.kind != WordKind::Punct)
        out += connector;
    }
  }
  xs_lower(out, w.kind, w.word, connector);
  return out;
}

// ToPascalCase: connectors dropped, the rune after one upper-cased, and a word that starts
// upper-case lowered after its first rune until a lower-case rune.
std::string xstrings_pascal_case(std::string_view str) {
  std::string out;
  if (str.empty()) return out;
  std::size_t pos = 0, size = 0;
  char32_t r0 = 0;
  bool first_upper = false;
  while (pos < str.size()) {
    r0 = gu::decode(str, pos, size);
    pos += size;
    if (!xs_connector(r0)) {
      first_upper = gu::is_upper(r0);
      r0 = gu::to_upper(r0);
      break;
    }
    gu::append(out, r0);
  }
  if (pos >= str.size()) {
    // xstrings writes the last rune again here, even a leading connector ("_" -> "__").
    if (size != 0) gu::append(out, r0);
    return out;
  }
  while (pos < str.size()) {
    char32_t r1 = r0;
    r0 = gu::decode(str, pos, size);
    pos += size;
    if (xs_connector(r0) && xs_connector(r1)) {
      gu::append(out, r1);
      continue;
    }
    if (xs_connector(r1)) {
      first_upper = gu::is_upper(r0);
      r0 = gu::to_upper(r0);
    } else {
      if (first_upper) {
        if (gu::is_upper(r0)) {
          r0 = gu::to_lower(r0);
        } else {
          first_upper = false;
        }
      }
      gu::append(out, r1);
    }
  }
  gu::append(out, r0);
  return out;
}

}  // namespace sbr::render::helm
