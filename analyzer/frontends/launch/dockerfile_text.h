// The text layer of a Dockerfile: instructions with their continuation lines and heredocs,
// Dockerfile word splitting, and variable expansion of ARG/ENV defaults. No facts here.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace sbr::launch::dockerfile {

// `<<EOF` ... `EOF` following an instruction (BuildKit heredoc); `body` ends with a newline.
struct Heredoc {
  std::string word;
  std::string body;
  std::uint32_t first_line = 0;  // the body's first line in the file
};

struct Instruction {
  std::string keyword;  // upper-cased
  std::string args;     // continuation lines joined with a space
  std::uint32_t line = 0;
  std::uint32_t args_column = 0;
  std::vector<Heredoc> heredocs;
};

std::vector<Instruction> instructions(std::string_view text);

std::vector<std::string> words(const std::string& s);         // split at blanks
std::vector<std::string> quoted_words(const std::string& s);  // "a b" is one word, quotes removed

// `$NAME`, `${NAME}`, `${NAME:-default}`, `${NAME-default}` with the values known: for FROM,
// where an unknown variable leaves nothing to judge, the result is "".
std::string expand_all(const std::string& s, const std::map<std::string, std::string>& vars);
// The same in shell text (a RUN line): unknown variables and single-quoted text stay as
// written, since the shell, not the builder, expands them.
std::string expand_known(const std::string& s, const std::map<std::string, std::string>& vars);

// ENV A=1 B="2" or the legacy ENV A 1.
std::vector<std::pair<std::string, std::string>> env_pairs(const std::string& args);

}  // namespace sbr::launch::dockerfile
