// Argument-list integrity (issue 33): an open word the script leaves unresolved is never taken
// for the image when it may be options; it keeps its place as an unknown option (SB0013), and
// the options after it are still read.
#include <catch2/catch.hpp>

#include <algorithm>

#include "analyzer/frontends/launch/launch.h"
#include "tests/bash_helpers.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace launch_argv_unknown_test {

using namespace sbr;

namespace {

struct Arg {
  std::string text;
  bool open = false;  // a word the script leaves open; `text` is its guess, if any
  std::string origin;
};

// Word i sits on line 1, column 10 * i + 1.
Invocation argv_of(const std::vector<Arg>& args) {
  Invocation inv;
  for (std::size_t i = 0; i < args.size(); ++i) {
    Word w;
    w.text = args[i].text;
    w.symbolic = args[i].open;
    w.origin = args[i].origin;
    w.from.at = Location{0, 1, static_cast<std::uint32_t>(10 * i + 1)};
    w.from.frontend = Frontend::Bash;
    inv.argv.push_back(std::move(w));
  }
  inv.from = inv.argv[0].from;
  inv.sequence = 1;
  return inv;
}

std::uint32_t column_of(std::size_t index) {
  return static_cast<std::uint32_t>(10 * index + 1);
}

FilePart launch_of(const std::vector<Arg>& args) {
  FilePart out;
  LaunchContext ctx;
  REQUIRE(workloads_from_invocation(argv_of(args), ctx, out));
  REQUIRE(out.workloads.size() == 1);
  return out;
}

bool has_env(const Workload& w, std::string_view name) {
  return std::any_of(w.env.begin(), w.env.end(), [&](const EnvVar& e) { return e.name == name; });
}

bool has_unknown_option(const Workload& w, std::string_view text) {
  return std::any_of(w.unknown_options.begin(), w.unknown_options.end(),
                     [&](const auto& o) { return o.value.find(text) != std::string::npos; });
}

}  // namespace

TEST_CASE("a known option with a quoted open value is that option, not an unknown one",
          "[launch][argv-unknown]") {
  // agentctl's `cmd+=(--memory="$memory")` on the path of `--memory=SIZE`.
  auto r = test::render_text(R"(#!/bin/bash
mem=$1
podman run --rm --memory="$mem" img
podman run --rm "--memory=$mem" img
podman run --rm --memory=$mem img
quoted=(--memory="$mem")
podman run "${quoted[@]}" img
split=(--memory=$mem)
podman run "${split[@]}" img
output=(--memory=$(pick_memory))
podman run "${output[@]}" img
)");
  std::vector<std::size_t> open;
  for (const Invocation& inv : r.invocations) {
    if (!bash::is_container_launch(inv)) continue;  // `pick_memory` runs too
    FilePart out;
    LaunchContext ctx;
    REQUIRE(workloads_from_invocation(inv, ctx, out));
    std::size_t n = 0;
    for (const Problem& p : out.problems) n += p.kind == ProblemKind::ArgvPartlyUnknown ? 1 : 0;
    open.push_back(n);
  }
  // Only the unquoted ones can split into more options, also once stored in an array that a
  // later use quotes.
  CHECK(open == std::vector<std::size_t>{0, 0, 1, 0, 1, 1});
}

TEST_CASE("an open splice before the options is an unknown option, not the image",
          "[launch][argv-unknown]") {
  FilePart out = launch_of({{"docker"},
                            {"run"},
                            {"--rm"},
                            {"", true, "command substitution `build_flags`"},
                            {"-e"},
                            {"OPENAI_API_KEY=", true, "env OPENAI_API_KEY"},
                            {"-p"},
                            {"8080:8080"},
                            {"ghcr.io/acme/agent:1.2"},
                            {"bash"}});
  const Workload& w = out.workloads[0];
  CHECK(w.image == "ghcr.io/acme/agent:1.2");
  CHECK(has_env(w, "OPENAI_API_KEY"));
  REQUIRE(w.network.ports.size() == 1);
  CHECK(w.network.ports[0].host_port == "8080");
  REQUIRE(w.command.size() == 1);
  CHECK(w.command[0].value == "bash");
  REQUIRE(out.problems.size() == 1);
  CHECK(out.problems[0].kind == ProblemKind::ArgvPartlyUnknown);
  CHECK(out.problems[0].at.column == column_of(3));
  CHECK(out.problems[0].message.find("before the image ghcr.io/acme/agent:1.2") !=
        std::string::npos);
}

TEST_CASE("an unquoted value split on an unknown part is never the image",
          "[launch][argv-unknown]") {
  // `$MOUNTS` = "$DIR:/home/$U/.x -v ...": blanks in an open word are several words.
  FilePart out = launch_of({{"podman"},
                            {"run"},
                            {" -v :/home/agent/.x -v /srv:/srv", true, "env MOUNTS"},
                            {"--privileged"},
                            {"agent"}});
  const Workload& w = out.workloads[0];
  CHECK(w.image == "agent");
  REQUIRE(w.identity.privileged);
  CHECK(w.identity.privileged->value);
  CHECK(has_unknown_option(w, "-v :/home/agent/.x"));
  REQUIRE(out.problems.size() == 1);
  CHECK(out.problems[0].at.column == column_of(2));

  // An open word after an open image proves nothing: `"$IMAGE" $ARGS --log-level trace`.
  FilePart two = launch_of({{"docker"},
                            {"run"},
                            {"", true, "env IMAGE"},
                            {"", true, "env ARGS"},
                            {"--log-level"},
                            {"trace"}});
  CHECK(two.workloads[0].image == "env IMAGE");
  CHECK(two.workloads[0].command.size() == 3);
  CHECK(two.problems.empty());

  // A variable before an option: the entrypoint's flags after an image the environment picks.
  FilePart flags = launch_of(
      {{"docker"}, {"run"}, {"", true, "env IMAGE, default empty"}, {"--log-level"}, {"trace"}});
  CHECK(flags.workloads[0].image == "env IMAGE, default empty");
  CHECK(flags.problems.empty());
}

TEST_CASE("no word certainly the image: the image is unknown, not guessed",
          "[launch][argv-unknown]") {
  FilePart out = launch_of({{"docker"},
                            {"run"},
                            {"", true, "command substitution `extra_flags`"},
                            {"-e"},
                            {"GITHUB_TOKEN=abc"}});
  const Workload& w = out.workloads[0];
  CHECK(w.image.empty());
  CHECK(has_env(w, "GITHUB_TOKEN"));
  CHECK(has_unknown_option(w, "image unknown"));
  REQUIRE(out.problems.size() == 1);
  CHECK(out.problems[0].at.column == column_of(2));
  CHECK(out.problems[0].message.find("no word after it is certainly the image") !=
        std::string::npos);

  // A last open word after the options is the image: `docker run $FLAGS -e X=1 "$IMAGE"`.
  FilePart last = launch_of({{"docker"},
                             {"run"},
                             {"", true, "command substitution `f`"},
                             {"-e"},
                             {"X=1"},
                             {"", true, "env IMAGE"}});
  CHECK(last.workloads[0].image == "env IMAGE");
  CHECK_FALSE(has_unknown_option(last.workloads[0], "image unknown"));
}

TEST_CASE("an open word that reads as the image stays the image", "[launch][argv-unknown]") {
  // `docker run --rm "$IMAGE" test -d /opt`: the command is plain words.
  FilePart plain = launch_of(
      {{"docker"}, {"run"}, {"--rm"}, {"", true, "env IMAGE"}, {"test"}, {"-d"}, {"/opt"}});
  CHECK(plain.workloads[0].image == "env IMAGE");
  CHECK(plain.workloads[0].command.size() == 3);
  CHECK(plain.problems.empty());

  // Its guess is an image reference: the `-c` after it is the shell entrypoint's.
  FilePart guessed = launch_of({{"docker"},
                                {"run"},
                                {"ghcr.io/acme/agent:base", true, "env AI_IMAGE_REGISTRY"},
                                {"-c"},
                                {"echo hi"}});
  CHECK(guessed.workloads[0].image == "ghcr.io/acme/agent:base");
  CHECK(guessed.workloads[0].command.size() == 2);
  CHECK(guessed.problems.empty());
}

TEST_CASE("an open word in an option's value place is that value", "[launch][argv-unknown]") {
  FilePart out = launch_of(
      {{"docker"}, {"run"}, {"-v"}, {" a:/b", true, "env DIR"}, {"-p"}, {"80:80"}, {"img:1"}});
  const Workload& w = out.workloads[0];
  CHECK(w.image == "img:1");
  CHECK(w.mounts.size() == 1);
  CHECK(w.network.ports.size() == 1);
  CHECK(out.problems.empty());
}

TEST_CASE("many open words before options are each read once", "[launch][argv-unknown]") {
  // Hostile input: 100,000 open words, each before an `-e`, then the image.
  std::vector<Arg> args = {{"docker"}, {"run"}};
  for (int k = 0; k < 100'000; ++k) {
    args.push_back({"", true, "command substitution `flags`"});
    args.push_back({"-e"});
    args.push_back({"K=1"});
  }
  args.push_back({"ghcr.io/acme/agent:1"});
  FilePart out = launch_of(args);
  CHECK(out.workloads[0].image == "ghcr.io/acme/agent:1");
  CHECK(out.problems.size() == 100'000);
}

}  // namespace launch_argv_unknown_test
