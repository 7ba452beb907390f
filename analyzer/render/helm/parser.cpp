// Go text/template's parser over the lexer's tokens: control structures nest through
// `end`/`else`; `define` and `block` bodies go to the file's named templates.
#include <charconv>
#include <optional>

#include "analyzer/render/helm/ast.h"
#include "analyzer/render/helm/lexer.h"

namespace sbr::render::helm {

namespace {

constexpr int kMaxNesting = 200;  // nested control structures and parentheses

struct Failure {
  ParseError error;
};

class Parser {
 public:
  Parser(const std::vector<Token>& toks, ParsedFile& out) : t_(toks), out_(out) {}

  void run() {
    std::string stop;
    out_.body = list(stop, 0);
    if (!stop.empty()) fail("unexpected {{" + stop + "}}", t_[k_].at);
  }

 private:
  [[noreturn]] static void fail(std::string message, Location at) {
    throw Failure{{std::move(message), at}};
  }

  const Token& peek(std::size_t ahead = 0) const {
    std::size_t at = k_ + ahead;
    return t_[at < t_.size() ? at : t_.size() - 1];
  }
  const Token& next() { return t_[k_ < t_.size() - 1 ? k_++ : k_]; }
  void expect(Tok type, const char* what) {
    if (peek().type != type) fail(std::string("expected ") + what, peek().at);
    next();
  }
  bool keyword(const char* word) const { return peek().type == Tok::Ident && peek().text == word; }

  // Nodes until EOF or an `end`/`else` action (its keyword goes to `stop`, tokens after it).
  NodeList list(std::string& stop, int depth) {
    if (depth > kMaxNesting) fail("templates nested too deeply", peek().at);
    NodeList nodes;
    while (peek().type != Tok::End) {
      if (peek().type == Tok::Text) {
        const Token& tok = next();
        nodes.push_back({Node::Type::Text, tok.text, nullptr, nullptr, nullptr, tok.at});
        continue;
      }
      Location at = peek().at;
      expect(Tok::Open, "{{");
      if (keyword("end") || keyword("else")) {
        stop = next().text;
        if (stop == "end") expect(Tok::Close, "}}");
        return nodes;
      }
      action(nodes, at, depth);
    }
    return nodes;
  }

  void action(NodeList& nodes, Location at, int depth) {
    if (keyword("if") || keyword("range") || keyword("with")) {
      std::string word = next().text;
      Node::Type type = word == "if"      ? Node::Type::If
                        : word == "range" ? Node::Type::Range
                                          : Node::Type::With;
      nodes.push_back(control(type, at, depth));
    } else if (keyword("define") || keyword("block")) {
      bool block = next().text == "block";
      define(nodes, at, block, depth);
    } else if (keyword("template")) {
      next();
      nodes.push_back(call(at));
    } else if (keyword("break") || keyword("continue")) {
      Node::Type type = next().text == "break" ? Node::Type::Break : Node::Type::Continue;
      expect(Tok::Close, "}}");
      nodes.push_back({type, "", nullptr, nullptr, nullptr, at});
    } else {
      auto pipe = pipeline(depth);
      expect(Tok::Close, "}}");
      nodes.push_back({Node::Type::Action, "", pipe, nullptr, nullptr, at});
    }
  }

  Node control(Node::Type type, Location at, int depth) {
    Node node{type, "", pipeline(depth), nullptr, nullptr, at};
    expect(Tok::Close, "}}");
    std::string stop;
    node.body = std::make_shared<NodeList>(list(stop, depth + 1));
    if (stop.empty()) fail("unexpected EOF: missing {{end}}", at);
    if (stop == "else") {
      if ((type == Node::Type::If && keyword("if")) ||
          (type == Node::Type::With && keyword("with"))) {
        Location inner = peek().at;
        next();
        node.otherwise = std::make_shared<NodeList>(NodeList{control(type, inner, depth + 1)});
        return node;
      }
      expect(Tok::Close, "}}");
      std::string end;
      node.otherwise = std::make_shared<NodeList>(list(end, depth + 1));
      if (end != "end") fail("expected {{end}} after {{else}}", at);
    }
    return node;
  }

  Node call(Location at) {
    if (peek().type != Tok::String) fail("template name must be a string", peek().at);
    Node node{Node::Type::Template, next().text, nullptr, nullptr, nullptr, at};
    if (peek().type != Tok::Close) node.pipe = pipeline(0);
    expect(Tok::Close, "}}");
    return node;
  }

  void define(NodeList& nodes, Location at, bool block, int depth) {
    if (peek().type != Tok::String) fail("define name must be a string", peek().at);
    std::string name = next().text;
    std::shared_ptr<Pipeline> pipe;
    if (block) pipe = pipeline(depth);
    expect(Tok::Close, "}}");
    std::string stop;
    auto body = std::make_shared<NodeList>(list(stop, depth + 1));
    if (stop != "end") fail("missing {{end}} of define \"" + name + "\"", at);
    out_.defines[name] = body;
    if (block) nodes.push_back({Node::Type::Template, name, pipe, nullptr, nullptr, at});
  }

  std::shared_ptr<Pipeline> pipeline(int depth) {
    if (depth > kMaxNesting) fail("pipelines nested too deeply", peek().at);
    auto pipe = std::make_shared<Pipeline>();
    pipe->at = peek().at;
    declarations(*pipe);
    while (true) {
      Command cmd;
      cmd.at = peek().at;
      while (peek().type != Tok::Pipe && peek().type != Tok::Close && peek().type != Tok::RParen &&
             peek().type != Tok::End)
        cmd.args.push_back(operand(depth));
      if (cmd.args.empty()) fail("missing value for command", cmd.at);
      pipe->commands.push_back(std::move(cmd));
      if (peek().type != Tok::Pipe) break;
      next();
      // Go's parser ends the pipeline at the delimiter after a trailing `|` (`{{ x | }}`).
      if (peek().type == Tok::Close || peek().type == Tok::RParen) break;
    }
    return pipe;
  }

  void declarations(Pipeline& pipe) {
    if (peek().type != Tok::Variable) return;
    if (peek(1).type == Tok::Declare || peek(1).type == Tok::Assign) {
      pipe.decls.push_back(next().text);
      pipe.assign = next().type == Tok::Assign;
    } else if (peek(1).type == Tok::Comma && peek(2).type == Tok::Variable &&
               (peek(3).type == Tok::Declare || peek(3).type == Tok::Assign)) {
      pipe.decls.push_back(next().text);
      next();
      pipe.decls.push_back(next().text);
      pipe.assign = next().type == Tok::Assign;
    }
  }

  Arg operand(int depth) {
    Arg arg = term(depth);
    while (peek().type == Tok::Field && !peek().space_before)
      arg.fields.push_back(next().text.substr(1));
    return arg;
  }

  Arg term(int depth) {
    const Token& tok = next();
    Arg arg;
    arg.at = tok.at;
    switch (tok.type) {
      case Tok::Dot:
        arg.type = Arg::Type::Dot;
        break;
      case Tok::Field:
        arg.type = Arg::Type::Field;
        arg.fields.push_back(tok.text.substr(1));
        break;
      case Tok::Variable:
        arg.type = Arg::Type::Variable;
        arg.name = tok.text;
        break;
      case Tok::Ident:
        arg.type = Arg::Type::Identifier;
        arg.name = tok.text;
        break;
      case Tok::String:
        arg.literal = Value::string(tok.text);
        break;
      case Tok::Bool:
        arg.literal = Value::boolean(tok.text == "true");
        break;
      case Tok::Nil:
        break;
      case Tok::Number:
        arg.literal = number(tok);
        break;
      case Tok::LParen:
        arg.type = Arg::Type::Pipe;
        arg.pipe = pipeline(depth + 1);
        expect(Tok::RParen, ")");
        break;
      default:
        fail("unexpected \"" + tok.text + "\" in command", tok.at);
    }
    return arg;
  }

  static Value number(const Token& tok) {
    const std::string& s = tok.text;
    if (auto hex = hex_float(s)) return Value::number(*hex);
    bool is_float = s.find_first_of(".eE") != std::string::npos && s.rfind("0x", 0) != 0;
    if (!is_float) {
      std::int64_t v = 0;
      bool neg = !s.empty() && s[0] == '-';
      std::string_view digits(s);
      if (!digits.empty() && (digits[0] == '-' || digits[0] == '+')) digits.remove_prefix(1);
      int base = 10;
      if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
        base = 16;
        digits.remove_prefix(2);
      }
      auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v, base);
      if (ec != std::errc() || p != digits.data() + digits.size())
        fail("bad number syntax: " + s, tok.at);
      return Value::integer(neg ? -v : v);
    }
    double d = 0;
    auto [p, ec] = std::from_chars(s.data() + (s[0] == '+'), s.data() + s.size(), d);
    if (ec != std::errc() || p != s.data() + s.size()) fail("bad number syntax: " + s, tok.at);
    return Value::number(d);
  }

  // Go's hexadecimal floats (`0x1p60`, `-0x1.8p3`): a float constant, as Go's idealConstant
  // reads any number with a `p` exponent (traefik's memory units multiply by 0x1p60).
  static std::optional<double> hex_float(std::string_view s) {
    bool neg = !s.empty() && s[0] == '-';
    if (!s.empty() && (s[0] == '-' || s[0] == '+')) s.remove_prefix(1);
    if (s.size() < 3 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X') ||
        s.find_first_of("pP") == std::string_view::npos)
      return std::nullopt;
    s.remove_prefix(2);
    double d = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), d, std::chars_format::hex);
    if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
    return neg ? -d : d;
  }

  const std::vector<Token>& t_;
  ParsedFile& out_;
  std::size_t k_ = 0;
};

}  // namespace

bool parse_template(std::string_view text, FileId file, ParsedFile& out, ParseError& error) {
  std::vector<Token> toks;
  LexError lex_error;
  if (!lex_template(text, file, toks, lex_error)) {
    error = {lex_error.message, lex_error.at};
    return false;
  }
  try {
    Parser(toks, out).run();
  } catch (const Failure& f) {
    error = f.error;
    return false;
  }
  return true;
}

}  // namespace sbr::render::helm
