// TOML read as helm's fromToml reads it (BurntSushi/toml's Unmarshal into a map), for the TOML
// charts write: tables, arrays of tables, dotted and quoted keys, the four string forms, integers
// (decimal, hex, octal, binary), floats, booleans, dates and times, arrays and inline tables.
// Errors are "toml: line N: ..." in BurntSushi's form (its wording may differ).
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "analyzer/render/helm/funcs.h"
#include "analyzer/render/helm/go_time.h"
#include "analyzer/render/helm/unicode_go.h"

namespace sbr::render::helm {

namespace {

struct TomlParseError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class TomlReader {
 public:
  explicit TomlReader(std::string_view text) : s_(text) {}

  Value document() {
    Value root = Value::new_map();
    Map* table = root.map.get();
    for (;;) {
      skip_blank_lines();
      if (pos_ >= s_.size()) break;
      if (s_[pos_] == '[') {
        table = header(root);
      } else {
        key_value(*table);
      }
      end_of_line();
    }
    return root;
  }

 private:
  [[noreturn]] void fail(const std::string& message) const {
    if (last_key_.empty()) throw TomlParseError(fmt::format("toml: line {}: {}", line_, message));
    throw TomlParseError(
        fmt::format("toml: line {} (last key \"{}\"): {}", line_, last_key_, message));
  }

  bool at_end() const { return pos_ >= s_.size(); }
  char peek(std::size_t ahead = 0) const {
    return pos_ + ahead < s_.size() ? s_[pos_ + ahead] : '\0';
  }

  void skip_space() {
    while (!at_end() && (peek() == ' ' || peek() == '\t')) ++pos_;
  }

  void skip_comment() {
    if (peek() == '#') {
      while (!at_end() && peek() != '\n') ++pos_;
    }
  }

  // Blank lines, comments, and (inside arrays) newlines.
  void skip_blank_lines() {
    for (;;) {
      skip_space();
      skip_comment();
      if (peek() == '\r' && peek(1) == '\n') ++pos_;
      if (peek() != '\n') return;
      ++pos_;
      ++line_;
    }
  }

  void end_of_line() {
    skip_space();
    skip_comment();
    if (peek() == '\r') ++pos_;
    if (at_end()) return;
    if (peek() != '\n')
      fail(
          fmt::format("expected a top-level item to end with a newline, "
                      "comment, or EOF, but got '{}' instead",
                      peek()));
    ++pos_;
    ++line_;
  }

  static bool bare_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-';
  }

  std::vector<std::string> key() {
    std::vector<std::string> parts;
    for (;;) {
      skip_space();
      if (peek() == '"' || peek() == '\'') {
        if (peek(1) == peek() && peek(2) == peek()) fail("multi-line strings are not keys");
        parts.push_back(string_value().s);
      } else {
        const std::size_t start = pos_;
        while (!at_end() && bare_char(peek())) ++pos_;
        if (start == pos_) {
          if (at_end()) fail("unexpected EOF; expected key separator '='");
          fail(fmt::format("bare keys cannot contain '{}'", peek()));
        }
        parts.emplace_back(s_.substr(start, pos_ - start));
      }
      skip_space();
      if (peek() != '.') return parts;
      ++pos_;
    }
  }

  // The table `path` names under `root`, made as needed; an array of tables gives its last.
  Map* descend(Map* at, const std::vector<std::string>& path, std::size_t count) {
    for (std::size_t k = 0; k < count; ++k) {
      Value& slot = (*at)[path[k]];
      if (slot.is_nil()) slot = Value::new_map();
      if (slot.is_list() && !slot.list->empty() && slot.list->back().is_map()) {
        at = slot.list->back().map.get();
      } else if (slot.is_map()) {
        at = slot.map.get();
      } else {
        fail(fmt::format("Key '{}' has already been defined.", path[k]));
      }
    }
    return at;
  }

  Map* header(Value& root) {
    const bool array = peek(1) == '[';
    pos_ += array ? 2 : 1;
    std::vector<std::string> path = key();
    if (peek() != ']' || (array && peek(1) != ']')) fail("expected ']' to close the table name");
    pos_ += array ? 2 : 1;
    last_key_ = path.back();
    Map* parent = descend(root.map.get(), path, path.size() - 1);
    Value& slot = (*parent)[path.back()];
    if (array) {
      if (slot.is_nil()) slot = Value::new_list();
      if (!slot.is_list()) fail(fmt::format("Key '{}' has already been defined.", path.back()));
      slot.list->push_back(Value::new_map());
      return slot.list->back().map.get();
    }
    if (slot.is_nil()) slot = Value::new_map();
    if (!slot.is_map()) fail(fmt::format("Key '{}' has already been defined.", path.back()));
    return slot.map.get();
  }

  void key_value(Map& table) {
    std::vector<std::string> path = key();
    if (peek() != '=') {
      if (at_end()) fail("unexpected EOF; expected key separator '='");
      fail(fmt::format("expected key separator '=', but got '{}' instead", peek()));
    }
    last_key_ = path.back();
    ++pos_;
    skip_space();
    Map* at = descend(&table, path, path.size() - 1);
    if (at->count(path.back())) fail(fmt::format("Key '{}' has already been defined.", last_key_));
    (*at)[path.back()] = value();
  }

  Value value() {
    if (++depth_ > 200) fail("nested too deeply");
    Value v = value_inner();
    --depth_;
    return v;
  }

  Value value_inner() {
    const char c = peek();
    if (c == '"' || c == '\'') return string_value();
    if (c == '[') return array();
    if (c == '{') return inline_table();
    if (s_.substr(pos_, 4) == "true") return pos_ += 4, Value::boolean(true);
    if (s_.substr(pos_, 5) == "false") return pos_ += 5, Value::boolean(false);
    const std::size_t start = pos_;
    while (!at_end() && (bare_char(peek()) || peek() == '.' || peek() == '+' || peek() == ':' ||
                         (peek() == ' ' && date_time_space(start)))) {
      ++pos_;
    }
    if (start == pos_) {
      if (at_end()) fail("unexpected EOF; expected a value");
      fail(fmt::format("expected value but found '{}' instead", c));
    }
    return scalar(s_.substr(start, pos_ - start));
  }

  // A space inside "1979-05-27 07:32:00": a date followed by a time.
  bool date_time_space(std::size_t start) const {
    return pos_ - start == 10 && s_[start + 4] == '-' && pos_ + 1 < s_.size() &&
           std::isdigit(static_cast<unsigned char>(s_[pos_ + 1]));
  }

  Value scalar(std::string_view text) {
    if (text == "inf" || text == "+inf") return Value::number(HUGE_VAL);
    if (text == "-inf") return Value::number(-HUGE_VAL);
    if (text == "nan" || text == "+nan" || text == "-nan")
      return Value::number(std::numeric_limits<double>::quiet_NaN());
    if (text.size() >= 8 && text[4] == '-' && text[7] == '-') return date_time(text, "date");
    if (text.size() >= 5 && text[2] == ':') return date_time(text, "time");
    std::string digits;
    for (std::size_t k = 0; k < text.size(); ++k) {
      if (text[k] != '_') {
        digits += text[k];
      } else if (k == 0 || k + 1 == text.size() ||
                 !std::isxdigit(static_cast<unsigned char>(text[k - 1])) ||
                 !std::isxdigit(static_cast<unsigned char>(text[k + 1]))) {
        fail(fmt::format("invalid use of '_' in number: {}", text));
      }
    }
    int base = 10;
    std::string_view body = digits;
    if (body.size() > 2 && body[0] == '0' && (body[1] == 'x' || body[1] == 'o' || body[1] == 'b')) {
      base = body[1] == 'x' ? 16 : body[1] == 'o' ? 8 : 2;
      body.remove_prefix(2);
    }
    const bool is_float = base == 10 && body.find_first_of(".eE") != std::string_view::npos;
    if (is_float) {
      double d = 0;
      std::string_view f = body[0] == '+' ? body.substr(1) : body;
      auto [end, ec] = std::from_chars(f.data(), f.data() + f.size(), d);
      if (ec != std::errc() || end != f.data() + f.size() || f.back() == '.' || f[0] == '.')
        fail(fmt::format("invalid float value: \"{}\"", text));
      return Value::number(d);
    }
    std::int64_t n = 0;
    std::string_view i = base == 10 && !body.empty() && body[0] == '+' ? body.substr(1) : body;
    if (base == 10 && i.size() > 1 && (i[0] == '0' || (i[0] == '-' && i[1] == '0')))
      fail(fmt::format("invalid integer \"{}\": leading zeros", text));
    auto [end, ec] = std::from_chars(i.data(), i.data() + i.size(), n, base);
    if (ec == std::errc::result_out_of_range)
      fail(fmt::format("integer \"{}\" is out of range for int64", text));
    if (i.empty() || ec != std::errc() || end != i.data() + i.size())
      fail(fmt::format("expected value but found \"{}\" instead", text));
    return Value::integer(n);
  }

  // Dates and times as BurntSushi gives them: an offset date-time in its zone, a local one in a
  // zone named datetime-local, date-local or time-local.
  Value date_time(std::string_view text, const char* kind) {
    static const char* const kLayouts[] = {"2006-01-02T15:04:05.999999999Z07:00",
                                           "2006-01-02T15:04:05.999999999",
                                           "2006-01-02",
                                           "15:04:05.999999999",
                                           "2006-01-02 15:04:05.999999999Z07:00",
                                           "2006-01-02 15:04:05.999999999"};
    static const char* const kZones[] = {"", "datetime-local", "date-local", "time-local",
                                         "", "datetime-local"};
    std::string normal(text);
    if (normal.size() > 10 && (normal[10] == 't')) normal[10] = 'T';
    if (!normal.empty() && normal.back() == 'z') normal.back() = 'Z';
    for (std::size_t k = 0; k < 6; ++k) {
      GoTime t;
      std::string error;
      if (!go_parse(kLayouts[k], normal, t, error)) continue;
      if (*kZones[k]) t.zone = kZones[k];
      return time_value(t);
    }
    fail(fmt::format("invalid TOML {}: \"{}\"", kind, text));
  }

  Value array() {
    ++pos_;
    List items;
    for (;;) {
      skip_blank_lines();
      if (peek() == ']') break;
      if (at_end()) fail("unexpected EOF; expected ']' to close the array");
      items.push_back(value());
      skip_blank_lines();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      if (peek() != ']') fail("expected ',' or ']' after an array value");
    }
    ++pos_;
    return Value::new_list(std::move(items));
  }

  Value inline_table() {
    ++pos_;
    Value table = Value::new_map();
    skip_space();
    if (peek() == '}') return ++pos_, table;
    for (;;) {
      key_value(*table.map);
      skip_space();
      if (peek() == '}') break;
      if (peek() != ',') fail("expected ',' or '}' after an inline table value");
      ++pos_;
    }
    ++pos_;
    return table;
  }

  Value string_value() {
    const char quote = peek();
    const bool multi = peek(1) == quote && peek(2) == quote;
    pos_ += multi ? 3 : 1;
    if (multi && peek() == '\n') ++pos_, ++line_;
    if (multi && peek() == '\r' && peek(1) == '\n') pos_ += 2, ++line_;
    std::string out;
    for (;;) {
      if (at_end()) fail("unexpected EOF; expected a closing quote");
      const char c = s_[pos_];
      if (c == quote && (!multi || (peek(1) == quote && peek(2) == quote))) {
        pos_ += multi ? 3 : 1;
        // A multi-line string may end with one or two quotes of its own before the closer.
        while (multi && peek() == quote && out.size() < std::string::npos) out += quote, ++pos_;
        return Value::string(out);
      }
      if (c == '\n') {
        if (!multi) fail("strings cannot contain newlines");
        ++line_;
      }
      if (c == '\\' && quote == '"') {
        escape(out, multi);
        continue;
      }
      out += c;
      ++pos_;
    }
  }

  void escape(std::string& out, bool multi) {
    const char e = peek(1);
    pos_ += 2;
    switch (e) {
      case 'b':
        out += '\b';
        return;
      case 't':
        out += '\t';
        return;
      case 'n':
        out += '\n';
        return;
      case 'f':
        out += '\f';
        return;
      case 'r':
        out += '\r';
        return;
      case 'e':
        out += '\x1b';
        return;
      case '"':
        out += '"';
        return;
      case '\\':
        out += '\\';
        return;
      case 'u':
      case 'U': {
        const std::size_t len = e == 'u' ? 4 : 8;
        std::uint32_t r = 0;
        auto [end, ec] =
            std::from_chars(s_.data() + pos_, s_.data() + std::min(s_.size(), pos_ + len), r, 16);
        if (ec != std::errc() || end != s_.data() + pos_ + len)
          fail(fmt::format("invalid escape: '\\{}'", e));
        pos_ += len;
        return go_unicode::append(out, r);
      }
      default:
        // A backslash at a line's end joins it to the next non-blank text.
        if (multi && (e == '\n' || e == ' ' || e == '\t' || e == '\r')) {
          pos_ -= 1;
          while (!at_end() && (peek() == ' ' || peek() == '\t' || peek() == '\r' || peek() == '\n'))
            line_ += peek() == '\n', ++pos_;
          return;
        }
        fail(fmt::format("invalid escape in string '\\{}'", e));
    }
  }

  std::string_view s_;
  std::size_t pos_ = 0;
  std::size_t line_ = 1;
  int depth_ = 0;
  std::string last_key_;
};

}  // namespace

bool parse_toml_value(std::string_view text, Value& out, std::string& error) {
  try {
    out = TomlReader(text).document();
    return true;
  } catch (const TomlParseError& e) {
    error = e.what();
    return false;
  }
}

}  // namespace sbr::render::helm
