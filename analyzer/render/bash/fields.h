// Word-level helpers shared by the expansion translation units (expand.cpp, expand_text.cpp).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/render/bash/evaluator.h"
#include "analyzer/support/strings.h"

namespace sbr::bash {

// Moves a word to where it is used, keeping the place it came from (when it has a role) as the
// nearest step of its provenance chain; the condition of that place joins the use's.
void move_to_use(EWord& w, const Provenance& use);
// A word that keeps its own place (an array element) records where it is used: the last step of
// its chain, one per use line however deeply the use is nested.
void note_use(EWord& w, const Provenance& use);
// Marks where a value is placed (assigned, an array element, a default) for move_to_use.
void mark_site(EWord& w, StepRole role, const std::string& note);
// Joins field lists as adjacent text does: the last field of `acc` meets the first of `next`.
void join_fields(std::vector<EWord>& acc, std::vector<EWord> next, bool& started);
// Splits an unquoted expansion on IFS characters.
std::vector<EWord> split_fields(const EWord& w, const std::string& ifs = " \t\n");
// The lines of a known input, each keeping the place of the word it starts in (the statement
// that printed it, the heredoc body). A final line without a newline is a line too.
std::vector<EWord> split_lines(const std::vector<EWord>& input);
// Whether the word's text stands for all of it: known, or an operator's own variable kept as
// `$HOME/.x` with no unknown part. Where its lines end is then known (capture.cpp's
// `printf '%s\n'` output, read back by read_builtin.cpp); an unknown with no text may hold any.
inline bool shows_its_text(const EWord& w) {
  return !w.w.symbolic || (!w.w.text.empty() && w.w.unknown_parts.empty());
}
// What `printf FORMAT ARGS...` prints (cmd[0] is printf) with %s, %d, %%, \n, \t and \\, the
// format reused while arguments remain, as printf does; nullopt for any other directive
// (capture.cpp).
std::optional<std::string> printf_output(const std::vector<EWord>& cmd);
// Brace expansion of an unquoted word's text, as bash does before any other expansion:
// `--{privileged,rm}` is `--privileged --rm`, nested groups too, in order. A word without a
// group is itself alone; one that would expand past `limit` words gives none (not known).
std::vector<std::string> brace_expand(std::string_view word, size_t limit = 1024);
// Removes backslash escapes of an unquoted or double-quoted word.
std::string unescape_word(std::string_view s);
// $'...' escapes.
std::string ansi_c(std::string_view s);
// Shell pattern matching (`case`, `${x#pat}`): *, ?, [...].
// Variables every login environment sets: symbolic, but not attacker-chosen.
bool well_known_env(const std::string& n);
// The value of an environment parameter: symbolic, and tainted unless well known.
std::vector<EWord> env_word(const std::string& name, Location at);

}  // namespace sbr::bash
