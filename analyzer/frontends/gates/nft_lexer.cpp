#include "analyzer/frontends/gates/nft_lexer.h"

namespace sbr::gates {
namespace {

bool is_break(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '{' || c == '}' || c == ';' ||
         c == ',' || c == '#' || c == '"';
}

}  // namespace

bool lex_nft(const std::vector<Segment>& segments, std::vector<Token>& out,
             std::vector<Problem>& problems) {
  for (const Segment& seg : segments) {
    if (seg.symbolic) {
      Token t{TokKind::Word, seg.text, true, seg.at, seg.host_net};
      out.push_back(std::move(t));
      continue;
    }
    const std::string& s = seg.text;
    std::uint32_t line = seg.at.at.line, col = seg.at.at.column == 0 ? 1 : seg.at.at.column;
    auto here = [&] {
      Provenance p = seg.at;
      p.at.line = line;
      p.at.column = col;
      return p;
    };
    size_t i = 0;
    auto advance = [&](size_t n) {
      for (size_t k = 0; k < n && i < s.size(); ++k, ++i) {
        if (s[i] == '\n') {
          ++line;
          col = 1;
        } else {
          ++col;
        }
      }
    };
    while (i < s.size()) {
      char c = s[i];
      if (c == ' ' || c == '\t' || c == '\r') {
        advance(1);
      } else if (c == '\\' && i + 1 < s.size() && (s[i + 1] == '\n' || s[i + 1] == '\r')) {
        advance(s[i + 1] == '\r' && i + 2 < s.size() && s[i + 2] == '\n' ? 3 : 2);
      } else if (c == '\n') {
        out.push_back({TokKind::Newline, "\n", false, here()});
        advance(1);
      } else if (c == '#') {
        while (i < s.size() && s[i] != '\n') advance(1);
      } else if (c == '{' || c == '}' || c == ';' || c == ',') {
        TokKind k = c == '{'   ? TokKind::LBrace
                    : c == '}' ? TokKind::RBrace
                    : c == ';' ? TokKind::Semi
                               : TokKind::Comma;
        out.push_back({k, std::string(1, c), false, here()});
        advance(1);
      } else if (c == '"') {
        Provenance start = here();
        size_t end = s.find('"', i + 1);
        if (end == std::string::npos) {
          problems.push_back({ProblemKind::ParseError, "nft: unterminated string", start.at});
          return false;
        }
        out.push_back({TokKind::String, s.substr(i + 1, end - i - 1), false, start});
        advance(end - i + 1);
      } else {
        Provenance start = here();
        size_t j = i;
        while (j < s.size() && !is_break(s[j])) ++j;
        out.push_back({TokKind::Word, s.substr(i, j - i), false, start});
        advance(j - i);
      }
    }
    // Each argument word of a command ends a token, as the shell split it.
  }
  return true;
}

}  // namespace sbr::gates
