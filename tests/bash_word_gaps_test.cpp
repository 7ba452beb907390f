// Words tree-sitter-bash reads differently from bash, with no syntax error to recover from
// (issue 33): the evaluator must see the word bash sees.
#include <catch2/catch.hpp>

#include <string>

#include "analyzer/render/bash/render.h"
#include "tests/bash_helpers.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace bash_word_gaps_test {

using namespace sbr;
using sbr::test::argv_text;
using sbr::test::launches;
using sbr::test::render_text;

TEST_CASE("a default naming a variable that starts with _ is that variable's value",
          "[bash][word-gaps]") {
  // tree-sitter-bash parses `$_NET` inside `${...:-...}` as the plain word `$_NET`.
  auto r = render_text(R"(#!/bin/bash
_NET=host
_AGENT=claude
start() {
  local net="${1:-$_NET}"
  podman run --rm --network "$net" "img-${2:-$_AGENT}"
}
start
)");
  auto ls = launches(r, "podman");
  REQUIRE(ls.size() == 1);
  CHECK(argv_text(*ls[0]) == "podman run --rm --network host img-claude");
}

TEST_CASE("a word cut after its `$` is one word with the parameter after it", "[bash][word-gaps]") {
  // tree-sitter-bash reads `"$PWD":/home/$USER_NAME/work` as `"$PWD":/home/$` and
  // `USER_NAME/work`, two arguments with no space between them.
  auto r = render_text(R"(#!/bin/bash
USER_NAME=agent
CACHE=npm
ARGS=(-v "$PWD":/home/$USER_NAME/.cache/$CACHE)
podman run --rm -v "$PWD":/home/$USER_NAME/work "${ARGS[@]}" -p 8080:8080 agent:1
)");
  auto ls = launches(r, "podman");
  REQUIRE(ls.size() == 1);
  CHECK(argv_text(*ls[0]) ==
        "podman run --rm -v $PWD:/home/agent/work -v $PWD:/home/agent/.cache/npm -p 8080:8080 "
        "agent:1");
}

TEST_CASE("a word bash reads as text stays text", "[bash][word-gaps]") {
  auto r = render_text(R"(#!/bin/bash
podman run --rm agent:1 sh -c 'echo $HOME' \$NAME 'a$' cost=5$
)");
  auto ls = launches(r, "podman");
  REQUIRE(ls.size() == 1);
  CHECK(argv_text(*ls[0]) == "podman run --rm agent:1 sh -c echo $HOME $NAME a$ cost=5$");
}

TEST_CASE("an unquoted value with unknown parts splits at the blanks the script wrote",
          "[bash][word-gaps]") {
  // nano-step/ai-sandbox-wrapper keeps its cache mounts in one string; sdlcforge/ai-sandbox its
  // compose file list, one of them under $XDG_CACHE_HOME. Bash splits them at the spaces the
  // script wrote; before, the whole string was one open word (SB0013 "env HOME stands where an
  // option goes", the compose files never read).
  auto r = render_text(R"(#!/bin/bash
MOUNTS="-v $HOME/.cache/npm:/home/agent/.npm:delegated"
MOUNTS="$MOUNTS -v $CACHE_DIR/pip:/home/agent/.cache/pip"
docker run --rm $MOUNTS agent:1
)");
  auto ls = launches(r, "docker");
  REQUIRE(ls.size() == 1);
  const Invocation& inv = *ls[0];
  REQUIRE(inv.argv.size() == 8);
  CHECK(inv.argv[3].text == "-v");
  CHECK_FALSE(inv.argv[3].symbolic);  // a flag the script wrote
  CHECK(inv.argv[4].text == "$HOME/.cache/npm:/home/agent/.npm:delegated");
  CHECK(inv.argv[4].symbolic);
  CHECK(inv.argv[5].text == "-v");
  CHECK_FALSE(inv.argv[5].symbolic);
  CHECK(inv.argv[6].shown() == "<unknown: $CACHE_DIR>/pip:/home/agent/.cache/pip");
  CHECK(inv.argv[6].symbolic);
  CHECK(inv.argv[7].text == "agent:1");
}

}  // namespace bash_word_gaps_test
