// A port of huandu/xstrings v1.4.0 convert.go (camelCaseToLowerCase, nextWord, toLower); sprig
// v3.3.0 pins v1.5.0, whose word splitting is the same.
#include "analyzer/render/helm/xstrings.h"

#include <cstring>

namespace sbr::render::helm {

namespace xstrings_words {  // named, not anonymous: the build joins .cpp files in unity batches

enum class Word { Invalid, Number, Upper, Alphabet, Connector, Punct, Other };

struct Cut {
  Word type = Word::Invalid;  // Invalid: nothing left
  std::string_view word, rest;
};

bool is_connector(unsigned char c) {
  return c == '-' || c == '_' || c == ' ' || (c >= '\t' && c <= '\r');
}
bool is_upper(unsigned char c) {
  return c >= 'A' && c <= 'Z';
}
bool is_alpha(unsigned char c) {
  return is_upper(c) || (c >= 'a' && c <= 'z');
}
bool is_lower(unsigned char c) {
  return c >= 'a' && c <= 'z';
}
bool is_digit(unsigned char c) {
  return c >= '0' && c <= '9';
}
// Go's unicode.IsPunct on ASCII: `$+<=>^`|~` are symbols, not punctuation.
bool is_punct(unsigned char c) {
  return c > ' ' && c < 0x7f && !is_alpha(c) && !is_digit(c) && !std::strchr("$+<=>^`|~", c);
}
bool is_other(unsigned char c) {
  return !is_connector(c) && !is_alpha(c) && !is_digit(c) && !is_punct(c);
}

// xstrings' nextWord: the first word of `s` and what follows it.
Cut next_word(std::string_view s) {
  Cut cut;
  if (s.empty()) return cut;
  std::size_t k = 1;
  auto run = [&](bool (*member)(unsigned char)) {
    while (k < s.size() && member(static_cast<unsigned char>(s[k]))) ++k;
  };
  const auto first = static_cast<unsigned char>(s[0]);
  if (is_connector(first)) {
    cut.type = Word::Connector;
    run(is_connector);
  } else if (is_punct(first)) {
    cut.type = Word::Punct;
    run(is_punct);
  } else if (is_upper(first)) {
    cut.type = Word::Upper;
    if (k < s.size() && is_upper(static_cast<unsigned char>(s[k]))) {
      run(is_upper);
      // "HTTPStatus" is "HTTP" and "Status": the last capital starts the next word.
      if (k < s.size() && is_alpha(static_cast<unsigned char>(s[k]))) --k;
    } else {
      run(is_lower);
    }
  } else if (is_alpha(first)) {
    cut.type = Word::Alphabet;
    run(is_lower);
  } else if (is_digit(first)) {
    cut.type = Word::Number;
    run(is_digit);
  } else {
    cut.type = Word::Other;
    run(is_other);
  }
  cut.word = s.substr(0, k);
  cut.rest = s.substr(k);
  return cut;
}

// xstrings' toLower: capitals and connectors of an upper-case or connector word are rewritten.
void append_lower(std::string& out, Word type, std::string_view word, char connector) {
  if (type != Word::Upper && type != Word::Connector) {
    out += word;
    return;
  }
  for (char c : word) {
    const auto u = static_cast<unsigned char>(c);
    out += is_connector(u) ? connector : is_upper(u) ? static_cast<char>(c - 'A' + 'a') : c;
  }
}

bool joins(Word w) {
  return w != Word::Invalid && w != Word::Connector && w != Word::Punct;
}

// After a number: letters and digits that follow belong to it, then a connector.
Cut after_number(std::string& out, Cut w, char connector) {
  while (w.type == Word::Alphabet || w.type == Word::Number) {
    append_lower(out, w.type, w.word, connector);
    w = next_word(w.rest);
  }
  if (joins(w.type)) out += connector;
  return w;
}

// After a word of letters followed by the number `w`: "Bld4Floor" keeps the number with the
// word before ("bld4_floor"), "HTTP2xx" with the letters after ("http_2xx").
Cut after_letters_number(std::string& out, Cut w, char connector) {
  if (w.rest.empty()) return w;
  const std::string_view number = w.word;
  w = next_word(w.rest);
  if (w.type != Word::Alphabet) {
    append_lower(out, Word::Number, number, connector);
    if (w.type != Word::Connector && w.type != Word::Punct) out += connector;
    return w;
  }
  out += connector;
  append_lower(out, Word::Number, number, connector);
  return after_number(out, w, connector);
}

}  // namespace xstrings_words

std::string xstrings_lower_words(std::string_view s, char connector) {
  using namespace xstrings_words;
  std::string out;
  Cut w = next_word(s);
  while (!w.rest.empty()) {
    if (w.type != Word::Connector) append_lower(out, w.type, w.word, connector);
    const Cut prev = w;
    w = next_word(w.rest);
    switch (prev.type) {
      case Word::Number:
        w = after_number(out, w, connector);
        break;
      case Word::Connector:
        append_lower(out, prev.type, prev.word, connector);
        break;
      case Word::Punct:
        break;
      default:
        if (w.type == Word::Number) {
          w = after_letters_number(out, w, connector);
        } else if (w.type != Word::Connector && w.type != Word::Punct) {
          out += connector;
        }
    }
  }
  append_lower(out, w.type, w.word, connector);
  return out;
}

}  // namespace sbr::render::helm
