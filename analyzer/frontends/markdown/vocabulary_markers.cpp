// The words that change what a clause claims: a negation next to the control, a condition or a
// hedge in front of it, advice, an exception, "always" (docs/doc-claims.md, "How a sentence
// reads").
#include <re2/re2.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <memory>

#include "analyzer/frontends/markdown/vocabulary.h"
#include "analyzer/support/strings.h"

namespace sbr::md {
namespace {

// A word, a code span (one token) or a punctuation mark that ends a negation's reach.
struct Token {
  std::string text;  // lower case; "`" for a code span; the mark for punctuation
  bool stop = false;
};

// Bytes of multi-byte UTF-8 characters count as letters, so that "don’t" (a curly apostrophe)
// stays one word.
bool word_char(char c) {
  auto u = static_cast<unsigned char>(c);
  return std::isalnum(u) != 0 || u >= 0x80 || c == '\'' || c == '-' || c == '_';
}

std::vector<Token> tokens(std::string_view s) {
  std::vector<Token> out;
  for (std::size_t i = 0; i < s.size();) {
    char c = s[i];
    if (c == '`') {
      std::size_t close = s.find('`', i + 1);
      i = close == std::string_view::npos ? s.size() : close + 1;
      out.push_back({"`", false});
    } else if (word_char(c)) {
      std::size_t j = i;
      while (j < s.size() && word_char(s[j])) ++j;
      out.push_back({lower(s.substr(i, j - i)), false});
      i = j;
    } else {
      if (c == ',' || c == '(' || c == ')' || c == ':' || c == '"') out.push_back({{c}, true});
      ++i;
    }
  }
  return out;
}

bool is_negation(const std::string& w) {
  static constexpr std::array<std::string_view, 14> kWords = {
      "not",     "no",    "never",   "without", "cannot", "none",    "nor",
      "neither", "lacks", "lacking", "instead", "rather", "missing", "absent"};
  if (std::find(kWords.begin(), kWords.end(), w) != kWords.end()) return true;
  return w.ends_with("n't") || w.ends_with("n\xE2\x80\x99t");
}

// A word that starts another statement. Directly before the claim it joins a list ("not
// `--read-only` or `--cap-drop=ALL`"), and the negation before the list still governs it.
bool is_conjunction(const std::string& w) {
  return w == "and" || w == "but" || w == "or" || w == "while" || w == "whereas" ||
         w == "although" || w == "though" || w == "so" || w == "because";
}

}  // namespace

std::string negation_before(std::string_view before, int max_words) {
  std::vector<Token> t = tokens(before);
  int words = 0;
  for (auto it = t.rbegin(); it != t.rend() && words < max_words; ++it) {
    if (it->stop || (it != t.rbegin() && is_conjunction(it->text))) break;
    if (is_negation(it->text)) return it->text;
    ++words;
  }
  return "";
}

std::string negation_after(std::string_view after) {
  std::vector<Token> t = tokens(after);
  static constexpr std::array<std::string_view, 11> kVerbs = {
      "is", "are", "was", "were", "does", "do", "did", "has", "have", "gets", "get"};
  for (std::size_t i = 0; i < t.size() && i < 3; ++i) {
    if (t[i].stop) break;
    if (is_negation(t[i].text)) return t[i].text;
    // Past the first word only a verb keeps the negation attached: "`--read-only` is not set",
    // not "`--read-only`, and no other flag".
    if (std::find(kVerbs.begin(), kVerbs.end(), t[i].text) == kVerbs.end()) break;
  }
  return "";
}

std::string advice_marker(std::string_view clause, bool imperative_counts) {
  static const auto kModal = compile_ci(
      R"(\b(should|must|need to|needs to|have to|has to|recommend(?:ed|s)?|we suggest|consider|make sure|ensure that|you can|you may|you could|you might|it is advisable)\b)");
  static const auto kImperative = compile_ci(
      R"(^[\s*_>-]*(?:(?:to|for|in order to|if you want to)\b[^,]{0,60},\s*)?(?:please\s+)?(add|use|set|pass|enable|configure|run|mount|make|give|keep|put|avoid|prefer|install|build|start|replace|write|remove|specify|declare|apply|turn|switch|ensure|check|verify|try|see|edit|change|bind|publish|restrict|disable|drop|limit|deny|allow|block|choose|pick|review|read|note|define|create|deploy|adjust|increase|decrease|raise|lower|tune|modify|update|supply)\s)");
  std::string m;
  if (RE2::PartialMatch(clause, *kModal, &m)) return lower(m);
  if (imperative_counts && RE2::PartialMatch(clause, *kImperative, &m)) return lower(m);
  return "";
}

std::string hedge_marker(std::string_view clause) {
  static const auto kHedge = compile_ci(
      R"(\b(optional(?:ly)?|may|might|can be|could|opt-in|if enabled|when enabled|if configured|when configured|experimental)\b|(-ish)\b)");
  std::string a, b;
  if (RE2::PartialMatch(clause, *kHedge, &a, &b)) return lower(a.empty() ? b : a);
  return "";
}

std::string planned_marker(std::string_view clause) {
  static const auto kPlanned = compile_ci(
      R"(\b(we (?:plan|intend|want|hope|aim) to|(?:is|are) planned|planned for|on (?:the|our) roadmap|roadmap|in a future (?:release|version)|in the future|future work|coming soon|not yet|todo|will eventually|is proposed|are proposed)\b)");
  std::string m;
  if (RE2::PartialMatch(clause, *kPlanned, &m)) return lower(m);
  return "";
}

std::string condition_marker(std::string_view before) {
  static const auto kCondition = compile_ci(
      R"(\b(if|when|whenever|once|only (?:if|when|with|in|under|on)|in \S+ mode|with \S+ (?:set|enabled|given))\b)");
  std::string m;
  if (RE2::PartialMatch(before, *kCondition, &m)) return lower(m);
  return "";
}

std::string platform_marker(std::string_view clause) {
  static const auto kPlatform = compile_ci(
      R"(\b((?:on|under|for) (?:macos|mac os|os x|a mac|linux|windows|wsl2?|darwin|apple silicon))\b)");
  std::string m;
  if (RE2::PartialMatch(clause, *kPlatform, &m)) return m;
  return "";
}

std::string marker_platform(std::string_view marker) {
  std::string m = lower(marker);
  auto has = [&](std::string_view w) { return m.find(w) != std::string::npos; };
  if (has("wsl")) return "wsl";
  if (has("macos") || has("mac os") || has("os x") || has("a mac") || has("darwin")) return "macos";
  if (has("linux")) return "linux";
  if (has("windows")) return "windows";
  return "";
}

std::string exception_text(std::string_view clause) {
  static const auto kException =
      compile_ci(R"(\b(?:unless|except(?: when| with| in| for| if)?|other than)\b)");
  re2::StringPiece m;
  const re2::StringPiece all(clause.data(), clause.size());
  if (!kException->Match(all, 0, clause.size(), RE2::UNANCHORED, &m, 1)) return "";
  std::string_view rest = clause.substr(static_cast<std::size_t>(m.data() - clause.data()));
  rest = trim(rest);
  return std::string(rest.substr(0, std::min<std::size_t>(rest.size(), 80)));
}

bool says_every_path(std::string_view clause) {
  static const auto kEvery = compile_ci(
      R"(\b(?:always|in every mode|in all modes|every mode|on every path|whatever the mode|regardless of (?:the )?mode|in any mode|even with)\b)");
  return RE2::PartialMatch(clause, *kEvery);
}

std::unique_ptr<RE2> compile_ci(const char* pattern) {
  RE2::Options o;
  o.set_case_sensitive(false);
  return std::make_unique<RE2>(pattern, o);
}

}  // namespace sbr::md
