// A word's value on every path (render/bash/command_words.cpp): a command is recorded once per
// distinct argument list its words' values make, combinations no path has are dropped, and
// nothing else in the command is evaluated again for a variant.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "tests/bash_helpers.h"

using namespace sbr;
using test::argv_text;
using test::render_text;

namespace {

std::vector<const Invocation*> launches(const bash::ScriptRender& r, const std::string& argv0) {
  std::vector<const Invocation*> out;
  for (const auto& inv : r.invocations)
    if (!inv.argv.empty() && inv.argv[0].text == argv0) out.push_back(&inv);
  return out;
}

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
  CHECK(ls[1]->from.condition.text.find("MODE=full") != std::string::npos);
  CHECK(ls[1]->from.condition.text.find("MODE!=full") == std::string::npos);
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
      CHECK(inv->from.condition.text.find("NETMODE=host") != std::string::npos);
      CHECK(inv->from.condition.text.find("PRIV=1") != std::string::npos);
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
  CHECK(ls[0]->from.condition.always());
  CHECK(argv_text(*ls[1]) == "podman run --rm --network=host img");
  CHECK(ls[1]->from.condition.text == "when AGENT_NET=host");
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
  CHECK(ls[1]->from.condition.text == "when AGENT_NET=host");
  CHECK(ls[1]->argv[4].from.at.line == 3);  // the element keeps its own site
}
