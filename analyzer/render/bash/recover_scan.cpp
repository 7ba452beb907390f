// The lexer the parse recovery's rewrites share (recover.h): just enough of bash's quoting and
// grouping to find where a construct ends, as bash reads it. Every scan is bounded by the
// window, and nesting by a depth, so hostile text costs at most a window per call.
#include <algorithm>
#include <cctype>

#include "analyzer/render/bash/recover.h"
#include "analyzer/support/strings.h"

namespace sbr::bash::recover {
namespace {

constexpr unsigned kMaxScanDepth = 64;

std::size_t skip_dquoted_body(std::string_view t, std::size_t j, unsigned depth) {
  while (j < t.size()) {
    char c = t[j];
    if (c == '\\') {
      j += 2;
    } else if (c == '"') {
      return j + 1;
    } else if (c == '`' || (c == '$' && j + 1 < t.size() && (t[j + 1] == '(' || t[j + 1] == '{'))) {
      j = skip_unit(t, j, depth + 1);
    } else {
      ++j;
    }
  }
  return t.size();
}

// `$(...)` or `${...}` from just after the opening bracket: bash counts the brackets that nest
// and skips quoted text.
std::size_t skip_group_body(std::string_view t, std::size_t j, char open, char close,
                            unsigned depth) {
  unsigned nest = 1;
  while (j < t.size()) {
    char c = t[j];
    if (c == close) {
      if (--nest == 0) return j + 1;
      ++j;
    } else if (c == open) {
      ++nest;
      ++j;
    } else if (c == '\\' || c == '\'' || c == '"' || c == '`' || c == '$') {
      j = std::max(j + 1, skip_unit(t, j, depth + 1));
    } else {
      ++j;
    }
  }
  return t.size();
}

// Up to the next unescaped `quote`.
std::size_t skip_escaped_until(std::string_view t, std::size_t j, char quote) {
  for (; j < t.size(); ++j) {
    if (t[j] == '\\') {
      ++j;
    } else if (t[j] == quote) {
      return j + 1;
    }
  }
  return t.size();
}

bool test_delimiter(std::string_view t, std::size_t i) {
  return i >= t.size() || std::string_view(" \t\r\n;&|)<>").find(t[i]) != std::string_view::npos;
}

}  // namespace

bool name_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '_';
}

bool name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

std::size_t skip_unit(std::string_view t, std::size_t i, unsigned depth) {
  if (i >= t.size()) return t.size();
  if (depth > kMaxScanDepth) return t.size();  // as if unterminated: nothing is recovered
  char c = t[i];
  if (c == '\\') return std::min(i + 2, t.size());
  if (c == '\'') {
    std::size_t e = t.find('\'', i + 1);
    return e == std::string_view::npos ? t.size() : e + 1;
  }
  if (c == '"') return skip_dquoted_body(t, i + 1, depth);
  if (c == '`') return skip_escaped_until(t, i + 1, '`');
  if (c == '$' && i + 1 < t.size()) {
    char d = t[i + 1];
    if (d == '\'') return skip_escaped_until(t, i + 2, '\'');
    if (d == '"') return skip_dquoted_body(t, i + 2, depth);
    if (d == '(') return skip_group_body(t, i + 2, '(', ')', depth);
    if (d == '{') return skip_group_body(t, i + 2, '{', '}', depth);
  }
  return i + 1;
}

std::optional<std::size_t> test_close(std::string_view t, std::size_t open) {
  t = t.substr(0, std::min(t.size(), open + kScanWindow));
  std::size_t i = open + 2;
  while (i < t.size()) {
    if (t.compare(i, 2, "]]") == 0 && std::isspace(static_cast<unsigned char>(t[i - 1])) != 0 &&
        test_delimiter(t, i + 2)) {
      return i;
    }
    i = skip_unit(t, i);
  }
  return std::nullopt;
}

std::optional<ParamSpan> param_span(std::string_view t, std::size_t i) {
  t = t.substr(0, std::min(t.size(), i + kScanWindow));
  if (t.compare(i, 2, "${") != 0) return std::nullopt;
  std::size_t j = i + 2;
  // `${#x}` (a length), `${!x}` (indirection).
  if (j + 1 < t.size() && (t[j] == '#' || t[j] == '!') &&
      (name_char(t[j + 1]) || t[j + 1] == '@' || t[j + 1] == '*')) {
    ++j;
  }
  if (j >= t.size()) return std::nullopt;
  if (name_start(t[j])) {
    while (j < t.size() && name_char(t[j])) ++j;
  } else if (std::isdigit(static_cast<unsigned char>(t[j])) != 0) {
    while (j < t.size() && std::isdigit(static_cast<unsigned char>(t[j])) != 0) ++j;
  } else if (std::string_view("@*#?$!-").find(t[j]) != std::string_view::npos) {
    ++j;
  } else {
    return std::nullopt;
  }
  if (j < t.size() && t[j] == '[') {
    for (unsigned nest = 0;;) {
      if (j >= t.size()) return std::nullopt;
      if (t[j] == '[') {
        ++nest;
        ++j;
      } else if (t[j] == ']') {
        ++j;
        if (--nest == 0) break;
      } else {
        j = skip_unit(t, j);
      }
    }
  }
  static constexpr std::string_view kTwo[] = {":-", ":=", ":+", ":?", "//", "/#",
                                              "/%", "##", "%%", "^^", ",,"};
  bool two = false;
  for (std::string_view op : kTwo) two = two || t.compare(j, 2, op) == 0;
  if (two) {
    j += 2;
  } else if (j < t.size() && std::string_view("-=+?/#%^,@:").find(t[j]) != std::string_view::npos) {
    ++j;
  } else if (j >= t.size() || t[j] != '}') {
    return std::nullopt;
  }
  std::size_t operand = j;
  std::size_t end = skip_group_body(t, operand, '{', '}', 0);
  if (end == t.size() && (end == 0 || t[end - 1] != '}')) return std::nullopt;
  return ParamSpan{operand, end - 1};
}

std::string quoted(std::string_view text) {
  std::string out = shorten(text, 63);
  std::replace_if(
      out.begin(), out.end(), [](char c) { return c == '\n' || c == '\t' || c == '\r'; }, ' ');
  return out;
}

}  // namespace sbr::bash::recover
