// nft syntax (files, heredocs, `nft add ...` command lines) into the shared Ruleset.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "analyzer/frontends/gates/nft_lexer.h"
#include "analyzer/frontends/gates/ruleset.h"

namespace sbr::gates {

using Defines = std::map<std::string, std::vector<Value>>;

// Applies one nft input (a file, a heredoc, or the words of one command) to `rs` as nft does:
// atomically, so on an error nothing changes and a ParseError is added. Returns success.
bool apply_nft(const std::vector<Token>& tokens, Ruleset& rs, std::vector<Problem>& problems);

// The matches and verdict of one rule statement, tokens [begin, end). Unknown statements are
// skipped: nft has far more of them than an egress verdict depends on.
bool parse_nft_rule(const std::vector<Token>& t, size_t begin, size_t end, const Defines& defs,
                    Rule& out, std::string& error, Location& error_at);

// Values of a `{ a, b }` set, a `$define` or a single word starting at t[i]; advances i.
std::vector<Value> parse_nft_values(const std::vector<Token>& t, size_t& i, size_t end,
                                    const Defines& defs, std::string& error);

bool is_nft_family(const std::string& w, Family* f = nullptr);

}  // namespace sbr::gates
