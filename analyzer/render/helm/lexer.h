// Go text/template's lexer: text and actions with `{{-`/`-}}` trimming and comments removed,
// every token at its file position.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/model/provenance.h"

namespace sbr::render::helm {

enum class Tok : std::uint8_t {
  Text,
  Open,
  Close,
  Ident,
  Field,
  Dot,
  Variable,
  String,
  Number,
  Bool,
  Nil,
  LParen,
  RParen,
  Pipe,
  Declare,
  Assign,
  Comma,
  End
};

struct Token {
  Tok type = Tok::End;
  std::string text;           // Text: the (trimmed) text; String: the unquoted value
  bool space_before = false;  // `$x .a` is two operands, `$x.a` one
  Location at;
};

struct LexError {
  std::string message;
  Location at;
};

// Splits `src` into tokens; false with `error` on an unterminated action, string or comment.
bool lex_template(std::string_view src, FileId file, std::vector<Token>& out, LexError& error);

}  // namespace sbr::render::helm
