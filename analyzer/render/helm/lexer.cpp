#include "analyzer/render/helm/lexer.h"

#include <cctype>
#include <charconv>

namespace sbr::render::helm {

namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}
bool is_alnum(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

class Lexer {
 public:
  Lexer(std::string_view src, FileId file, std::vector<Token>& out)
      : src_(src), file_(file), out_(out) {}

  bool run(LexError& error) {
    while (pos_ < src_.size()) {
      if (!text()) break;
      if (!action(error)) return false;
    }
    out_.push_back({Tok::End, "", false, here()});
    return true;
  }

 private:
  Location here() const { return Location{file_, line_, col_}; }

  void advance(std::size_t n) {
    for (std::size_t k = 0; k < n && pos_ < src_.size(); ++k, ++pos_) {
      if (src_[pos_] == '\n') {
        ++line_;
        col_ = 1;
      } else {
        ++col_;
      }
    }
  }

  bool left_trim_at(std::size_t open) const {
    return open + 3 < src_.size() && src_[open + 2] == '-' && is_space(src_[open + 3]);
  }

  // Text up to the next `{{`; false when the source ends.
  bool text() {
    std::size_t open = src_.find("{{", pos_);
    std::size_t stop = open == std::string_view::npos ? src_.size() : open;
    if (trim_next_) {
      while (pos_ < stop && is_space(src_[pos_])) advance(1);
      trim_next_ = false;
    }
    std::size_t end = stop;
    if (open != std::string_view::npos && left_trim_at(open)) {
      while (end > pos_ && is_space(src_[end - 1])) --end;
    }
    if (end > pos_)
      out_.push_back({Tok::Text, std::string(src_.substr(pos_, end - pos_)), false, here()});
    advance(stop - pos_);
    return open != std::string_view::npos;
  }

  bool action(LexError& error) {
    Location open_at = here();
    bool left = left_trim_at(pos_);
    advance(left ? 4 : 2);
    skip_space();
    if (src_.compare(pos_, 2, "/*") == 0) return comment(open_at, error);
    out_.push_back({Tok::Open, "", false, open_at});
    while (true) {
      bool space = skip_space();
      if (pos_ >= src_.size()) return fail(error, "unclosed action", open_at);
      if (close_here(space)) return true;
      if (!token(space, error)) return false;
    }
  }

  bool comment(Location open_at, LexError& error) {
    std::size_t end = src_.find("*/", pos_ + 2);
    if (end == std::string_view::npos) return fail(error, "unclosed comment", open_at);
    advance(end + 2 - pos_);
    bool space = skip_space();
    if (!close_here(space, false))
      return fail(error, "comment ends before closing delimiter", open_at);
    return true;
  }

  bool skip_space() {
    bool any = false;
    while (pos_ < src_.size() && is_space(src_[pos_])) {
      advance(1);
      any = true;
    }
    return any;
  }

  bool close_here(bool space, bool emit = true) {
    bool right = space && src_.compare(pos_, 3, "-}}") == 0;
    if (!right && src_.compare(pos_, 2, "}}") != 0) return false;
    if (emit) out_.push_back({Tok::Close, "", false, here()});
    advance(right ? 3 : 2);
    trim_next_ = right;
    return true;
  }

  static bool fail(LexError& error, std::string message, Location at) {
    error = {std::move(message), at};
    return false;
  }

  void emit(Tok type, std::size_t len, bool space, std::string text = {}) {
    Location at = here();
    if (text.empty()) text = std::string(src_.substr(pos_, len));
    out_.push_back({type, std::move(text), space, at});
    advance(len);
  }

  std::size_t word_end(std::size_t from) const {
    while (from < src_.size() && is_alnum(src_[from])) ++from;
    return from;
  }

  bool token(bool space, LexError& error) {
    char c = src_[pos_];
    char n = pos_ + 1 < src_.size() ? src_[pos_ + 1] : '\0';
    if (c == '"' || c == '`') return quoted(space, error);
    if (c == '\'') return character(space, error);
    if (c == '(') return emit(Tok::LParen, 1, space), true;
    if (c == ')') return emit(Tok::RParen, 1, space), true;
    if (c == '|') return emit(Tok::Pipe, 1, space), true;
    if (c == ',') return emit(Tok::Comma, 1, space), true;
    if (c == ':' && n == '=') return emit(Tok::Declare, 2, space), true;
    if (c == '=') return emit(Tok::Assign, 1, space), true;
    if (c == '$') return emit(Tok::Variable, word_end(pos_ + 1) - pos_, space), true;
    if (c == '.' && !std::isdigit(static_cast<unsigned char>(n))) {
      std::size_t end = word_end(pos_ + 1);
      return emit(end == pos_ + 1 ? Tok::Dot : Tok::Field, end - pos_, space), true;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.' ||
        ((c == '-' || c == '+') && (std::isdigit(static_cast<unsigned char>(n)) || n == '.')))
      return number(space), true;
    if (is_alnum(c)) {
      std::size_t end = word_end(pos_);
      std::string_view w = src_.substr(pos_, end - pos_);
      Tok t = (w == "true" || w == "false") ? Tok::Bool : w == "nil" ? Tok::Nil : Tok::Ident;
      return emit(t, end - pos_, space), true;
    }
    return fail(error, std::string("unexpected character '") + c + "' in action", here());
  }

  void number(bool space) {
    std::size_t end = pos_ + 1;
    while (end < src_.size() && (is_alnum(src_[end]) || src_[end] == '.' ||
                                 ((src_[end] == '-' || src_[end] == '+') &&
                                  (src_[end - 1] == 'e' || src_[end - 1] == 'E'))))
      ++end;
    emit(Tok::Number, end - pos_, space);
  }

  bool quoted(bool space, LexError& error) {
    Location at = here();
    char q = src_[pos_];
    std::string value;
    std::size_t k = pos_ + 1;
    for (; k < src_.size() && src_[k] != q; ++k) {
      if (q == '"' && src_[k] == '\n') return fail(error, "unterminated quoted string", at);
      if (q == '"' && src_[k] == '\\' && k + 1 < src_.size()) {
        k = escape(k + 1, value);
        continue;
      }
      value += src_[k];
    }
    if (k >= src_.size()) return fail(error, "unterminated quoted string", at);
    advance(k + 1 - pos_);
    out_.push_back({Tok::String, std::move(value), space, at});
    return true;
  }

  // The escape at `k` (after the backslash) appended to `value`; returns its last index.
  std::size_t escape(std::size_t k, std::string& value) const {
    char e = src_[k];
    switch (e) {
      case 'n':
        value += '\n';
        return k;
      case 't':
        value += '\t';
        return k;
      case 'r':
        value += '\r';
        return k;
      case '0':
        value += '\0';
        return k;
      case 'x':
        return hex_escape(k, 2, value);
      case 'u':
        return hex_escape(k, 4, value);
      default:
        value += e;
        return k;
    }
  }

  // `\xHH` / `\uHHHH` at `k` (the letter); a malformed escape is kept as its letter.
  std::size_t hex_escape(std::size_t k, std::size_t digits, std::string& value) const {
    unsigned cp = 0;
    const char* b = src_.data() + k + 1;
    if (k + digits >= src_.size() || std::from_chars(b, b + digits, cp, 16).ptr != b + digits) {
      value += src_[k];
      return k;
    }
    if (digits == 2)
      value += static_cast<char>(cp);
    else
      append_utf8(cp, value);
    return k + digits;
  }

  static void append_utf8(unsigned cp, std::string& out) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  bool character(bool space, LexError& error) {
    Location at = here();
    std::size_t end = src_.find('\'', pos_ + 1);
    if (end == std::string_view::npos || end == pos_ + 1)
      return fail(error, "bad character constant", at);
    std::string body(src_.substr(pos_ + 1, end - pos_ - 1));
    std::string decoded;
    if (body[0] == '\\' && body.size() > 1) escape(pos_ + 2, decoded);
    unsigned char ch = decoded.empty() ? static_cast<unsigned char>(body[0])
                                       : static_cast<unsigned char>(decoded[0]);
    advance(end + 1 - pos_);
    out_.push_back({Tok::Number, std::to_string(ch), space, at});
    return true;
  }

  std::string_view src_;
  FileId file_;
  std::vector<Token>& out_;
  std::size_t pos_ = 0;
  std::uint32_t line_ = 1, col_ = 1;
  bool trim_next_ = false;
};

}  // namespace

bool lex_template(std::string_view src, FileId file, std::vector<Token>& out, LexError& error) {
  Lexer lexer(src, file, out);
  return lexer.run(error);
}

}  // namespace sbr::render::helm
