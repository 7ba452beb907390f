// What a command reads and prints is a value too (render/bash/read_builtin.cpp, read_loop.cpp,
// capture.cpp, expand_text.cpp, expand_param_ops.cpp): `read`/`mapfile` of an input that
// differs by path give their variables one alternative per input, a heredoc is recorded once
// per body, what a function prints is its output on every path, and the pattern operators
// take every value of their operands. Before, each of these read the default path's words only,
// and the other paths' flags were lost.
#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <vector>

#include "tests/bash_helpers.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace bash_value_inputs_test {

using namespace sbr;
using test::launches;
using test::lists;
using test::render_text;

namespace {

const std::string kHostSwitch =
    "#!/usr/bin/env bash\n"
    "if [[ ${1:-} == --host ]]; then net=host; else net=none; fi\n";

}  // namespace

TEST_CASE("read -a of a here-string takes each path's input", "[bash-value-inputs]") {
  auto r = render_text(kHostSwitch +
                       "read -ra extra <<< \"--network $net\"\n"
                       "podman run --rm \"${extra[@]}\" img\n");
  auto ls = lists(r, "podman");
  INFO(test::dump(r));
  REQUIRE(ls.size() == 2);
  CHECK(ls.at("podman run --rm --network none img").empty());
  CHECK(ls.at("podman run --rm --network host img") == "when started with `--host`");
}

TEST_CASE("read into names gives each name its value on every path", "[bash-value-inputs]") {
  auto r = render_text(kHostSwitch +
                       "IFS=: read -r mode rest <<< \"$net:ro\"\n"
                       "podman run --rm --network \"$mode\" -v \"/src:/src:$rest\" img\n");
  auto ls = lists(r, "podman");
  INFO(test::dump(r));
  REQUIRE(ls.size() == 2);
  CHECK(ls.count("podman run --rm --network none -v /src:/src:ro img") == 1);
  CHECK(ls.at("podman run --rm --network host -v /src:/src:ro img") ==
        "when started with `--host`");
}

TEST_CASE("mapfile of a function's output keeps the line another path prints",
          "[bash-value-inputs]") {
  auto r = render_text(
      "#!/usr/bin/env bash\n"
      "net=none\n"
      "if [[ ${AGENT_NET:-} == full ]]; then net=host; fi\n"
      "profile_flags() {\n  echo \"--network=$net\"\n  echo --cap-drop=ALL\n}\n"
      "mapfile -t flags < <(profile_flags)\n"
      "podman run --rm \"${flags[@]}\" img\n");
  auto ls = lists(r, "podman");
  INFO(test::dump(r));
  REQUIRE(ls.size() == 2);
  CHECK(ls.at("podman run --rm --network=none --cap-drop=ALL img").empty());
  CHECK(ls.at("podman run --rm --network=host --cap-drop=ALL img") == "when AGENT_NET=full");
}

TEST_CASE("two lines printed from one value take the same path's value", "[bash-value-inputs]") {
  auto r = render_text(
      "#!/usr/bin/env bash\n"
      "net=none\n"
      "if [[ ${AGENT_NET:-} == full ]]; then net=host; fi\n"
      "flags() {\n  echo \"--network=$net\"\n  echo \"--hostname=$net\"\n}\n"
      "podman run --rm $(flags) img\n");
  auto ls = lists(r, "podman");
  INFO(test::dump(r));
  REQUIRE(ls.size() == 2);
  CHECK(ls.count("podman run --rm --network=none --hostname=none img") == 1);
  CHECK(ls.at("podman run --rm --network=host --hostname=host img") == "when AGENT_NET=full");
}

TEST_CASE("read -a of a command substitution's output takes each path's", "[bash-value-inputs]") {
  auto r = render_text(kHostSwitch +
                       "flags() { printf '%s\\n' \"--network=$net --read-only\"; }\n"
                       "read -ra extra <<< \"$(flags)\"\n"
                       "docker run \"${extra[@]}\" img\n");
  auto ls = lists(r, "docker");
  INFO(test::dump(r));
  REQUIRE(ls.size() == 2);
  CHECK(ls.at("docker run --network=none --read-only img").empty());
  CHECK(ls.at("docker run --network=host --read-only img") == "when started with `--host`");
}

TEST_CASE("read -d '' -a takes every line of the input and not only the first",
          "[bash-value-inputs]") {
  // cco's round trip of an array through a function: the record ends at a NUL, so with
  // IFS=$'\n' each printed line is an element. Before, only the first line was kept.
  auto r = render_text(
      "#!/usr/bin/env bash\n"
      "without() {\n  local target=\"$1\"\n  shift\n  local out=()\n"
      "  for e in \"$@\"; do\n    if [[ \"$e\" != \"$target\" ]]; then out+=(\"$e\"); fi\n"
      "  done\n  printf '%s\\n' \"${out[@]}\"\n}\n"
      "ro=(/opt/a /opt/b /opt/c)\n"
      "IFS=$'\\n' read -r -d '' -a ro < <(without /opt/b \"${ro[@]}\") || true\n"
      "IFS= read -r -d '' note < <(printf 'one\\ntwo\\n') || true\n"
      "docker run -v \"${ro[@]}\" -e \"NOTE=$note\" img\n");
  auto ls = lists(r, "docker");
  INFO(test::dump(r));
  REQUIRE(ls.size() == 1);
  CHECK(ls.begin()->first == "docker run -v /opt/a /opt/c -e NOTE=one\ntwo\n img");
}

TEST_CASE("lines printed from values that are not known are read back one element each",
          "[bash-value-inputs]") {
  // printf '%s\n' puts each argument on a line of its own, so `$HOME/.gemini` is one line
  // whatever HOME is; an unknown with nothing to show ($(cat ...)) may hold several lines.
  auto r = render_text(
      "#!/usr/bin/env bash\n"
      "list() { printf '%s\\n' \"$@\"; }\n"
      "IFS=$'\\n' read -r -d '' -a ro < <(list \"$HOME/.gitconfig\" \"$HOME/.config/gh\") || true\n"
      "mapfile -t rw < <(list \"$HOME/.gemini\")\n"
      "IFS=$'\\n' read -r -d '' -a more < <(list /opt/x \"$(cat /etc/extra)\") || true\n"
      "docker run -v \"${ro[1]}\" -v \"${rw[0]}\" -v \"${more[0]}\" img\n");
  auto ls = lists(r, "docker");
  INFO(test::dump(r));
  REQUIRE(ls.size() == 1);
  const std::string& list = ls.begin()->first;
  CHECK(list.rfind("docker run -v $HOME/.config/gh -v $HOME/.gemini -v ", 0) == 0);
  CHECK(list.find("-v /opt/x img") == std::string::npos);  // the output stays unknown
}

TEST_CASE("a test and a prefix removal against the operator's own HOME decide on the rest",
          "[bash-value-inputs]") {
  // cco remaps an added directory under $HOME to the container user's home. HOME is not known,
  // but both words start with it: `$HOME/.pi` is under "$HOME"/ on every path, and what is left
  // after removing that prefix is `.pi`. Before, the test was a branch of its own and the
  // target read /home/hostuser/$HOME/.pi.
  auto r = render_text(
      "#!/usr/bin/env bash\n"
      "for dir in \"$HOME/.pi\" \"$HOME\"; do\n"
      "  if [[ \"$dir\" == \"$HOME\"/* ]]; then\n"
      "    relative=\"${dir#\"$HOME\"/}\"\n"
      "    docker run -v \"$dir:/home/hostuser/$relative\" img\n"
      "  else\n"
      "    docker run -v \"$dir:/home/hostuser/${dir#\"$HOME\"/}\" img\n"
      "  fi\n"
      "done\n");
  auto ls = lists(r, "docker");
  INFO(test::dump(r));
  REQUIRE(ls.size() == 2);
  CHECK(ls.count("docker run -v $HOME/.pi:/home/hostuser/.pi img") == 1);
  // $HOME itself is not under "$HOME"/, and the pattern removes nothing from it.
  CHECK(ls.count("docker run -v $HOME:/home/hostuser/$HOME img") == 1);
  for (const auto& [list, when] : ls) CHECK(when.find("dir=HOME") == std::string::npos);
}

TEST_CASE("a while-read loop runs once per path of its input", "[bash-value-inputs]") {
  auto r = render_text(kHostSwitch +
                       "args=()\n"
                       "while read -r f; do args+=(\"$f\"); done <<< \"--network=$net\"\n"
                       "podman run \"${args[@]}\" img\n");
  auto ls = launches(r, "podman");
  INFO(test::dump(r));
  // The paths meet after the loop: the array holds each path's element under its condition.
  REQUIRE(ls.size() == 1);
  const Word* none = test::find_word(*ls[0], "--network=none");
  const Word* host = test::find_word(*ls[0], "--network=host");
  REQUIRE(none != nullptr);
  REQUIRE(host != nullptr);
  CHECK(host->from.condition().text == "when started with `--host`");
  CHECK(none->from.condition().text == "when not started with `--host`");
}

TEST_CASE("a heredoc whose body differs by path is recorded once per body", "[bash-value-inputs]") {
  auto r = render_text(
      "#!/usr/bin/env bash\n"
      "ALLOW=\"10.0.0.53\"\n"
      "if [[ ${OPEN_EGRESS:-0} == 1 ]]; then ALLOW=\"0.0.0.0/0\"; fi\n"
      "nft -f - <<EOF\n"
      "table inet agent {\n  chain out { ip daddr { $ALLOW } accept; drop; }\n}\nEOF\n");
  auto ns = launches(r, "nft");
  INFO(test::dump(r));
  REQUIRE(ns.size() == 2);
  CHECK(ns[0]->stdin_text.find("{ 10.0.0.53 }") != std::string::npos);
  CHECK(ns[0]->from.condition().always());
  CHECK(ns[1]->stdin_text.find("{ 0.0.0.0/0 }") != std::string::npos);
  CHECK(ns[1]->from.condition().text == "when OPEN_EGRESS=1");
  CHECK(ns[1]->from.condition().needs_switch);
}

TEST_CASE("a here-string read by a command is recorded once per path", "[bash-value-inputs]") {
  auto r = render_text(kHostSwitch + "iptables-restore --noflush <<< \"# net $net\"\n");
  auto ns = launches(r, "iptables-restore");
  INFO(test::dump(r));
  REQUIRE(ns.size() == 2);
  CHECK(ns[0]->stdin_text == "# net none");
  CHECK(ns[1]->stdin_text == "# net host");
  CHECK(ns[1]->from.condition().text == "when started with `--host`");
}

TEST_CASE("a pattern operator applies to every value of its parameter and operands",
          "[bash-value-inputs]") {
  SECTION("the parameter's values") {
    auto r = render_text(
        "#!/usr/bin/env bash\n"
        "image=ghcr.io/acme/agent:3.1\n"
        "if [[ ${AGENT_EDGE:-} == 1 ]]; then image=ghcr.io/acme/agent-edge:nightly; fi\n"
        "podman run --rm \"${image%:*}:pinned\"\n");
    auto ls = lists(r, "podman");
    INFO(test::dump(r));
    REQUIRE(ls.size() == 2);
    CHECK(ls.count("podman run --rm ghcr.io/acme/agent:pinned") == 1);
    CHECK(ls.at("podman run --rm ghcr.io/acme/agent-edge:pinned") == "when AGENT_EDGE=1");
  }
  SECTION("the pattern's values") {
    auto r = render_text(
        "#!/usr/bin/env bash\n"
        "p='--cap-drop='\n"
        "if [[ ${KEEP_CAPS:-} == 1 ]]; then p='--cap-drop=ALL'; fi\n"
        "flag=--cap-drop=ALL\n"
        "podman run --rm \"${flag#$p}\" img\n");
    auto ls = lists(r, "podman");
    INFO(test::dump(r));
    REQUIRE(ls.size() == 2);
    CHECK(ls.count("podman run --rm ALL img") == 1);
    CHECK(ls.at("podman run --rm  img") == "when KEEP_CAPS=1");
  }
  SECTION("the replacement's values") {
    auto r = render_text(
        "#!/usr/bin/env bash\n"
        "bind=127.0.0.1\n"
        "if [[ ${EXPOSE:-} == yes ]]; then bind=0.0.0.0; fi\n"
        "spec=HOST:8080:8080\n"
        "podman run --rm -p \"${spec/HOST/$bind}\" img\n");
    auto ls = lists(r, "podman");
    INFO(test::dump(r));
    REQUIRE(ls.size() == 2);
    CHECK(ls.count("podman run --rm -p 127.0.0.1:8080:8080 img") == 1);
    CHECK(ls.at("podman run --rm -p 0.0.0.0:8080:8080 img") == "when EXPOSE=yes");
  }
}

TEST_CASE("a test of a positional parameter says whose argument it is", "[bash-value-inputs]") {
  SECTION("the script's, at the top level") {
    auto r = render_text(
        "#!/usr/bin/env bash\n"
        "if [[ ${1:-} == --unsafe ]]; then podman run --privileged img; fi\n");
    auto ls = lists(r, "podman");
    REQUIRE(ls.size() == 1);
    CHECK(ls.begin()->second == "when started with `--unsafe`");
  }
  SECTION("the script's, in a function called with \"$@\"") {
    auto r = render_text(
        "#!/usr/bin/env bash\n"
        "main() {\n  case $1 in\n    --host-net) podman run --network=host img ;;\n"
        "  esac\n}\nmain \"$@\"\n");
    auto ls = lists(r, "podman");
    INFO(test::dump(r));
    REQUIRE(ls.size() == 1);
    CHECK(ls.begin()->second == "when started with `--host-net`");
  }
  SECTION("the function's, when called with other arguments") {
    auto r = render_text(
        "#!/usr/bin/env bash\n"
        "net_flag() {\n  case $1 in\n    --host-net) podman run --network=host img ;;\n"
        "  esac\n}\nnet_flag \"$NET_MODE\"\n");
    auto ls = lists(r, "podman");
    INFO(test::dump(r));
    REQUIRE(ls.size() == 1);
    CHECK(ls.begin()->second == "when `net_flag` is called with `--host-net`");
    CHECK(ls.begin()->second.find("matches") == std::string::npos);
  }
  SECTION("an entry point's") {
    auto r = render_text(
        "#!/usr/bin/env bash\n"
        "debug_shell() {\n  if [[ $1 == --root ]]; then podman run --user 0 img; fi\n}\n");
    auto ls = lists(r, "podman");
    INFO(test::dump(r));
    REQUIRE(ls.size() == 1);
    CHECK(ls.begin()->second.find("`debug_shell` is called with `--root`") != std::string::npos);
  }
}

}  // namespace bash_value_inputs_test
