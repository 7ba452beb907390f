// Unknown parts of a word (issue 34 §4): where the partial evaluator has no text for a piece of
// a word, a message shows `<unknown: $NAME>` in its place, while the word's text, what the
// checks reason on and the fingerprints stay as they were.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "analyzer/check/catalog.h"
#include "analyzer/check/runner.h"
#include "analyzer/config/config.h"
#include "analyzer/pipeline/analysis.h"
#include "analyzer/source/memory_tree.h"
#include "tests/bash_helpers.h"
#include "tests/fixture_harness.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace unknown_parts_test {

using namespace sbr;

namespace {

// The argument of the first `docker` command that follows `flag`, as a message shows it.
std::vector<std::string> shown_after(const std::string& script, const std::string& flag) {
  auto r = test::render_text(script);
  std::vector<std::string> out;
  for (const Invocation* inv : test::launches(r, "docker")) {
    for (std::size_t i = 0; i + 1 < inv->argv.size(); ++i) {
      if (inv->argv[i].text == flag) out.push_back(inv->argv[i + 1].shown());
    }
  }
  return out;
}

std::vector<Finding> findings_of(const std::string& script) {
  MemoryTree t;
  t.add_file("run.sh", script);
  Analysis a = analyze(t, Config{}, {});
  RunOptions run;
  run.today = "2026-06-15";
  return run_checks(a.model, Catalog::embedded(), Config{}, run);
}

// The findings of `script` with its `%s` replaced by a variable's name.
std::vector<Finding> findings_naming(std::string script, const char* var) {
  script.replace(script.find("%s"), 2, var);
  return findings_of(script);
}

const Finding* first_of(const std::vector<Finding>& fs, std::string_view rule) {
  for (const Finding& f : fs) {
    if (f.rule_id.str() == rule) return &f;
  }
  return nullptr;
}

// The first finding of `rule` when the script's unknown variable is named `x`, then `y`.
std::pair<Finding, Finding> renamed(const char* script, std::string_view rule, const char* x,
                                    const char* y) {
  auto a = findings_naming(script, x);
  auto b = findings_naming(script, y);
  const Finding* fa = first_of(a, rule);
  const Finding* fb = first_of(b, rule);
  REQUIRE(fa != nullptr);
  REQUIRE(fb != nullptr);
  return {*fa, *fb};
}

}  // namespace

TEST_CASE("unknown parts are shown at their offsets and sliced with the text", "[unknown-parts]") {
  std::vector<UnknownPart> parts{{3, "$A"}, {3, "$B"}, {5, "$(date +%s)"}};
  CHECK(show_unknown("/x//y", parts) == "/x/<unknown: $A><unknown: $B>/y<unknown: $(date +%s)>");
  CHECK(show_unknown("/x//y", {}) == "/x//y");
  // A part past the end: the text changed after the parts were placed; shown as it is.
  CHECK(show_unknown("/x", {{9, "$A"}}) == "/x");
  // `$SRC:/dst`: the part at the colon belongs to the source, the one after it to the target.
  std::vector<UnknownPart> spec{{0, "$SRC"}, {1, "$DST"}};
  CHECK(show_unknown("", unknown_parts_in(spec, 0, 0)) == "<unknown: $SRC>");
  CHECK(show_unknown("", unknown_parts_in(spec, 1, 1)) == "<unknown: $DST>");
}

TEST_CASE("a launcher's unknown pieces are named in the words it runs", "[unknown-parts]") {
  auto shown = shown_after(R"(#!/bin/bash
TOOL="$1"
shift
HOME_DIR="$HOME/.sb/tools/$TOOL/home"
STAMP=$(date +%Y%m%d-%H%M%S)
docker run --rm -v "$HOME_DIR":/home/agent -v "/x/$UNSET_THING/y":/data img
docker run --rm -v "cache-${SUFFIX:-main}:/cache" -v "vol-$$:/v" -v "/out/$STAMP:/out" img
docker run --rm -v "/run/$(uname -m)/$(hostname --fqdn | tr a-z A-Z)/s:/s" img
)",
                           "-v");
  REQUIRE(shown.size() == 6);
  CHECK(shown[0] == "$HOME/.sb/tools/<unknown: $1>/home:/home/agent");
  CHECK(shown[1] == "/x/<unknown: $UNSET_THING>/y:/data");
  CHECK(shown[2] == "cache-main:/cache");  // a guess is shown as the guess
  CHECK(shown[3] == "vol-<unknown: $$>:/v");
  CHECK(shown[4] == "/out/<unknown: $(date +%Y%m%d-%H%M%S)>:/out");
  CHECK(shown[5] == "/run/<unknown: $(uname -m)>/<unknown: $(hostname --fqdn | tr a-z ...)>/s:/s");
  // The text the checks read is unchanged.
  auto r = test::render_text("docker run -v \"/x/$UNSET_THING/y\":/data img\n");
  REQUIRE(test::launches(r, "docker").size() == 1);
  CHECK(test::launches(r, "docker")[0]->argv[3].text == "/x//y:/data");
}

TEST_CASE("a word that is one unknown value is named whole", "[unknown-parts]") {
  auto shown = shown_after("#!/bin/bash\ndocker run --name \"$AGENT_NAME\" img\n", "--name");
  REQUIRE(shown.size() == 1);
  CHECK(shown[0] == "<unknown: $AGENT_NAME>");
}

TEST_CASE("findings show unknown parts in their messages and keep their fingerprints",
          "[unknown-parts]") {
  const char* script = R"(#!/bin/bash
set -euo pipefail
docker run --rm -v "/srv/$%s/data:/data" img
)";
  auto [fa, fb] = renamed(script, "SB3007", "AREA", "ZONE");
  CHECK(fa.message.str().find("mounts host path /srv/<unknown: $AREA>/data writable") !=
        std::string::npos);
  CHECK(fb.message.str().find("/srv/<unknown: $ZONE>/data") != std::string::npos);
  // The name is display only: the same mount reads as the same finding.
  CHECK(fa.fingerprint == fb.fingerprint);
}

TEST_CASE("a data rule prints a field's unknown parts in its message, not in its fact",
          "[unknown-parts]") {
  // SB1005 is a data rule whose summary prints `{source}`.
  const char* script = R"(#!/bin/bash
set -euo pipefail
docker run --rm -v "$%s/docker.sock:/var/run/docker.sock" img
)";
  auto [fa, fb] = renamed(script, "SB1005", "SOCK_DIR", "RUNTIME_DIR");
  INFO(fa.message.str());
  CHECK(fa.message.str().find("<unknown: $SOCK_DIR>/docker.sock") != std::string::npos);
  CHECK(fb.message.str().find("<unknown: $RUNTIME_DIR>/docker.sock") != std::string::npos);
  CHECK(fa.fact_path.str() == fb.fact_path.str());
  CHECK(fa.fact_path.str().find("unknown") == std::string::npos);
  CHECK(fa.fingerprint == fb.fingerprint);
}

TEST_CASE("the unknown-parts launchers name every unknown part in their messages",
          "[unknown-parts][fixtures]") {
  auto r =
      test::run_fixture_dir(test::source_dir() + "/fixtures/launchers/unknown-parts", {}, true);
  std::vector<std::string> messages;
  for (const Finding& f : r.findings) messages.push_back(f.message.str());
  auto has = [&](const std::string& part) {
    INFO(part);
    CHECK(std::any_of(messages.begin(), messages.end(),
                      [&](const std::string& m) { return m.find(part) != std::string::npos; }));
  };
  has("mounts host path $HOME/.ai-sandbox/tools/<unknown: $1>/home writable at /home/agent");
  has("mounts named volume `ai-export-<unknown: $1>-<unknown: $$>` at /home/node");
  has("mounts host path <unknown: $2>/cli_sandbox/<unknown: $1>/home writable at /target");
  has("container ai-run-<unknown: $1>-<unknown: $$> is started but no trap removes it");
  has("token is written to <unknown: $AI_RUN_STATE>/sessions/.resume-token without");
}

}  // namespace unknown_parts_test
