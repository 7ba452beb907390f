// Parse recovery (issue 33, analyzer/render/bash/recover.cpp): where tree-sitter-bash fails on
// bash that bash accepts, the construct is rewritten in place (same length, same lines), the
// rest of the script is analysed, and each rewrite is one SB0018 problem at the construct whose
// meaning the evaluator leaves open instead of deciding it on the rewritten text.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "analyzer/frontends/bash/syntax_verdict.h"
#include "analyzer/render/bash/bash_n.h"
#include "analyzer/render/bash/recover.h"
#include "analyzer/render/bash/syntax.h"
#include "tests/bash_helpers.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace bash_recovery_test {

using namespace sbr;

namespace {

// Positions of every newline: a repair must keep them all.
std::vector<size_t> newlines(const std::string& s) {
  std::vector<size_t> out;
  for (size_t i = 0; i < s.size(); ++i)
    if (s[i] == '\n') out.push_back(i);
  return out;
}

std::vector<const Problem*> of_kind(const bash::ScriptRender& r, ProblemKind k) {
  std::vector<const Problem*> out;
  for (const Problem& p : r.problems)
    if (p.kind == k) out.push_back(&p);
  return out;
}

// The script as the bash frontend would settle it, bash asked or not.
std::vector<Problem> settled(const std::string& text, bool ask_bash) {
  SourceFile f;
  f.id = 0;
  f.path = "launch.sh";
  f.type = FileType::Shell;
  f.bytes = text;
  f.readable = true;
  auto r = bash::render_script(f, nullptr);
  settle_syntax_errors(r.problems, f, nullptr, ask_bash);
  return r.problems;
}

struct Case {
  const char* text;
  unsigned line, column;  // where the finding points, 1-based
  const char* says;       // a part of its words
};

// The constructs of the real-world scripts bash -n accepts and tree-sitter-bash does not
// (docs/realworld.md, issue 33), each in the form the script wrote it.
const Case kCases[] = {
    {"port=$((10#$port_input))\n", 1, 9, "`10#`"},
    {"n=$((19222 + 0x$CONTAINER_HASH % 100))\n", 1, 14, "`0x`"},
    {"x=${x//<a><b>/<a>${BASH_REMATCH[1]}<b>}\n", 1, 3,
     "the operand `<a><b>/<a>${BASH_REMATCH[1]}<b>`"},
    {"exec {FD}<>\"$lockfile\"\n", 1, 10, "`<>`"},
    {"(exec 3<>\"/dev/tcp/127.0.0.1/$1\") >/dev/null 2>&1\n", 1, 8, "/dev/tcp/127.0.0.1/$1"},
    {"python3 << 'PYEOF' &\nprint(1)\nPYEOF\n", 1, 20, "background"},
    {"for part do\n  [ -z \"$part\" ] && continue\ndone\n", 1, 9, "`for part do`"},
    {"echo \"PASS: $desc${count:+ ($count)}\"\n", 1, 18, "expansion's value"},
    {"if [[ \"${H}\" = qemu-coco-dev* && \\\n   ( \"${A}\" = \"x86_64\" || \"${A}\" = \"aarch64\" "
     ") "
     "&& \\\n   \"${P}\" != \"x\" ]]; then\n  echo y\nfi\n",
     1, 16, "the pattern `qemu-coco-dev*`"},
    {"if [[ ! (\"$1\" =~ ${format} && \"$2\" =~ ${format}) ]]; then echo n; fi\n", 1, 4,
     "its outcome is taken as not known"},
    {"if [[ a ]] && declare -f pmcp::sanitize_name >/dev/null; then echo y; fi\n", 1, 26,
     "`pmcp::sanitize_name` given to `declare`"},
    {"if [[ \"$line\" =~ ^[[:space:]]*([~]{3,}|\\`{3,}) ]]; then echo f; fi\n", 1, 18,
     "what the test matches"},
    {"[[ \"$id\" == *[$'\\t\\n\\r !\\\"#$%&'\\''()*+,/:;<=>?@[\\\\]^\\`{|}~']* ]] && echo bad\n", 1,
     13, "the pattern"},
    {"while [[ \"$r\" =~ \\$\\{([A-Za-z_][A-Za-z0-9_]*):-([^}]*)\\} ]]; do r=; done\n", 1, 18,
     "the pattern"},
};

}  // namespace

TEST_CASE("each construct tree-sitter-bash lacks is rewritten in place and parses",
          "[bash][recovery]") {
  for (const Case& c : kCases) {
    INFO(c.text);
    auto plain = bash::parse_bash(c.text);
    REQUIRE(ts_node_has_error(plain->root()));  // still a gap of the grammar: the test means it
    auto t = bash::parse_bash_recovering(c.text);
    CHECK_FALSE(ts_node_has_error(t->root()));
    REQUIRE(t->repairs.size() == 1);
    CHECK(t->original == c.text);
    CHECK(t->text.size() == t->original.size());
    CHECK(newlines(t->text) == newlines(t->original));
    const bash::Repair& r = t->repairs[0];
    CHECK(r.row + 1 == c.line);
    CHECK(r.column + 1 == c.column);
    CHECK(r.what.find(c.says) != std::string::npos);
    // Only the rewritten bytes changed.
    for (size_t i = 0; i < t->text.size(); ++i) {
      if (i < r.begin || i >= r.end) CHECK(t->text[i] == t->original[i]);
    }
  }
}

TEST_CASE("a script tree-sitter-bash parses is not rewritten", "[bash][recovery]") {
  auto t = bash::parse_bash_recovering("x=$((10#${p}))\nexec 3>/dev/null\n[[ $a =~ $re ]]\n");
  CHECK_FALSE(ts_node_has_error(t->root()));
  CHECK(t->repairs.empty());
  CHECK(t->original.empty());
}

TEST_CASE("the rest of the script is analysed, each rewrite one low finding at the construct",
          "[bash][recovery]") {
  const std::string text =
      "#!/usr/bin/env bash\n"
      "port=$((10#$1))\n"
      "podman run --rm --privileged -p \"127.0.0.1:$port:8080\" ghcr.io/example/agent:1.4\n";
  auto r = test::render_text(text);
  CHECK(of_kind(r, ProblemKind::ParseError).empty());
  auto rec = of_kind(r, ProblemKind::ParseRecovered);
  REQUIRE(rec.size() == 1);
  CHECK(rec[0]->at.line == 2);
  CHECK(rec[0]->at.column == 9);
  auto runs = test::launches(r, "podman");
  REQUIRE(runs.size() == 1);
  CHECK(test::find_word(*runs[0], "--privileged") != nullptr);
  // The port is not known: the rewritten `$((   $1))` is not read as `$1`'s value.
  const Word* publish = nullptr;
  for (const Word& w : runs[0]->argv)
    if (w.text.find("127.0.0.1:") == 0) publish = &w;
  REQUIRE(publish != nullptr);
  CHECK(publish->symbolic);
}

TEST_CASE("a rewritten test is not decided: both branches are followed", "[bash][recovery]") {
  const std::string text =
      "format='^[0-9]+$'\n"
      "if [[ ! (\"1\" =~ ${format} && \"2\" =~ ${format}) ]]; then\n"
      "  podman run --rm --privileged ghcr.io/example/a:1\n"
      "else\n"
      "  podman run --rm ghcr.io/example/b:1\n"
      "fi\n";
  auto r = test::render_text(text);
  CHECK(of_kind(r, ProblemKind::ParseError).empty());
  CHECK(of_kind(r, ProblemKind::ParseRecovered).size() == 1);
  auto runs = test::launches(r, "podman");
  REQUIRE(runs.size() == 2);
  CHECK_FALSE(runs[0]->from.condition().always());
  // The condition names the test as written, never the rewritten x's.
  CHECK(runs[0]->from.condition().text.find("=~ ${format}") != std::string::npos);
  CHECK(runs[0]->from.condition().text.find("xxx") == std::string::npos);
}

TEST_CASE("a rewritten pattern leaves the match open, its other side still runs",
          "[bash][recovery]") {
  const std::string text =
      "if [[ \"$(podman run --rm --privileged ghcr.io/example/a:1)\" =~ "
      "^[[:space:]]*([~]{3,}|\\`{3,}) ]]; then\n"
      "  podman run --rm --network host ghcr.io/example/b:1\n"
      "fi\n";
  auto r = test::render_text(text);
  CHECK(of_kind(r, ProblemKind::ParseError).empty());
  auto runs = test::launches(r, "podman");
  REQUIRE(runs.size() == 2);
  CHECK(runs[0]->from.condition().always());
  CHECK_FALSE(runs[1]->from.condition().always());
}

TEST_CASE("a blanked `&` after a here-document still runs in the background", "[bash][recovery]") {
  // `exec` in the foreground would end the script; in the background it does not.
  const std::string text =
      "exec python3 <<'PYEOF' &\nprint(1)\nPYEOF\n"
      "podman run --rm --privileged ghcr.io/example/agent:1.4\n";
  auto r = test::render_text(text);
  CHECK(of_kind(r, ProblemKind::ParseError).empty());
  CHECK(of_kind(r, ProblemKind::ParseRecovered).size() == 1);
  CHECK(test::launches(r, "podman").size() == 1);
}

TEST_CASE("a name given to declare that was rewritten declares nothing and decides nothing",
          "[bash][recovery]") {
  const std::string text =
      "if declare -f pmcp::sanitize_name >/dev/null; then\n"
      "  podman run --rm --privileged ghcr.io/example/agent:1.4\n"
      "fi\n";
  auto r = test::render_text(text);
  CHECK(of_kind(r, ProblemKind::ParseError).empty());
  auto runs = test::launches(r, "podman");
  REQUIRE(runs.size() == 1);
  CHECK_FALSE(runs[0]->from.condition().always());
}

TEST_CASE("a sourced file's repairs are reported in that file", "[bash][recovery]") {
  SourceSet set;
  SourceFile lib;
  lib.id = 1;
  lib.path = "lib.sh";
  lib.type = FileType::Shell;
  lib.readable = true;
  lib.bytes = "# helpers\nnext_port() { echo $((10#$1 + 1)); }\n";
  SourceFile main;
  main.id = 0;
  main.path = "run.sh";
  main.type = FileType::Shell;
  main.readable = true;
  main.bytes = "source ./lib.sh\npodman run --rm --privileged ghcr.io/example/agent:1.4\n";
  set.files = {main, lib};
  auto r = bash::render_script(set.files[0], &set);
  auto rec = of_kind(r, ProblemKind::ParseRecovered);
  REQUIRE(rec.size() == 1);
  CHECK(rec[0]->at == Location{1, 2, 23});
  CHECK(rec[0]->message.find("the sourced file lib.sh") != std::string::npos);
  CHECK(of_kind(r, ProblemKind::ParseError).empty());
}

TEST_CASE("recovery is bounded: past 32 rewrites the file keeps its syntax error",
          "[bash][recovery]") {
  std::string text;
  for (int i = 0; i < 40; ++i) text += "v" + std::to_string(i) + "=$((10#$a))\n";
  text += "podman run --rm --privileged ghcr.io/example/agent:1.4\n";
  auto t = bash::parse_bash_recovering(text);
  CHECK(t->repairs.size() == 32);
  auto r = test::render_text(text);
  CHECK(of_kind(r, ProblemKind::ParseRecovered).size() == 32);
  auto errors = of_kind(r, ProblemKind::ParseError);
  REQUIRE(errors.size() == 1);
  CHECK(errors[0]->at.line == 33);
}

TEST_CASE("recovery on a large hostile file stays within its parse budget", "[bash][recovery]") {
  // 1 MiB of lines that each need a rewrite: at most 8 MiB of re-parsing, eight parses.
  std::string text;
  const std::string line = "x=$((10#$a)) # padding padding\n";
  while (text.size() + line.size() <= (std::size_t{1} << 20)) text += line;
  auto t = bash::parse_bash_recovering(text);
  CHECK(t->repairs.size() == 8);
}

TEST_CASE("a rewrite that does not help is not kept", "[bash][recovery]") {
  // Valid for bash, and no rewrite of sbreview's reaches it: the error stays as it was.
  auto t = bash::parse_bash_recovering("if [ \"$a\" \\< \"$b\" ]; then echo lt; fi\n");
  CHECK(t->repairs.empty());
  CHECK(ts_node_has_error(t->root()));
  auto r = test::render_text("if [ \"$a\" \\< \"$b\" ]; then echo lt; fi\n");
  CHECK(of_kind(r, ProblemKind::ParseError).size() == 1);
  CHECK(of_kind(r, ProblemKind::ParseRecovered).empty());
}

TEST_CASE("a rewrite never hides a syntax error bash reports", "[bash][recovery]") {
  // Rewriting the regex makes this parse; bash rejects its unclosed group.
  const std::string broken = "if [[ \"$l\" =~ ^[[:space:]]*(a|b ]]; then echo; fi\n";
  REQUIRE_FALSE(bash::parse_bash_recovering(broken)->repairs.empty());
  REQUIRE(bash::bash_verdict(broken).has_value());
  REQUIRE_FALSE(bash::bash_verdict(broken)->accepts);
  auto asked = settled(broken, true);
  auto err = std::find_if(asked.begin(), asked.end(),
                          [](const Problem& p) { return p.kind == ProblemKind::ParseError; });
  REQUIRE(err != asked.end());
  CHECK(err->cause == Cause::Repository);
  CHECK(err->message.rfind("bash -n: ", 0) == 0);

  // bash not asked: the file keeps the SB0001 it had without recovery, as sbreview's gap.
  const std::string valid = "x=$((10#$a))\n";
  auto unasked = settled(valid, false);
  REQUIRE(std::count_if(unasked.begin(), unasked.end(),
                        [](const Problem& p) { return p.kind == ProblemKind::ParseError; }) == 1);
  for (const Problem& p : unasked) {
    if (p.kind == ProblemKind::ParseError) CHECK(p.cause == Cause::Analyzer);
  }
  // bash asked and accepting: only the low finding.
  auto accepted = settled(valid, true);
  REQUIRE(accepted.size() == 1);
  CHECK(accepted[0].kind == ProblemKind::ParseRecovered);
}

TEST_CASE("the recovery lexer finds where bash ends a construct", "[bash][recovery]") {
  using bash::recover::param_span;
  using bash::recover::test_close;
  std::string_view p = "${a:-x}${count:+ (\"$c\" '}' ${d})} ${#}";
  auto a = param_span(p, 0);
  REQUIRE(a.has_value());
  CHECK(p.substr(a->operand, a->close - a->operand) == "x");
  auto c = param_span(p, 7);
  REQUIRE(c.has_value());
  CHECK(p.substr(c->operand, c->close - c->operand) == " (\"$c\" '}' ${d})");
  auto hash = param_span(p, p.size() - 4);
  REQUIRE(hash.has_value());
  CHECK(hash->operand == hash->close);
  CHECK_FALSE(param_span("${", 0).has_value());
  CHECK_FALSE(param_span("${a:-unterminated", 0).has_value());

  std::string_view t = "[[ \"]] \" == ']]' && $(echo ]]) ]]; x ]]";
  auto close = test_close(t, 0);
  REQUIRE(close.has_value());
  CHECK(*close == t.find("]];"));
  CHECK_FALSE(test_close("[[ a == b", 0).has_value());
  // Deep nesting ends the scan, never the stack.
  std::string deep = "[[ ";
  for (int i = 0; i < 100000; ++i) deep += "\"$(";
  CHECK_FALSE(test_close(deep, 0).has_value());
}

}  // namespace bash_recovery_test
