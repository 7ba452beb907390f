// Parse recovery (issue 33): where tree-sitter-bash fails on bash that bash accepts, the
// construct is rewritten in place and the text parsed again (recover.cpp). This header holds the
// pieces the rewrites share: a small lexer of bash's quoting and grouping (recover_scan.cpp),
// and the rewrites themselves, one per construct, for the tests.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "analyzer/render/bash/syntax.h"

namespace sbr::bash::recover {

// How far the lexer looks: a construct longer than this is not recovered (SB0001 stays).
inline constexpr std::size_t kScanWindow = 64 * 1024;

// One past the end of the lexical unit at `i`: a backslash and the byte it escapes, a quoted
// string ('...', $'...', "..."), a group ($(...), ${...}, `...`) with what nests inside, or one
// byte. An unterminated unit ends at the text's (or the window's) end.
std::size_t skip_unit(std::string_view t, std::size_t i, unsigned depth = 0);

// The `]]` that closes the `[[` at `open`, as bash reads it (quotes and groups skipped, the
// token `]]` after a blank): its offset, or nothing within the window.
std::optional<std::size_t> test_close(std::string_view t, std::size_t open);

// `${name[sub]OP operand}`: where the operand starts (after the operator) and where the closing
// `}` is. Nothing when `i` does not start a parameter expansion bash reads.
struct ParamSpan {
  std::size_t operand = 0, close = 0;
};
std::optional<ParamSpan> param_span(std::string_view t, std::size_t i);

// Whether `c` may start (or continue) a shell variable's name.
bool name_start(char c);
bool name_char(char c);

// `text` for a message: on one line, at most 60 bytes.
std::string quoted(std::string_view text);

// A rewrite of the current text: `bytes` replace as many bytes at `begin`, newlines kept.
struct Rewrite {
  std::uint32_t begin = 0;
  std::string bytes;
  std::uint32_t affected_begin = 0, affected_end = 0;
  std::string what;
  bool background = false;  // a blanked `&`: Repair::background
  // Kept only if the parse then has no error before this byte (past the construct): a rewrite
  // that only moves the error inside its own construct is not the fix.
  std::uint32_t settle_past = 0;
};

// The rewrites for the error at `err` (tree-sitter's first error in `tree`), each tried in turn
// by the caller until one lets the parse go further (recover.cpp).
std::optional<Rewrite> rewrite_base_prefix(const SyntaxTree& tree, TSNode err);
std::optional<Rewrite> rewrite_read_write(const SyntaxTree& tree, TSNode err);
std::optional<Rewrite> rewrite_heredoc_amp(const SyntaxTree& tree, TSNode err);
std::optional<Rewrite> rewrite_for_without_in(const SyntaxTree& tree, TSNode err);
std::optional<Rewrite> rewrite_declared_name(const SyntaxTree& tree, TSNode err);
std::optional<Rewrite> rewrite_param_operand(const SyntaxTree& tree, TSNode err);
std::optional<Rewrite> rewrite_test_operand(const SyntaxTree& tree, TSNode err);
std::optional<Rewrite> rewrite_test(const SyntaxTree& tree, TSNode err);

}  // namespace sbr::bash::recover
