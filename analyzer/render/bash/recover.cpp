// Parse recovery (issue 33): tree-sitter-bash 0.23 fails on some bash that bash accepts
// (`$((10#$n))`, `exec 3<>/dev/tcp/...`, `[[ ! ("$1" =~ $re) ]]`). Where its first error is one
// of those constructs, the construct is rewritten in place with bytes of the same length and
// the same newlines, and the text is parsed again; repeated while each rewrite lets the parse go
// further, within a bound. Every offset, line and column stays the file's own, and each rewrite
// is a Repair the evaluator reads as "not known" (SB0018) instead of deciding on the rewritten
// text. The rewrites only ever touch a construct at tree-sitter's error, and bash -n still
// judges the file (analyzer/frontends/bash/syntax_verdict.cpp): a repair never hides a syntax
// error bash reports.
#include "analyzer/render/bash/recover.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <vector>

namespace sbr::bash {
namespace recover {
namespace {

std::string neutral(std::string_view written, char fill) {
  std::string out(written.size(), fill);
  for (std::size_t i = 0; i < written.size(); ++i) {
    if (written[i] == '\n') out[i] = '\n';
  }
  return out;
}

// Where a word that starts at `i` ends: at a blank or an operator bash ends words on.
std::size_t word_end(std::string_view t, std::size_t i) {
  t = t.substr(0, std::min(t.size(), i + kScanWindow));
  while (i < t.size() && std::string_view(" \t\r\n;&|<>()").find(t[i]) == std::string_view::npos)
    i = skip_unit(t, i);
  return std::min(i, t.size());
}

Rewrite rewrite_of(std::size_t begin, std::string bytes, std::size_t affected_begin,
                   std::size_t affected_end, std::string what) {
  Rewrite r;
  r.settle_past = static_cast<std::uint32_t>(std::max(begin + bytes.size(), affected_end));
  r.begin = static_cast<std::uint32_t>(begin);
  r.bytes = std::move(bytes);
  r.affected_begin = static_cast<std::uint32_t>(affected_begin);
  r.affected_end = static_cast<std::uint32_t>(affected_end);
  r.what = std::move(what);
  return r;
}

// Blanks or a comment up to the end of the line.
bool rest_of_line_empty(std::string_view t, std::size_t i) {
  while (i < t.size() && (t[i] == ' ' || t[i] == '\t' || t[i] == '\r')) ++i;
  return i >= t.size() || t[i] == '\n' || t[i] == '#';
}

}  // namespace

// `$((10#$port))`, `$((0x$hash))`: a base before an expansion. The prefix becomes blanks; the
// arithmetic that reads the operand is not known (bash's value depends on the base).
std::optional<Rewrite> rewrite_base_prefix(const SyntaxTree& tree, TSNode err) {
  std::string_view t = tree.text;
  std::size_t s = ts_node_start_byte(err);
  if (s >= t.size() || (s > 0 && (std::isalnum(static_cast<unsigned char>(t[s - 1])) != 0 ||
                                  t[s - 1] == '#' || t[s - 1] == '_')))
    return std::nullopt;
  std::size_t j = s;
  while (j < t.size() && std::isdigit(static_cast<unsigned char>(t[j])) != 0) ++j;
  std::size_t prefix_end = 0;
  if (j > s && j - s <= 2 && j < t.size() && t[j] == '#') {
    prefix_end = j + 1;
  } else if (t.compare(s, 2, "0x") == 0 || t.compare(s, 2, "0X") == 0) {
    prefix_end = s + 2;
  } else {
    return std::nullopt;
  }
  if (prefix_end >= t.size() || t[prefix_end] != '$') return std::nullopt;
  std::size_t end = skip_unit(t.substr(0, prefix_end + kScanWindow), prefix_end);
  if (end == prefix_end + 1) {  // `$name` or `$1`
    while (end < t.size() &&
           (std::isalnum(static_cast<unsigned char>(t[end])) != 0 || t[end] == '_'))
      ++end;
  }
  std::string prefix(t.substr(s, prefix_end - s));
  return rewrite_of(
      s, std::string(prefix.size(), ' '), s, end,
      fmt::format("`{}` (a number's base before an expansion) is beyond tree-sitter-bash: "
                  "it was read as blanks, and the arithmetic that reads `{}` is taken as "
                  "not known",
                  prefix, quoted(t.substr(s, end - s))));
}

// `exec 3<>"/dev/tcp/$host/$port"`, `exec {fd}<>"$lock"`: read-write becomes a read. The
// evaluator models no read-write descriptor, so nothing it decides is lost but the write.
std::optional<Rewrite> rewrite_read_write(const SyntaxTree& tree, TSNode err) {
  std::string_view t = tree.text;
  std::size_t s = ts_node_start_byte(err);
  std::size_t at = 0;
  if (t.compare(s, 2, "<>") == 0) {
    at = s;
  } else if (s > 0 && t.compare(s - 1, 2, "<>") == 0) {
    at = s - 1;
  } else {
    return std::nullopt;
  }
  if (at > 0 && t[at - 1] == '<') return std::nullopt;  // `<<>`: a here-document, not this
  std::size_t dest = at + 2;
  while (dest < t.size() && (t[dest] == ' ' || t[dest] == '\t')) ++dest;
  std::string_view target = t.substr(dest, word_end(t, dest) - dest);
  return rewrite_of(
      at, "< ", at, at,
      fmt::format("`<>` (a redirection that opens `{}` for reading and writing) is beyond "
                  "tree-sitter-bash: it was read as `<`, so that the command may also "
                  "write the file, and create it, is not modelled",
                  quoted(target)));
}

// `python3 <<'EOF' &`: tree-sitter-bash takes no `&` (or `;`) after a here-document's start.
// The byte becomes a blank; a blanked `&` is still honoured (Repair::background).
std::optional<Rewrite> rewrite_heredoc_amp(const SyntaxTree& tree, TSNode err) {
  std::string_view t = tree.text;
  std::size_t s = ts_node_start_byte(err);
  TSNode parent = ts_node_parent(err);
  if (!is(parent, K::heredoc_redirect) || s >= t.size()) return std::nullopt;
  bool amp = t[s] == '&' && (s + 1 >= t.size() || (t[s + 1] != '&' && t[s + 1] != '>'));
  bool semi = t[s] == ';' && (s + 1 >= t.size() || t[s + 1] != ';');
  if ((!amp && !semi) || !rest_of_line_empty(t, s + 1)) return std::nullopt;
  Rewrite r =
      rewrite_of(s, " ", s, s,
                 amp ? std::string("`&` after a here-document's start is beyond "
                                   "tree-sitter-bash: it was read as a blank, and the command "
                                   "is still taken to run in the background")
                     : std::string("`;` after a here-document's start is beyond "
                                   "tree-sitter-bash: it was read as a blank (it ends the "
                                   "command, as the line's end does)"));
  r.background = amp;
  return r;
}

// `declare -f pmcp::sanitize_name`: a name tree-sitter-bash does not take as a declaration's
// operand. The word becomes x's; the evaluator skips it (not known what it declares).
std::optional<Rewrite> rewrite_declared_name(const SyntaxTree& tree, TSNode err) {
  TSNode parent = ts_node_parent(err);
  if (!is(parent, K::declaration_command)) return std::nullopt;
  std::string_view t = tree.text;
  std::size_t s = ts_node_start_byte(err);
  std::size_t e = word_end(t, s);
  if (e <= s || e - s > 4096) return std::nullopt;
  std::string_view word = t.substr(s, e - s);
  std::string_view head = tree.slice(ts_node_child(parent, 0));
  return rewrite_of(
      s, neutral(word, 'x'), s, e,
      fmt::format("the name `{}` given to `{}` is beyond tree-sitter-bash: it was read "
                  "as an unknown word, and what `{}` does with it is not known",
                  quoted(word), head, head));
}

// `"${count:+ ($count)}"`, `${line//<a>/<a>${BASH_REMATCH[1]}}`: an operand tree-sitter-bash
// cannot read. The operand becomes x's; the expansion's value is not known.
std::optional<Rewrite> rewrite_param_operand(const SyntaxTree& tree, TSNode err) {
  std::string_view t = tree.text;
  std::size_t s = ts_node_start_byte(err);
  std::size_t lo = s > 4096 ? s - 4096 : 0;
  unsigned tried = 0;
  for (std::size_t i = std::min(s + 1, t.size()); i-- > lo && tried < 16;) {
    if (t.compare(i, 2, "${") != 0 || (i > 0 && t[i - 1] == '\\')) continue;
    ++tried;
    auto span = param_span(t, i);
    if (!span || span->operand > s || span->close < s || span->operand == span->close) continue;
    std::string_view operand = t.substr(span->operand, span->close - span->operand);
    std::string bytes = neutral(operand, 'x');
    if (bytes == operand) continue;  // rewritten already
    return rewrite_of(
        span->operand, std::move(bytes), i, span->close + 1,
        fmt::format("the operand `{}` of `{}...}}` is beyond tree-sitter-bash: it was "
                    "read as x's, and the expansion's value is taken as not known",
                    quoted(operand), quoted(t.substr(i, span->operand - i))));
  }
  return std::nullopt;
}

namespace {

// The inside of `[[ ... ]]` as one word of x's on its first line, every later line ending in a
// continuation, blanks elsewhere: a test of one word, with the same lines.
std::optional<std::string> one_word_test(std::string_view inside) {
  std::string out(inside.size(), ' ');
  bool placed = false, done = false;
  for (std::size_t k = 0; k < inside.size(); ++k) {
    if (inside[k] == '\n') {
      out[k] = '\n';
      done = done || placed;
    } else if (k == 0 || k + 1 == inside.size()) {
      out[k] = ' ';  // the blanks after `[[` and before `]]`
    } else if (inside[k + 1] == '\n') {
      out[k] = '\\';
      done = done || placed;
    } else if (!done) {
      out[k] = 'x';
      placed = true;
    }
  }
  if (!placed) return std::nullopt;
  return out;
}

}  // namespace

namespace {

// The `[[` of the test the error is in, and its `]]` as bash reads it.
struct TestSpan {
  std::size_t open = 0, close = 0;
};

std::optional<TestSpan> test_at(const SyntaxTree& tree, TSNode err) {
  std::uint32_t s = ts_node_start_byte(err);
  TSNode open{};
  for (TSNode a = err; !ts_node_is_null(a); a = ts_node_parent(a)) {
    if (is(a, K::test_command) && ts_node_child_count(a) > 0 &&
        std::strcmp(ts_node_type(ts_node_child(a, 0)), "[[") == 0) {
      open = ts_node_child(a, 0);
      break;
    }
  }
  // In an ERROR node: the first `[[` the error swallowed, else the last one before it.
  if (ts_node_is_null(open)) open = find_token(err, "[[", s, ts_node_end_byte(err), false);
  if (ts_node_is_null(open)) open = find_token(tree.root(), "[[", 0, s, true);
  if (ts_node_is_null(open)) return std::nullopt;
  std::size_t b = ts_node_start_byte(open);
  auto close = test_close(tree.text, b);
  if (!close || *close + 2 < s || *close < b + 5) return std::nullopt;
  return TestSpan{b, *close};
}

bool is_test_blank(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

// Where a pattern or regex operand that starts at `i` ends: at a blank outside parentheses, or
// at a `)` that closes a group the operand did not open.
std::size_t operand_end(std::string_view t, std::size_t i, std::size_t limit) {
  unsigned depth = 0;
  while (i < limit) {
    char c = t[i];
    if (is_test_blank(c) && depth == 0) break;
    if (c == ')' && depth == 0) break;
    if (c == '(') {
      ++depth;
      ++i;
    } else if (c == ')') {
      --depth;
      ++i;
    } else {
      i = skip_unit(t, i);
    }
  }
  return std::min(i, limit);
}

bool is_pattern_operator(std::string_view w) {
  return w == "=~" || w == "==" || w == "=" || w == "!=";
}

}  // namespace

// `[[ $l =~ ^[[:space:]]*(\`{3,}) ]]`, `[[ $id == *[$'\t'...]* ]]`, `[[ $h = qemu* && \ (...) ]]`:
// the right operand of a pattern or regex operator, the first that ends at or after the error,
// becomes x's. What the test matches is not known; its other side is still evaluated.
std::optional<Rewrite> rewrite_test_operand(const SyntaxTree& tree, TSNode err) {
  auto span = test_at(tree, err);
  if (!span) return std::nullopt;
  std::string_view t = tree.text;
  std::size_t s = ts_node_start_byte(err);
  std::size_t i = span->open + 2;
  bool after_operator = false;
  while (i < span->close) {
    if (is_test_blank(t[i]) || t.compare(i, 2, "\\\n") == 0) {
      i += t[i] == '\\' ? 2 : 1;
      continue;
    }
    std::size_t e = after_operator ? operand_end(t, i, span->close) : i;
    if (!after_operator) {
      while (e < span->close && !is_test_blank(t[e])) e = skip_unit(t, e);
      e = std::min(e, span->close);
    }
    std::string_view word = t.substr(i, e - i);
    if (after_operator && e >= s && e > i) {
      std::string bytes = neutral(word, 'x');
      if (bytes == word) return std::nullopt;
      Rewrite r = rewrite_of(
          i, std::move(bytes), i, e,
          fmt::format("the pattern `{}` in the test `{}` is beyond tree-sitter-bash: it "
                      "was read as x's, and what the test matches is taken as not known",
                      quoted(word), quoted(t.substr(span->open, span->close + 2 - span->open))));
      // The test must parse after it; else the whole test is rewritten, one finding for it.
      r.settle_past = static_cast<std::uint32_t>(span->close + 2);
      return r;
    }
    after_operator = !after_operator && is_pattern_operator(word);
    i = std::max(e, i + 1);
  }
  return std::nullopt;
}

// `[[ ! ("$1" =~ $re && "$2" =~ $re) ]]`: a test tree-sitter-bash cannot read even with its
// operands rewritten. Its inside becomes one word, and the evaluator takes the test's outcome as
// not known (the original text names it).
std::optional<Rewrite> rewrite_test(const SyntaxTree& tree, TSNode err) {
  auto span = test_at(tree, err);
  if (!span) return std::nullopt;
  std::string_view t = tree.text;
  std::size_t b = span->open;
  std::string_view inside = t.substr(b + 2, span->close - b - 2);
  auto bytes = one_word_test(inside);
  if (!bytes || *bytes == inside) return std::nullopt;
  return rewrite_of(
      b + 2, std::move(*bytes), b, span->close + 2,
      fmt::format("the test `{}` is beyond tree-sitter-bash: it was read as a test of "
                  "one unknown word, and its outcome is taken as not known",
                  quoted(t.substr(b, span->close + 2 - b))));
}

// `for part do ... done`: a loop over the positional parameters without `in`, which
// tree-sitter-bash only takes with a `;` before `do`. The blank before `do` becomes that `;`;
// bash reads both the same, so nothing is left not known.
std::optional<Rewrite> rewrite_for_without_in(const SyntaxTree& tree, TSNode err) {
  std::string_view t = tree.text;
  std::size_t s = ts_node_start_byte(err);
  std::size_t line = t.rfind('\n', s == 0 ? 0 : s - 1);
  line = line == std::string_view::npos || s == 0 ? 0 : line + 1;
  std::size_t f = t.rfind("for", s);
  if (f == std::string_view::npos || f < line || (f > 0 && name_char(t[f - 1])))
    return std::nullopt;
  std::size_t i = f + 3;
  auto blanks = [&](std::size_t j) {
    while (j < t.size() && (t[j] == ' ' || t[j] == '\t')) ++j;
    return j;
  };
  std::size_t name = blanks(i);
  if (name == i || name >= t.size() || !name_start(t[name])) return std::nullopt;
  std::size_t name_end = name;
  while (name_end < t.size() && name_char(t[name_end])) ++name_end;
  std::size_t kw = blanks(name_end);
  if (kw == name_end || t.compare(kw, 2, "do") != 0 ||
      (kw + 2 < t.size() && name_char(t[kw + 2])) || s > kw + 2)
    return std::nullopt;
  return rewrite_of(kw - 1, ";", kw - 1, kw - 1,
                    fmt::format("`for {} do` (a loop over the positional parameters without "
                                "`in`) is beyond tree-sitter-bash: it was read as `for {}; do`, "
                                "which bash reads the same",
                                t.substr(name, name_end - name), t.substr(name, name_end - name)));
}

}  // namespace recover

namespace {

using Finder = std::optional<recover::Rewrite> (*)(const SyntaxTree&, TSNode);
// Narrowest first: a whole test is rewritten only when nothing inside it helps.
constexpr Finder kFinders[] = {recover::rewrite_base_prefix,   recover::rewrite_read_write,
                               recover::rewrite_heredoc_amp,   recover::rewrite_for_without_in,
                               recover::rewrite_declared_name, recover::rewrite_param_operand,
                               recover::rewrite_test_operand,  recover::rewrite_test};
constexpr std::size_t kMaxRepairs = 32;
// Parses a recovery may spend, in bytes parsed: 8 MiB (a 2 MiB script full of errors takes
// tree-sitter most of a second per parse), at least one parse per file.
constexpr std::size_t kRecoveryParseBytes = std::size_t{8} << 20;

TSTree* reparse_text(const std::string& text) {
  TSParser* p = ts_parser_new();
  ts_parser_set_language(p, tree_sitter_bash());
  TSTree* t = ts_parser_parse_string(p, nullptr, text.data(), static_cast<uint32_t>(text.size()));
  ts_parser_delete(p);
  return t;
}

TSPoint repair_point(std::string_view text, std::size_t byte) {
  std::string_view before = text.substr(0, byte);
  auto row = static_cast<std::uint32_t>(std::count(before.begin(), before.end(), '\n'));
  std::size_t nl = before.rfind('\n');
  auto col = static_cast<std::uint32_t>(nl == std::string_view::npos ? byte : byte - nl - 1);
  return TSPoint{row, col};
}

// The statement a blanked `&` ended: the redirected statement holding the here-document, or
// the list or pipeline it ends (bash runs all of it in the background).
std::optional<std::uint32_t> background_statement(TSNode root, std::uint32_t byte) {
  TSNode n = ts_node_descendant_for_byte_range(root, byte, byte + 1);
  while (!ts_node_is_null(n) && !is(n, K::redirected_statement)) n = ts_node_parent(n);
  if (ts_node_is_null(n)) return std::nullopt;
  for (TSNode p = ts_node_parent(n);
       is(p, K::list) || is(p, K::pipeline) || is(p, K::negated_command); p = ts_node_parent(p))
    n = p;
  return ts_node_start_byte(n);
}

// The rewrites for the tree's first error that would change its text, narrowest first.
std::vector<recover::Rewrite> candidates_for(const SyntaxTree& t, TSNode err) {
  std::vector<recover::Rewrite> out;
  for (Finder find : kFinders) {
    auto rw = find(t, err);
    if (!rw || rw->bytes.empty() || rw->begin + rw->bytes.size() > t.text.size()) continue;
    if (t.text.compare(rw->begin, rw->bytes.size(), rw->bytes) == 0) continue;
    out.push_back(std::move(*rw));
  }
  return out;
}

void keep_repair(SyntaxTree& t, recover::Rewrite& rw, TSTree* parsed, std::string text) {
  t.tree = parsed;
  t.text = std::move(text);
  Repair r;
  r.begin = rw.begin;
  r.end = rw.begin + static_cast<std::uint32_t>(rw.bytes.size());
  r.affected_begin = rw.affected_begin;
  r.affected_end = rw.affected_end;
  TSPoint at = repair_point(t.text, rw.affected_begin);
  r.row = at.row;
  r.column = at.column;
  r.what = std::move(rw.what);
  if (rw.background) {
    auto stmt = background_statement(t.root(), rw.begin);
    r.background = stmt.has_value();
    r.statement = stmt.value_or(0);
  }
  t.repairs.push_back(std::move(r));
}

// Tries each rewrite for the tree's first error; keeps the first that moves the first error
// past its construct (or removes every error). The current tree is freed while they are tried
// (a 4 MiB script's tree is about 240 MB: one at a time) and parsed again when none helped.
// False when none did, or the parse budget is spent.
bool repair_first_error(SyntaxTree& t, std::size_t& budget) {
  TSNode err = first_error(t.root());
  if (ts_node_is_null(err)) return false;
  const std::uint32_t err_at = ts_node_start_byte(err);
  const std::size_t cost = std::max<std::size_t>(t.text.size(), 1);
  std::vector<recover::Rewrite> candidates = candidates_for(t, err);
  if (candidates.empty() || budget < cost) return false;
  ts_tree_delete(t.tree);
  t.tree = nullptr;
  for (recover::Rewrite& rw : candidates) {
    if (budget < cost) break;
    budget -= cost;
    std::string next = t.text;
    next.replace(rw.begin, rw.bytes.size(), rw.bytes);
    TSTree* nt = reparse_text(next);
    TSNode nerr = first_error(ts_tree_root_node(nt));
    if (ts_node_is_null(nerr) ||
        (ts_node_start_byte(nerr) > err_at && ts_node_start_byte(nerr) >= rw.settle_past)) {
      keep_repair(t, rw, nt, std::move(next));
      return true;
    }
    ts_tree_delete(nt);
  }
  t.tree = reparse_text(t.text);
  return false;
}

}  // namespace

std::unique_ptr<SyntaxTree> parse_bash_recovering(std::string text) {
  auto t = parse_bash(std::move(text));
  if (!ts_node_has_error(t->root())) return t;
  std::string original = t->text;
  std::size_t budget = std::max(kRecoveryParseBytes, t->text.size());
  while (t->repairs.size() < kMaxRepairs && repair_first_error(*t, budget)) {
  }
  if (!t->repairs.empty()) t->original = std::move(original);
  return t;
}

}  // namespace sbr::bash
