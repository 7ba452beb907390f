// The parse tree of a Go text/template: every node knows its template file, line and column,
// so rendered output maps back to the template position that produced it.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "analyzer/render/helm/value.h"

namespace sbr::render::helm {

struct Pipeline;

// One operand of a command: `.a.b`, `$x.y`, `(pipe).z`, a function name, a literal.
struct Arg {
  enum class Type : std::uint8_t { Dot, Field, Variable, Pipe, Identifier, Literal };
  Type type = Type::Literal;
  std::string name;                 // variable ("$x", "$") or identifier
  std::vector<std::string> fields;  // field chain after the operand
  std::shared_ptr<Pipeline> pipe;   // Type::Pipe
  Value literal;                    // Type::Literal (string, number, bool, nil)
  Location at;
};

struct Command {
  std::vector<Arg> args;
  Location at;
};

struct Pipeline {
  std::vector<std::string> decls;  // `$x :=` / `$i, $v :=`
  bool assign = false;             // `$x =` (not a declaration)
  std::vector<Command> commands;
  Location at;
};

struct Node;
using NodeList = std::vector<Node>;

struct Node {
  enum class Type : std::uint8_t { Text, Action, If, Range, With, Template, Break, Continue };
  Type type = Type::Text;
  std::string text;  // Text; Template: the name
  std::shared_ptr<Pipeline> pipe;
  std::shared_ptr<NodeList> body, otherwise;  // if/range/with: list and else
  Location at;
};

// The templates of one parsed file: its main body and its `define`s / `block`s.
struct ParsedFile {
  NodeList body;
  std::map<std::string, std::shared_ptr<NodeList>> defines;
};

struct ParseError {
  std::string message;
  Location at;
};

// Parses `text` (file `file`); false with `error` set on a syntax error.
bool parse_template(std::string_view text, FileId file, ParsedFile& out, ParseError& error);

}  // namespace sbr::render::helm
