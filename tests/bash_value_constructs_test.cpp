// Constructs that carry a value on every path (docs/bash-evaluation.md "Values and argument
// lists"): inline assignment prefixes, element-wise array assignments, and arrays a helper
// function fills in its caller's frame.
#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <vector>

#include "tests/bash_helpers.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace bash_value_constructs_test {

using namespace sbr;
using test::lists;
using test::render_text;

TEST_CASE("a function called with an inline assignment sees its value on every path",
          "[bash-value]") {
  auto r = render_text(
      "launch_agent() {\n"
      "  podman run --rm --network \"${NETWORK:-none}\" ghcr.io/acme/agent:2\n"
      "}\n"
      "net=none\n"
      "if [[ ${AGENT_ONLINE:-0} == 1 ]]; then net=slirp4netns; fi\n"
      "NETWORK=$net launch_agent\n"
      "launch_agent\n");
  INFO(test::dump(r));
  auto ls = lists(r, "podman");
  REQUIRE(ls.size() == 2);
  CHECK(ls.at("podman run --rm --network none ghcr.io/acme/agent:2").empty());
  CHECK(ls.at("podman run --rm --network slirp4netns ghcr.io/acme/agent:2") ==
        "when AGENT_ONLINE=1");
  // The assignment lasts for the call only: the second call sees NETWORK unset.
  std::size_t unset = 0;
  for (const auto& inv : r.invocations)
    if (inv.argv.size() > 4 && inv.argv[4].symbolic) ++unset;
  CHECK(unset == 1);
}

TEST_CASE("a command's environment prefix has its value on every path", "[bash-value]") {
  auto r = render_text(
      "host=unix:///run/user/1000/podman/podman.sock\n"
      "[[ ${REMOTE:-} == yes ]] && host=tcp://build-box:2375\n"
      "DOCKER_HOST=$host docker run --rm img\n");
  INFO(test::dump(r));
  std::map<std::string, std::string> env;
  for (const auto& inv : r.invocations) {
    REQUIRE(inv.env_prefix.size() == 1);
    env.emplace(inv.env_prefix[0].text, inv.from.condition().text);
  }
  REQUIRE(env.size() == 2);
  CHECK(env.at("DOCKER_HOST=unix:///run/user/1000/podman/podman.sock").empty());
  CHECK(env.at("DOCKER_HOST=tcp://build-box:2375") == "when REMOTE=yes");
}

TEST_CASE("a helper's case items append to the caller's local array", "[bash-value]") {
  auto r = render_text(
      "add_flag() {\n"
      "  case $1 in\n"
      "    --gpu) cmd+=(--device nvidia.com/gpu=all) ;;\n"
      "    --host-net) cmd+=(--network host) ;;\n"
      "    --docker) cmd+=(-v /run/docker.sock:/run/docker.sock) ;;\n"
      "  esac\n"
      "}\n"
      "start() {\n"
      "  local -a cmd=(podman run --rm)\n"
      "  for f in \"$@\"; do add_flag \"$f\"; done\n"
      "  \"${cmd[@]}\" img\n"
      "}\n"
      "start \"$@\"\n");
  INFO(test::dump(r));
  auto ls = lists(r, "podman");
  REQUIRE(ls.size() == 1);
  const std::string& argv = ls.begin()->first;
  // Every item's elements, each under its own item (only the first survived before).
  CHECK(argv.find("--device nvidia.com/gpu=all") != std::string::npos);
  CHECK(argv.find("--network host") != std::string::npos);
  CHECK(argv.find("-v /run/docker.sock:/run/docker.sock") != std::string::npos);
  for (const auto& inv : r.invocations) {
    for (const Word& w : inv.argv)
      if (w.text == "--privileged" || w.text == "host") CHECK(!w.from.condition().always());
  }
}

TEST_CASE("an element assigned one at a time keeps its value on every path", "[bash-value]") {
  auto r = render_text(
      "declare -A opt\n"
      "opt[network]=none\n"
      "net=none\n"
      "[[ ${AGENT_NET:-} == host ]] && net=host\n"
      "opt[network]=$net\n"
      "flags=(--rm --network PLACEHOLDER)\n"
      "flags[2]=\"$net\"\n"
      "podman run --network \"${opt[network]}\" img\n"
      "podman run \"${flags[@]}\" img2\n");
  INFO(test::dump(r));
  auto ls = lists(r, "podman");
  REQUIRE(ls.size() == 4);
  CHECK(ls.at("podman run --network none img").empty());
  CHECK(ls.at("podman run --network host img") == "when AGENT_NET=host");
  CHECK(ls.at("podman run --rm --network none img2").empty());
  CHECK(ls.at("podman run --rm --network host img2") == "when AGENT_NET=host");
}

TEST_CASE("a keyed element of an associative literal keeps its value on every path",
          "[bash-value]") {
  auto r = render_text(
      "runtime=runc\n"
      "if [[ ${SANDBOX:-gvisor} == gvisor ]]; then runtime=runsc; fi\n"
      "declare -A profile=([runtime]=\"$runtime\" [user]=1000:1000)\n"
      "docker run --runtime=\"${profile[runtime]}\" --user \"${profile[user]}\" img\n");
  INFO(test::dump(r));
  auto ls = lists(r, "docker");
  REQUIRE(ls.size() == 2);
  CHECK(ls.at("docker run --runtime=runsc --user 1000:1000 img").empty());
  CHECK(ls.at("docker run --runtime=runc --user 1000:1000 img") == "when SANDBOX!=gvisor");
}

}  // namespace bash_value_constructs_test
