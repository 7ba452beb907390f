// A word's value is built from its parts' values (render/bash/value.cpp, expand.cpp): a
// concatenation is the product of its parts' alternatives under the conjunction of their
// conditions, combinations no path has are dropped, and the word is expanded once (a `$(...)`
// in it runs once however many values its other parts have).
#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "tests/bash_helpers.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace bash_value_product_test {

using namespace sbr;
using test::argv_text;
using test::launches;
using test::lists;
using test::render_text;

TEST_CASE("a word built from two independent values takes every combination", "[bash-value]") {
  auto r = render_text(
      "#!/usr/bin/env bash\n"
      "bind=127.0.0.1\n"
      "if [[ ${EXPOSE:-no} == yes ]]; then bind=0.0.0.0; fi\n"
      "port=8080\n"
      "if [[ -n ${DEV_PORT:-} ]]; then port=$DEV_PORT; fi\n"
      "podman run --rm -p \"$bind:$port:8080\" ghcr.io/acme/agent:1\n");
  auto ls = lists(r, "podman");
  INFO(test::dump(r));
  REQUIRE(ls.size() == 4);
  CHECK(ls.at("podman run --rm -p 127.0.0.1:8080:8080 ghcr.io/acme/agent:1").empty());
  CHECK(ls.at("podman run --rm -p 0.0.0.0:8080:8080 ghcr.io/acme/agent:1") == "when EXPOSE=yes");
  // The product of both other values, under both paths' conditions (the word was expanded
  // once per variable before, so this list did not exist).
  bool both = false;
  for (const auto& [argv, cond] : ls) {
    if (argv.find("0.0.0.0:") == std::string::npos || argv.find(":8080:8080") != std::string::npos)
      continue;
    both = true;
    CHECK(cond.find("EXPOSE=yes") != std::string::npos);
    CHECK(cond.find("DEV_PORT") != std::string::npos);
  }
  CHECK(both);
}

TEST_CASE("parts of one word set together on a branch are never mixed with the other branch's",
          "[bash-value]") {
  auto r = render_text(
      "if [[ \"${PROFILE:-locked}\" == open ]]; then\n"
      "  net=host; sec=unconfined\n"
      "else\n"
      "  net=none; sec=default\n"
      "fi\n"
      "docker run --label \"policy=$net/$sec\" img\n");
  auto ls = lists(r, "docker");
  INFO(test::dump(r));
  REQUIRE(ls.size() == 2);
  CHECK(ls.count("docker run --label policy=none/default img") == 1);
  CHECK(ls.at("docker run --label policy=host/unconfined img") == "when PROFILE=open");
}

TEST_CASE("a substitution in a word with other values runs once", "[bash-value]") {
  auto r = render_text(
      "NET=none\n"
      "[[ ${1:-} == --net ]] && NET=host\n"
      "podman run --label \"rev=$(git rev-parse --short HEAD)-$NET\" --network \"$NET\" img\n");
  CHECK(launches(r, "git").size() == 1);
  auto ls = launches(r, "podman");
  INFO(test::dump(r));
  REQUIRE(ls.size() == 2);
  // The label and the network come from the same value of NET on each path.
  for (const Invocation* inv : ls) {
    const std::string a = argv_text(*inv);
    CHECK((a.find("-none --network none") != std::string::npos) !=
          (a.find("-host --network host") != std::string::npos));
  }
}

TEST_CASE("a default operand's other values are the expansion's where the default is taken",
          "[bash-value]") {
  auto r = render_text(
      "fallback=slirp4netns\n"
      "if [[ ${AGENT_OS:-linux} == macos ]]; then fallback=bridge; fi\n"
      "podman run --network \"${AGENT_NETWORK:-$fallback}\" img\n"
      "podman run --network \"${FIXED_NET:-none}\" --label \"x=${fallback:+set}\" img\n");
  auto ls = lists(r, "podman");
  INFO(test::dump(r));
  CHECK(ls.count("podman run --network slirp4netns img") == 1);
  REQUIRE(ls.count("podman run --network bridge img") == 1);
  CHECK(ls.at("podman run --network bridge img") == "when AGENT_OS=macos");
  // `:+` on a value set on every path reads the operand once: one list.
  CHECK(ls.count("podman run --network none --label x=set img") == 1);
  CHECK(ls.size() == 3);
}

TEST_CASE("an assigning default keeps the operand's values in the variable", "[bash-value]") {
  auto r = render_text(
      "engine_default=podman\n"
      "if command -v docker >/dev/null; then engine_default=docker; fi\n"
      ": \"${ENGINE:=$engine_default}\"\n"
      "\"$ENGINE\" run --rm img\n");
  std::set<std::string> engines;
  for (const auto& inv : r.invocations)
    if (inv.argv.size() > 1 && inv.argv[1].text == "run") engines.insert(inv.argv[0].text);
  CHECK(engines.count("podman") == 1);
  CHECK(engines.count("docker") == 1);
}

TEST_CASE("a dispatch table reaches every handler through the word's value", "[bash-value]") {
  auto r = render_text(
      "cmd_run() { podman run --rm --cap-drop=ALL img; }\n"
      "cmd_debug() { podman run --privileged img; }\n"
      "cmd_shell() { podman exec -it agent bash; }\n"
      "declare -A handlers=([run]=cmd_run [debug]=cmd_debug [shell]=cmd_shell)\n"
      "action=${1:-run}\n"
      "shift || true\n"
      "\"${handlers[$action]}\" \"$@\"\n");
  auto ls = lists(r, "podman");
  INFO(test::dump(r));
  REQUIRE(ls.count("podman run --rm --cap-drop=ALL img") == 1);
  CHECK(ls.at("podman run --rm --cap-drop=ALL img").empty());
  REQUIRE(ls.count("podman run --privileged img") == 1);
  CHECK(ls.at("podman run --privileged img") == "when action=debug");
  REQUIRE(ls.count("podman exec -it agent bash") == 1);
  CHECK(ls.at("podman exec -it agent bash") == "when action=shell");
}

TEST_CASE("a dispatch key with a value on another path runs that path's handler", "[bash-value]") {
  auto r = render_text(
      "start() { docker run --rm img; }\n"
      "debug() { docker run --pid=host img; }\n"
      "declare -A do_it=([start]=start [debug]=debug)\n"
      "mode=start\n"
      "[[ ${AGENT_DEBUG:-0} == 1 ]] && mode=debug\n"
      "\"${do_it[$mode]}\"\n");
  auto ls = lists(r, "docker");
  INFO(test::dump(r));
  REQUIRE(ls.size() == 2);
  CHECK(ls.at("docker run --rm img").empty());
  CHECK(ls.at("docker run --pid=host img") == "when AGENT_DEBUG=1");
}

}  // namespace bash_value_product_test
