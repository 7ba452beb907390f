#include "analyzer/frontends/shell_words.h"

#include <algorithm>
#include <cctype>

namespace sbr {

std::vector<std::vector<std::string>> simple_commands(std::string_view text) {
  std::vector<std::vector<std::string>> out(1);
  std::string word;
  bool in_word = false;
  char quote = 0;
  auto end_word = [&] {
    if (in_word) out.back().push_back(word);
    word.clear();
    in_word = false;
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quote != 0) {
      if (c == quote) {
        quote = 0;
      } else if (c == '\\' && quote == '"' && i + 1 < text.size()) {
        word += text[++i];
      } else {
        word += c;
      }
    } else if (c == '\'' || c == '"') {
      quote = c;
      in_word = true;
    } else if (c == '\\' && i + 1 < text.size()) {
      word += text[++i];
      in_word = true;
    } else if (c == ' ' || c == '\t' || c == '\r') {
      end_word();
    } else if (c == ';' || c == '&' || c == '|' || c == '\n' || c == '(' || c == ')') {
      end_word();
      if (!out.back().empty()) out.emplace_back();
    } else if (c == '<' || c == '>') {
      // `2>` and `>&2`: the descriptor is not a word of the command.
      bool descriptor = in_word && std::all_of(word.begin(), word.end(), [](char d) {
                          return std::isdigit(static_cast<unsigned char>(d)) != 0;
                        });
      if (descriptor) {
        word.clear();
        in_word = false;
      }
      end_word();
      while (i + 1 < text.size() && (text[i + 1] == '>' || text[i + 1] == '&')) ++i;
      out.back().emplace_back(1, c);
    } else {
      word += c;
      in_word = true;
    }
  }
  end_word();
  if (out.back().empty()) out.pop_back();
  return out;
}

bool is_assignment(std::string_view w) {
  std::size_t eq = w.find('=');
  if (eq == std::string_view::npos || eq == 0) return false;
  return std::all_of(w.begin(), w.begin() + static_cast<std::ptrdiff_t>(eq), [](char c) {
    return c == '_' || std::isalnum(static_cast<unsigned char>(c)) != 0;
  });
}

}  // namespace sbr
