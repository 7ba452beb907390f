// Word expansions a launcher can use to put an option where the review would not see it (the
// hostile review of issue 31): brace expansion, a custom IFS, array and string slices. Each is
// expanded as bash expands it, so the launch's argv is the one bash runs.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "analyzer/render/bash/fields.h"
#include "analyzer/render/bash/render.h"

namespace bash_word_expansions_test {

using namespace sbr;

namespace {

// The argv of the first `podman` command of `script`, as text.
std::vector<std::string> podman_argv(const std::string& script) {
  SourceFile f;
  f.id = 0;
  f.path = "run.sh";
  f.type = FileType::Shell;
  f.bytes = "#!/bin/bash\n" + script + "\n";
  f.readable = true;
  for (const auto& inv : bash::render_script(f, nullptr).invocations) {
    if (inv.argv.empty() || inv.argv[0].text != "podman") continue;
    std::vector<std::string> out;
    for (const auto& w : inv.argv) out.push_back(w.text);
    return out;
  }
  return {};
}

using Words = std::vector<std::string>;

// `--{privileged,x}{a,b}{a,b}...`: 2^20 words.
std::string bomb_word() {
  std::string w = "--{privileged,x}";
  for (int k = 0; k < 19; ++k) w += "{a,b}";
  return w;
}

}  // namespace

TEST_CASE("brace expansion gives bash's words, nested and in order", "[bash]") {
  CHECK(bash::brace_expand("--{privileged,rm}") == Words{"--privileged", "--rm"});
  CHECK(bash::brace_expand("a{b,c{d,e}}f") == Words{"abf", "acdf", "acef"});
  CHECK(bash::brace_expand("{a,b}{1,2}") == Words{"a1", "a2", "b1", "b2"});
  CHECK(bash::brace_expand("x{a}y") == Words{"x{a}y"});      // no comma: text
  CHECK(bash::brace_expand("${x}") == Words{"${x}"});        // a parameter, not a group
  CHECK(bash::brace_expand("\\{a,b}") == Words{"\\{a,b}"});  // escaped
  CHECK(bash::brace_expand("{a,b", 8) == Words{"{a,b"});     // unclosed
  std::string bomb;
  for (int k = 0; k < 20; ++k) bomb += "{a,b}";
  CHECK(bash::brace_expand(bomb).empty());  // 2^20 words: past the limit, not known
}

TEST_CASE("an option hidden by brace expansion, IFS or a slice is in the launch's argv", "[bash]") {
  const std::string img = " ghcr.io/example/agent:1.0";
  CHECK(podman_argv("podman run --{privileged,rm}" + img) ==
        Words{"podman", "run", "--privileged", "--rm", "ghcr.io/example/agent:1.0"});
  CHECK(podman_argv("IFS=,\nopts=\"--privileged,--rm\"\npodman run $opts" + img) ==
        Words{"podman", "run", "--privileged", "--rm", "ghcr.io/example/agent:1.0"});
  CHECK(podman_argv("a=(x --privileged --rm)\npodman run \"${a[@]:1}\"" + img) ==
        Words{"podman", "run", "--privileged", "--rm", "ghcr.io/example/agent:1.0"});
  CHECK(podman_argv("a=(x --privileged --rm)\npodman run \"${a[@]:1:1}\"" + img) ==
        Words{"podman", "run", "--privileged", "ghcr.io/example/agent:1.0"});
  CHECK(podman_argv("x=abc\npodman run --${x:0:0}privileged" + img) ==
        Words{"podman", "run", "--privileged", "ghcr.io/example/agent:1.0"});
  CHECK(podman_argv("x=--privileged-no\npodman run ${x:0:12}" + img) ==
        Words{"podman", "run", "--privileged", "ghcr.io/example/agent:1.0"});
  // A brace bomb is an open word where an option goes, not its text taken as the image.
  const auto bombed = podman_argv("podman run " + bomb_word() + img);
  REQUIRE(bombed.size() == 4);
  CHECK(bombed[2].empty());  // the open word (its text is empty)
  // An assignment is not brace-expanded; a quoted word is not either.
  CHECK(podman_argv("v=--{a,b}\npodman run \"$v\" '--{c,d}'" + img) ==
        Words{"podman", "run", "--{a,b}", "--{c,d}", "ghcr.io/example/agent:1.0"});
}

TEST_CASE("a launch through an alias or a nameref is the launch bash runs", "[bash]") {
  const std::string img = " ghcr.io/example/agent:1.0";
  CHECK(
      podman_argv("shopt -s expand_aliases\nalias prun='podman run --privileged'\nprun -d" + img) ==
      Words{"podman", "run", "--privileged", "-d", "ghcr.io/example/agent:1.0"});
  // Without expand_aliases, bash runs a command named prun: no podman at all.
  CHECK(podman_argv("alias prun='podman run --privileged'\nprun" + img).empty());
  // An alias is not expanded again inside its own text.
  CHECK(podman_argv("shopt -s expand_aliases\nalias podman='podman --log-level=debug'\n"
                    "podman run" +
                    img) ==
        Words{"podman", "--log-level=debug", "run", "ghcr.io/example/agent:1.0"});
  CHECK(podman_argv("flags=(--privileged)\ndeclare -n ref=flags\npodman run \"${ref[@]}\"" + img) ==
        Words{"podman", "run", "--privileged", "ghcr.io/example/agent:1.0"});
  CHECK(podman_argv("declare -n ref=net\nref=host\npodman run --network \"$net\"" + img) ==
        Words{"podman", "run", "--network", "host", "ghcr.io/example/agent:1.0"});
}

TEST_CASE("the set -u guard of an array expands to the array's elements", "[bash]") {
  const std::string img = " ghcr.io/example/agent:1.0";
  // claude-docker's smoke.sh: `"${VOLUME_ARGS[@]+"${VOLUME_ARGS[@]}"}"`, on both paths (the
  // script's pid, `$$`, is an open part of its word: its text is empty).
  CHECK(podman_argv("V=()\nif [ \"$W\" = 1 ]; then V=(-v \"vol-$$:/root\"); fi\n"
                    "podman run \"${V[@]+\"${V[@]}\"}\"" +
                    img) ==
        Words{"podman", "run", "-v", "vol-:/root", "ghcr.io/example/agent:1.0"});
  CHECK(podman_argv("V=()\npodman run ${V[@]+\"${V[@]}\"}" + img) ==
        Words{"podman", "run", "ghcr.io/example/agent:1.0"});
}

}  // namespace bash_word_expansions_test
