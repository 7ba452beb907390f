// A word's value on every path (render/bash/command_words.cpp): a command is recorded once per
// distinct argument list its words' values make, combinations no path has are dropped, and
// nothing else in the command is evaluated again for a variant.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "tests/bash_helpers.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace bash_values_test {

using namespace sbr;
using test::argv_text;
using test::launches;
using test::render_text;

namespace {

std::set<std::string> argvs(const bash::ScriptRender& r, const std::string& argv0) {
  std::set<std::string> out;
  for (const Invocation* inv : launches(r, argv0)) out.insert(argv_text(*inv));
  return out;
}

}  // namespace

TEST_CASE("values set together on one branch are never combined with the other branch's",
          "[bash-values]") {
  auto r = render_text(
      "if [[ \"${MODE:-safe}\" == full ]]; then\n  NET=host\n  CAPS=--privileged\nelse\n"
      "  NET=none\n  CAPS=--cap-drop=ALL\nfi\npodman run --rm --network \"$NET\" \"$CAPS\" img\n");
  auto ls = launches(r, "podman");
  REQUIRE(ls.size() == 2);
  CHECK(argv_text(*ls[0]) == "podman run --rm --network none --cap-drop=ALL img");
  CHECK(argv_text(*ls[1]) == "podman run --rm --network host --privileged img");
  CHECK(ls[1]->from.condition().text.find("MODE=full") != std::string::npos);
  CHECK(ls[1]->from.condition().text.find("MODE!=full") == std::string::npos);
}

TEST_CASE("values from independent branches make every combination, each once", "[bash-values]") {
  auto r = render_text(
      "if [[ ${NETMODE:-} == host ]]; then NET=host; else NET=slirp4netns; fi\n"
      "if [[ ${PRIV:-} == 1 ]]; then CAP=--privileged; else CAP=--cap-drop=ALL; fi\n"
      "podman run --network \"$NET\" \"$CAP\" img\n"
      "podman run --network \"$NET\" --network \"$NET\" img\n");
  CHECK(argvs(r, "podman") ==
        std::set<std::string>{"podman run --network slirp4netns --cap-drop=ALL img",
                              "podman run --network slirp4netns --privileged img",
                              "podman run --network host --cap-drop=ALL img",
                              "podman run --network host --privileged img",
                              "podman run --network slirp4netns --network slirp4netns img",
                              "podman run --network host --network host img"});
  // The same variable twice is one value, not two independent ones.
  CHECK(launches(r, "podman").size() == 6);
  for (const Invocation* inv : launches(r, "podman")) {
    if (argv_text(*inv) == "podman run --network host --privileged img") {
      CHECK(inv->from.condition().text.find("NETMODE=host") != std::string::npos);
      CHECK(inv->from.condition().text.find("PRIV=1") != std::string::npos);
    }
  }
}

TEST_CASE("a variant evaluates no other word again and keeps exec final", "[bash-values]") {
  auto r = render_text(
      "if [[ ${NET:-} == host ]]; then N=host; else N=none; fi\n"
      "exec podman run --label \"rev=$(git rev-parse HEAD)\" --network \"$N\" img\n"
      "podman run after-exec\n");
  CHECK(launches(r, "git").size() == 1);
  auto ls = launches(r, "podman");
  REQUIRE(ls.size() == 2);
  for (const Invocation* inv : ls) CHECK(argv_text(*inv).find("after-exec") == std::string::npos);
}

TEST_CASE("an argument list is bounded however many values its words have", "[bash-values]") {
  std::string s;
  for (const char* v : {"A", "B", "C", "D"}) {
    s += fmt::format("case ${{{0}_IN:-}} in 1) {0}=a1;; 2) {0}=a2;; 3) {0}=a3;; *) {0}=a0;; esac\n",
                     v);
  }
  s += "podman run \"$A\" \"$B\" \"$C\" \"$D\" img\n";
  auto r = render_text(s);
  auto ls = launches(r, "podman");
  CHECK(ls.size() >= 2);
  CHECK(ls.size() <= 8);
  CHECK(argv_text(*ls[0]) == "podman run a0 a0 a0 a0 img");
}

// A word assigned from a path-dependent value is a value on every path too: the flag built
// from NET carries NET's other value under its condition (the assignment kept only the
// default path's words before).
TEST_CASE("an assignment keeps the other paths' values of what it reads", "[bash-values]") {
  auto r = render_text(
      "NET=none\nif [[ $AGENT_NET == host ]]; then NET=host; fi\n"
      "flag=\"--network=$NET\"\nlabel=$flag\n"
      "podman run --rm \"$label\" img\n");
  auto ls = launches(r, "podman");
  REQUIRE(ls.size() == 2);
  CHECK(argv_text(*ls[0]) == "podman run --rm --network=none img");
  CHECK(ls[0]->from.condition().always());
  CHECK(argv_text(*ls[1]) == "podman run --rm --network=host img");
  CHECK(ls[1]->from.condition().text == "when AGENT_NET=host");
  // The word still points at its use, and its path at the branch that set NET.
  CHECK(ls[1]->argv[3].from.at.line == 5);
}

// The same for an array element: `args=(--network "$NET")` is the array with `host` on the
// path that set it (and keeps it through `args+=(...)`), so the launch that expands
// "${args[@]}" is rendered on that path too.
TEST_CASE("an array element keeps the other paths' values of what it reads", "[bash-values]") {
  auto r = render_text(
      "NET=none\nif [[ $AGENT_NET == host ]]; then NET=host; fi\n"
      "args=(--rm --network \"$NET\")\nargs+=(--read-only)\n"
      "podman run \"${args[@]}\" img\n");
  auto ls = launches(r, "podman");
  REQUIRE(ls.size() == 2);
  CHECK(argv_text(*ls[0]) == "podman run --rm --network none --read-only img");
  CHECK(argv_text(*ls[1]) == "podman run --rm --network host --read-only img");
  CHECK(ls[1]->from.condition().text == "when AGENT_NET=host");
  CHECK(ls[1]->argv[4].from.at.line == 3);  // the element keeps its own site
}

// A test on a variable set by an option is a branch on that option: `MODE=unsafe` set in the
// option loop makes `[[ $MODE == unsafe ]]` hold on that path only. The test was decided by
// MODE's default value before, so the privileged launch in its body was never seen.
TEST_CASE("a test on a path-dependent value runs its branch on the path that gives it",
          "[bash-values]") {
  auto r = render_text(
      "MODE=safe\nwhile [[ $# -gt 0 ]]; do\n  case $1 in\n    --unsafe) MODE=unsafe; shift ;;\n"
      "    *) shift ;;\n  esac\ndone\n"
      "if [[ \"$MODE\" == unsafe ]]; then\n  podman run --rm --privileged img\nfi\n"
      "if [ -n \"$DEBUGGING\" ]; then docker run --rm --privileged dbg; fi\n"
      "podman run --rm --network=none img\n");
  auto ls = launches(r, "podman");
  REQUIRE(ls.size() == 2);
  CHECK(argv_text(*ls[0]) == "podman run --rm --privileged img");
  CHECK(ls[0]->from.condition().text == "when started with arguments and started with `--unsafe`");
  CHECK(ls[0]->from.condition().needs_switch);
  CHECK(argv_text(*ls[1]) == "podman run --rm --network=none img");
  CHECK(ls[1]->from.condition().always());
}

// A `-n` test on a value set on one branch only: the branch where it is set.
TEST_CASE("a -n test on a value set on one path runs on that path", "[bash-values]") {
  auto r = render_text(
      "EXTRA=\nif [[ \"${AGENT_DEBUG:-0}\" == 1 ]]; then EXTRA=--privileged; fi\n"
      "if [[ -n $EXTRA ]]; then\n  podman run --rm \"$EXTRA\" img\nelse\n"
      "  podman run --rm --read-only img\nfi\n");
  auto s = argvs(r, "podman");
  CHECK(s == std::set<std::string>{"podman run --rm --privileged img",
                                   "podman run --rm --read-only img"});
  for (const Invocation* inv : launches(r, "podman")) {
    bool priv = argv_text(*inv).find("--privileged") != std::string::npos;
    CHECK(inv->from.condition().needs_switch == priv);
    if (priv) CHECK(inv->from.condition().text == "when AGENT_DEBUG=1");
  }
}

// A value set only on a branch and expanded unquoted (`$publish` empty by default) is an
// alternative of its own: on the path that set it the word is there, on the others it is
// not. It was put into the default words with its path's condition before, so the launch
// on the `-n` path (whose condition contradicts `-p`'s) was dropped as a whole.
TEST_CASE("an unquoted value set on one path is that path's alternative", "[bash-values]") {
  auto r = render_text(
      "net=none\nport=\"\"\nwhile getopts \":n:p:\" opt; do\n  case $opt in\n"
      "    n) net=$OPTARG ;;\n    p) port=$OPTARG ;;\n    *) exit 2 ;;\n  esac\ndone\n"
      "publish=\"\"\n[[ -n $port ]] && publish=\"--publish=127.0.0.1:$port:8080\"\n"
      "podman run --rm --network \"$net\" $publish img\n");
  auto ls = launches(r, "podman");
  REQUIRE(ls.size() == 3);
  CHECK(argv_text(*ls[0]) == "podman run --rm --network none img");
  CHECK(ls[0]->from.condition().always());
  CHECK(ls[1]->argv.size() == 7);  // --publish=127.0.0.1:<port>:8080
  CHECK(ls[1]->argv[5].text.rfind("--publish=127.0.0.1:", 0) == 0);
  CHECK(ls[1]->from.condition().text.find("opt matches p") != std::string::npos);
  CHECK(ls[2]->argv[4].symbolic);  // the network the caller names
  CHECK(ls[2]->from.condition().text.find("opt matches n") != std::string::npos);
}

// A `case` on a variable set by an option: the item its other value takes runs on that
// option's path. It was decided by the default value before, so the privileged item never ran.
TEST_CASE("a case on a path-dependent value runs the item each path's value takes",
          "[bash-values]") {
  auto r = render_text(
      "MODE=safe\nif [[ \"${1:-}\" == --unsafe ]]; then MODE=unsafe; fi\n"
      "case \"$MODE\" in\n  unsafe) podman run --rm --privileged img ;;\n"
      "  *) podman run --rm --network=none img ;;\nesac\n");
  auto ls = launches(r, "podman");
  REQUIRE(ls.size() == 2);
  CHECK(argv_text(*ls[0]) == "podman run --rm --network=none img");
  CHECK(ls[0]->from.condition().always());
  CHECK(argv_text(*ls[1]) == "podman run --rm --privileged img");
  CHECK(ls[1]->from.condition().text == "when started with `--unsafe`");
  CHECK(ls[1]->from.condition().needs_switch);
}

}  // namespace bash_values_test
