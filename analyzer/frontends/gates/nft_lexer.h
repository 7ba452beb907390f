// Tokens of nft syntax with their positions. The same lexer reads a ruleset file, a heredoc
// body and the argument words of `nft add ...` commands, so a rule's location is right in each.
#pragma once

#include <string>
#include <vector>

#include "analyzer/model/model.h"

namespace sbr::gates {

enum class TokKind : std::uint8_t { Word, String, LBrace, RBrace, Semi, Comma, Newline };

struct Token {
  TokKind kind = TokKind::Word;
  std::string text;
  bool symbolic = false;  // a shell value the renderer could not resolve
  Provenance from;
  std::string host_net{};  // a symbolic value computed from the host's network (host_network.h)
};

// A piece of text and where its first character is. `symbolic` pieces become one opaque word.
struct Segment {
  std::string text;
  Provenance at;
  bool symbolic = false;
  bool tainted = false;
  std::string host_net{};
};

// Returns false (and adds a ParseError) on an unterminated string.
bool lex_nft(const std::vector<Segment>& segments, std::vector<Token>& out,
             std::vector<Problem>& problems);

}  // namespace sbr::gates
