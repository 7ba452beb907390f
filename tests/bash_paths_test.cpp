// The evaluator as a whole-program reader: path conditions as atoms (contradicting paths are
// dropped, conditions read in words), `source` through the script-directory idioms, and
// functions nothing calls evaluated as entry points.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "analyzer/render/bash/evaluator.h"
#include "tests/bash_helpers.h"

namespace sbr::test {
namespace {

std::vector<const Invocation*> launches(const bash::ScriptRender& r) {
  std::vector<const Invocation*> out;
  for (const auto& inv : r.invocations)
    if (bash::is_container_launch(inv)) out.push_back(&inv);
  return out;
}

}  // namespace

TEST_CASE("an array element added on a contradicting path is not in the array", "[bash-paths]") {
  auto r = render_text(R"(#!/bin/bash
args=(--rm)
if [[ $AGENT_NET == host ]]; then args+=(--network host); fi
if [[ $AGENT_NET != host ]]; then
  podman run "${args[@]}" img
fi
if [[ $AGENT_NET == host ]]; then
  podman run "${args[@]}" img2
fi
)");
  auto ls = launches(r);
  REQUIRE(ls.size() == 2);
  CHECK(argv_text(*ls[0]) == "podman run --rm img");
  CHECK(argv_text(*ls[1]) == "podman run --rm --network host img2");
}

TEST_CASE("a variable reassigned between two tests is not taken for the same value",
          "[bash-paths]") {
  auto r = render_text(R"(#!/bin/bash
args=()
mode=$1
if [[ $mode == open ]]; then args+=(--network host); fi
mode=$2
if [[ $mode != open ]]; then podman run "${args[@]}" img; fi
)");
  auto ls = launches(r);
  REQUIRE(ls.size() == 1);
  CHECK(argv_text(*ls[0]) == "podman run --network host img");
}

TEST_CASE("path conditions are told in words", "[bash-paths]") {
  auto r = render_text(R"(#!/bin/bash
if ! command -v iptables >/dev/null; then
  podman run --network host img
fi
)");
  auto ls = launches(r);
  REQUIRE(ls.size() == 1);
  CHECK(ls[0]->from.condition().text == "when `iptables` is not installed");

  auto r2 = render_text(R"(#!/bin/bash
while [[ $# -gt 0 ]]; do
  case $1 in
    --net) net=$2; shift 2 ;;
    *) shift ;;
  esac
done
podman run --network "${net:-none}" img
)");
  std::vector<std::string> conditions;
  for (const auto* inv : launches(r2)) conditions.push_back(inv->from.condition().text);
  CHECK_THAT(conditions, Catch::Matchers::VectorContains(
                             std::string("when started with arguments and started with `--net`")));
}

TEST_CASE("a test of whether a credential is set is not a non-default switch", "[bash-paths]") {
  // claudo's and schubergphilis' shapes: a token passed when the user has it, a mode flag
  // with a default that is a switch.
  auto r = render_text(R"(#!/bin/bash
GITHUB_TOKEN="${GITHUB_TOKEN:-}"
DEBUG="${DEBUG:-false}"
args=(--rm)
if [ -n "$GITHUB_TOKEN" ]; then args+=(-e GITHUB_TOKEN); fi
for var in ANTHROPIC_API_KEY; do
  if [ -n "${!var:-}" ]; then args+=(-e "$var"); fi
done
if [ "$DEBUG" = true ]; then args+=(--cap-add SYS_PTRACE); fi
podman run "${args[@]}" img
)");
  auto ls = launches(r);
  REQUIRE(ls.size() == 1);
  auto condition_of = [&](const std::string& word) -> const Condition* {
    for (const Word& w : ls[0]->argv) {
      if (w.text == word) return &w.from.condition();
    }
    return nullptr;
  };
  const Condition* token = condition_of("GITHUB_TOKEN");
  const Condition* key = condition_of("ANTHROPIC_API_KEY");
  const Condition* ptrace = condition_of("SYS_PTRACE");
  REQUIRE(token != nullptr);
  REQUIRE(key != nullptr);
  REQUIRE(ptrace != nullptr);
  CHECK(token->text == "when GITHUB_TOKEN is set");
  CHECK_FALSE(token->needs_switch);  // a credential set or not: both are normal paths
  CHECK_FALSE(key->always());
  CHECK_FALSE(key->needs_switch);
  CHECK(ptrace->needs_switch);  // DEBUG=true is not the default
}

TEST_CASE(
    "a variable with more values than a value keeps stays unknown on the paths past the bound",
    "[bash-paths]") {
  // sdlcforge/ai-sandbox's option parser sets CMD to a dozen verbs; the launch behind
  // `[ "$CMD" = start ]` was dropped when the value that could be `start` fell past the bound.
  auto r = render_text(R"(#!/bin/bash
set -euo pipefail
CMD=""
if [ "${OPT_HELP:-}" = 1 ]; then CMD=help; fi
if [ "${OPT_LS:-}" = 1 ]; then CMD=ls; fi
if [ "${OPT_INSTANCES:-}" = 1 ]; then CMD=instances-ls; fi
if [ "${OPT_PROFILES:-}" = 1 ]; then CMD=profiles-ls; fi
if [ "${OPT_CREATE:-}" = 1 ]; then CMD=create; fi
if [ "${OPT_VERB:-}" = 1 ]; then CMD="$1"; fi
if [ "$CMD" = start ]; then
  podman run --rm --privileged img
fi
)");
  auto ls = launches(r);
  REQUIRE(ls.size() == 1);
  CHECK(argv_text(*ls[0]) == "podman run --rm --privileged img");
  CHECK(ls[0]->from.condition().text.find("CMD has one of the values other paths set") !=
        std::string::npos);
  CHECK(ls[0]->from.condition().needs_switch);
}

TEST_CASE("an option string appended on independent paths keeps every piece past the bound",
          "[bash-paths]") {
  // sdlcforge/ai-sandbox's src/index.sh: seven overlays appended to COMPOSE_FILES, each on its
  // own test. Past the bound the overlays were one unknown word, and `compose ... up` was run
  // without its base file (the overlays judged as a project of their own).
  auto r = render_text(R"(#!/bin/bash
F="-f base.yaml"
if [ "${A:-}" = 1 ]; then F="$F -f a.yaml"; fi
if [ "${B:-}" = 1 ]; then F="$F -f b.yaml"; fi
if [ "${C:-}" = 1 ]; then F="$F -f c.yaml"; fi
if [ "${D:-}" = 1 ]; then F="$F -f d.yaml"; fi
F="$F -f generated.yaml"
if [ "${E:-}" = 1 ]; then F="$F -f e.yaml"; fi
docker compose $F up -d
)");
  std::vector<std::string> seen;
  std::string widest;
  for (const Invocation& inv : r.invocations) {
    std::string t = argv_text(inv);
    seen.push_back(t);
    if (inv.from.condition().text.find("F has one of the values other paths set") !=
        std::string::npos)
      widest = t;
  }
  CAPTURE(seen);
  CHECK(std::find(seen.begin(), seen.end(),
                  "docker compose -f base.yaml -f generated.yaml up -d") != seen.end());
  CHECK(widest ==
        "docker compose -f base.yaml -f a.yaml -f b.yaml -f c.yaml -f d.yaml -f generated.yaml "
        "-f e.yaml up -d");
  for (const std::string& t : seen) CHECK(t.rfind("docker compose -f base.yaml ", 0) == 0);
}

TEST_CASE("values past the bound with no piece in common stay one unknown value", "[bash-paths]") {
  auto r = render_text(R"(#!/bin/bash
NET=none
if [ "${A:-}" = 1 ]; then NET=host; fi
if [ "${B:-}" = 1 ]; then NET=bridge; fi
if [ "${C:-}" = 1 ]; then NET=slirp4netns; fi
if [ "${D:-}" = 1 ]; then NET=pasta; fi
if [ "${E:-}" = 1 ]; then NET=private; fi
podman run --network "$NET" img
)");
  bool unknown = false;
  for (const Invocation& inv : r.invocations) {
    REQUIRE(inv.argv.size() == 5);
    unknown = unknown || (inv.argv[3].symbolic && inv.argv[3].text.empty());
    CHECK(inv.argv[3].text.find(' ') == std::string::npos);
  }
  CHECK(unknown);
}

TEST_CASE("a variable whose values past the bound repeat kept ones is not widened",
          "[bash-paths]") {
  // kagenti's setup script: KUBECTL is `oc` or `kubectl` on forty paths; no third value.
  auto r = render_text(R"(#!/bin/bash
if [ "${USE_OC:-}" = 1 ]; then KUBECTL=oc; else KUBECTL=kubectl; fi
if [ "${B:-}" = 1 ]; then KUBECTL=oc; fi
if [ "${C:-}" = 1 ]; then KUBECTL=kubectl; fi
if [ "${D:-}" = 1 ]; then KUBECTL=oc; fi
if [ "${E:-}" = 1 ]; then KUBECTL=kubectl; fi
if [ "${F:-}" = 1 ]; then KUBECTL=oc; fi
$KUBECTL create namespace agents
)");
  REQUIRE_FALSE(r.invocations.empty());
  for (const Invocation& inv : r.invocations) {
    INFO(inv.from.condition().text);
    REQUIRE_FALSE(inv.argv.empty());
    CHECK((inv.argv[0].text == "oc" || inv.argv[0].text == "kubectl"));
    CHECK(inv.from.condition().text.find("other paths set") == std::string::npos);
  }
}

TEST_CASE("source follows the script-directory idioms inside the tree", "[bash-paths]") {
  SourceSet set;
  const std::string lib = "agent_flags=(--cap-drop=ALL --read-only)\n";
  set.files.push_back(shell_file(0, "tools/bin/run-agent", ""));
  set.files.push_back(shell_file(1, "tools/lib/flags.sh", lib));
  for (
      const std::string& how : {
          std::string(
              R"sh(root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"; source "$root/lib/flags.sh")sh"),
          std::string(R"sh(. "$(dirname "$(readlink -f "$0")")/../lib/flags.sh")sh"),
          std::string(R"sh(source "$(realpath "$(dirname "$0")/../lib/flags.sh")")sh"),
          std::string(R"sh(here=${BASH_SOURCE[0]%/*}; source "$here/../lib/flags.sh")sh"),
          // spec-kit's scripts (in nano-step's and kweaver's trees): an empty CDPATH first.
          std::string(
              R"sh(d="$(CDPATH="" cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"; source "$d/../lib/flags.sh")sh"),
      }) {
    DYNAMIC_SECTION(how) {
      set.files[0].bytes = "#!/bin/bash\n" + how + "\npodman run \"${agent_flags[@]}\" img\n";
      auto r = render_text(set.files[0].bytes, "tools/bin/run-agent", &set);
      auto ls = launches(r);
      REQUIRE(ls.size() == 1);
      CHECK(argv_text(*ls[0]) == "podman run --cap-drop=ALL --read-only img");
      CHECK(r.problems.empty());
    }
  }
}

TEST_CASE("a source by the repository's path inside the container is that file", "[bash-paths]") {
  // ai-sandbox's startup scripts: the repository is the container's /workspace.
  SourceSet set;
  set.files.push_back(shell_file(0, ".sandbox/lib/flags.sh", "agent_flags=(--cap-drop=ALL)\n"));
  set.files.push_back(shell_file(1, ".sandbox/scripts/start.sh", ""));
  set.files[1].bytes = R"(#!/bin/bash
WORKSPACE="${WORKSPACE:-/workspace}"
source "$WORKSPACE/.sandbox/lib/flags.sh"
source /etc/os-release
source /opt/agent/.sandbox/other.sh
podman run "${agent_flags[@]}" img
)";
  auto r = render_text(set.files[1].bytes, ".sandbox/scripts/start.sh", &set);
  auto ls = launches(r);
  REQUIRE(ls.size() == 1);
  CHECK(argv_text(*ls[0]) == "podman run --cap-drop=ALL img");
  // Outside the repository, or a tail that names no file of it: not followed, as before.
  REQUIRE(r.problems.size() == 2);
  CHECK(r.problems[0].message.find("/etc/os-release") != std::string::npos);
  CHECK(r.problems[1].message.find("other.sh") != std::string::npos);
}

TEST_CASE("a source that leaves the tree or depends on the environment is a note", "[bash-paths]") {
  SourceSet set;
  set.files.push_back(shell_file(0, "run.sh", ""));
  set.files[0].bytes = R"(#!/bin/bash
source ~/.agentrc
. "$AGENT_LIB/flags.sh"
source "$(dirname "$0")/../../etc/passwd"
source "$(dirname "$0")/missing.sh"
)";
  auto r = render_text(set.files[0].bytes, "run.sh", &set);
  REQUIRE(r.problems.size() == 4);
  for (const auto& p : r.problems) CHECK(p.kind == ProblemKind::SourceUnresolved);
  CHECK(r.problems[0].at.line == 2);
  CHECK(r.problems[0].message.find("`source ~/.agentrc`") != std::string::npos);
  CHECK(r.problems[1].message.find("AGENT_LIB") != std::string::npos);
}

TEST_CASE("an unresolved source says what its path depends on, the default once", "[bash-paths]") {
  auto r = render_text(R"(#!/bin/bash
. "${OS_RELEASE_FILE:-/etc/os-release}"
. "$LIB/x.sh"
)");
  REQUIRE(r.problems.size() == 2);
  INFO(r.problems[0].message);
  CHECK(r.problems[0].message.find("it depends on env OS_RELEASE_FILE, default /etc/os-release)") !=
        std::string::npos);
  CHECK(r.problems[0].message.find(">/etc/os-release") == std::string::npos);
  INFO(r.problems[1].message);
  // The part the script leaves unknown is named where it goes (issue 34 §4).
  CHECK(r.problems[1].message.find("env LIB (known so far: `<unknown: $LIB>/x.sh`)") !=
        std::string::npos);
}

TEST_CASE("a function nothing calls is evaluated as an entry point", "[bash-paths]") {
  SourceSet set;
  set.files.push_back(shell_file(0, "lib/run.sh", R"(# shellcheck shell=bash
start() { podman run --rm --network none img; }
# debug_shell: for people poking around
debug_shell() { podman run --privileged img bash; }
cleanup() { podman rm -f agent; }
trap cleanup EXIT
)"));
  set.files.push_back(shell_file(1, "bin/agent", "#!/bin/bash\nsource lib/run.sh\nstart\n"));
  auto r = render_text(set.files[0].bytes, "lib/run.sh", &set);
  auto ls = launches(r);
  REQUIRE(ls.size() == 1);  // start is called by bin/agent; cleanup by the trap
  CHECK(argv_text(*ls[0]) == "podman run --privileged img bash");
  CHECK(ls[0]->from.condition().text == "when `debug_shell` is called");
  CHECK(ls[0]->from.condition().needs_switch);
  REQUIRE_FALSE(ls[0]->call_path.empty());
  CHECK(ls[0]->call_path.back() == "debug_shell");
}

TEST_CASE("a library whose one way in is a function is used by calling it", "[bash-paths]") {
  // kata's tests/functional/kata-monitor shape: a file of one function a developer or CI runs
  // by name; calling it is the file's normal use, not a non-default switch.
  auto r = render_text(R"(#!/bin/bash
# Runs the monitor test in a container.
kata_monitor_test() {
  local image="${KATA_MONITOR_IMAGE:-quay.io/kata/monitor:latest}"
  docker run --rm --privileged "$image" /run-tests.sh
}
)");
  auto ls = launches(r);
  REQUIRE(ls.size() == 1);
  CHECK(ls[0]->from.condition().text == "when `kata_monitor_test` is called");
  CHECK_FALSE(ls[0]->from.condition().needs_switch);
}

}  // namespace sbr::test

namespace sbr::test {

// The option-parsing loop of a real dispatcher, 200 options long: each option's path merges
// into one state, so the launch renders once per distinct argument list, not once per path,
// and within every budget. The launch reads the first and the last option: four lists (neither
// given, either one, both), each under the options it needs. (Its speed is measured by
// bench/bash/option_loop.sh, not asserted here.)
TEST_CASE("a 200-option parsing loop renders one launch per distinct argument list",
          "[bash-paths]") {
  std::string s = "#!/bin/bash\n";
  for (int k = 0; k < 200; ++k) s += "opt" + std::to_string(k) + "=default\n";
  s += "while [[ $# -gt 0 ]]; do\n  case $1 in\n";
  for (int k = 0; k < 200; ++k)
    s += "    --opt" + std::to_string(k) + ") opt" + std::to_string(k) + "=$2; shift 2 ;;\n";
  s += "    *) exit 2 ;;\n  esac\ndone\n";
  s += "podman run --rm --label a=\"$opt0\" --label b=\"$opt199\" img\n";
  auto r = render_text(s);
  CHECK(r.problems.empty());
  auto ls = launches(r);
  REQUIRE(ls.size() == 4);
  CHECK(ls[0]->from.condition().always());
  CHECK(argv_text(*ls[0]) == "podman run --rm --label a=default --label b=default img");
  std::set<std::string> lists;
  for (const auto* l : ls) lists.insert(argv_text(*l));
  CHECK(lists.size() == 4);
  for (std::size_t i = 1; i < ls.size(); ++i) {
    const std::string& c = ls[i]->from.condition().text;
    CHECK(ls[i]->from.condition().needs_switch);
    // The label set from an option is there exactly when the condition names that option.
    CHECK((argv_text(*ls[i]).find("a=default") == std::string::npos) ==
          (c.find("`--opt0`") != std::string::npos));
    CHECK((argv_text(*ls[i]).find("b=default") == std::string::npos) ==
          (c.find("`--opt199`") != std::string::npos));
  }
}

// The `case` items of an option loop are paths of their own: a value set by one item is an
// alternative under that item's condition (not the default words, and not lost when another
// path has the same default words).
TEST_CASE("each option of a parsing loop is its own path", "[bash-paths]") {
  auto r = render_text(R"(#!/bin/bash
net=none
image=ghcr.io/acme/agent:1
while [[ $# -gt 0 ]]; do
  case $1 in
    --image) image=$2; shift 2 ;;
    --net) net=$2; shift 2 ;;
    -h|--help) echo "usage: run [--net MODE] [--image REF]"; exit 0 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
podman run --rm --network "$net" "$image"
)");
  auto ls = launches(r);
  REQUIRE(ls.size() == 4);
  CHECK(argv_text(*ls[0]) == "podman run --rm --network none ghcr.io/acme/agent:1");
  CHECK(ls[0]->from.condition().always());
  int net_only = 0;
  for (const auto* l : ls) {
    const std::string& c = l->from.condition().text;
    const bool net = c.find("`--net`") != std::string::npos;
    const bool image = c.find("`--image`") != std::string::npos;
    CHECK((argv_text(*l).find("--network none") == std::string::npos) == net);
    CHECK((argv_text(*l).find("ghcr.io/acme/agent:1") == std::string::npos) == image);
    if (net && !image) ++net_only;
  }
  CHECK(net_only == 1);
}

}  // namespace sbr::test

namespace sbr::test {

// Entry points share one step budget: many expensive uncalled functions end in one budget
// finding, not in one full budget each.
TEST_CASE("uncalled functions share one step budget", "[bash-paths]") {
  std::string items;
  for (int k = 0; k < 60; ++k) items += " v" + std::to_string(k);
  std::string s = "#!/bin/bash\n";
  for (int f = 0; f < 100; ++f) {
    s += "helper_" + std::to_string(f) + "() {\n  for a in" + items + "; do\n    for b in" + items +
         "; do x=$a$b; done\n  done\n}\n";
  }
  auto r = render_text(s);
  int budget = 0;
  for (const auto& p : r.problems) budget += p.kind == ProblemKind::BudgetExceeded ? 1 : 0;
  CHECK(budget == 1);
}

}  // namespace sbr::test

namespace sbr::test {

// A launch inside recursion is recorded once per level, but its call path names each function
// once: the recursive ones marked, so labels and structural identities do not repeat
// "retry>retry>retry>...".
TEST_CASE("call paths collapse recursion", "[bash-paths]") {
  auto r = render_text(R"(#!/bin/bash
start_agent() { podman run --rm img; }
retry() {
  start_agent
  if [[ $1 -gt 0 ]]; then retry $(($1 - 1)); fi
}
ping_a() { ping_b; }
ping_b() { podman run --rm probe; ping_a; }
retry 2
ping_a
)");
  auto ls = launches(r);
  REQUIRE(ls.size() > 4);
  CHECK(ls[0]->call_path == std::vector<std::string>{"retry (recursive)", "start_agent"});
  CHECK(ls[2]->call_path == std::vector<std::string>{"retry (recursive)", "start_agent"});
  for (const auto* l : ls) {
    if (argv_text(*l) != "podman run --rm probe") continue;
    CHECK(l->call_path == std::vector<std::string>{"ping_a (recursive)", "ping_b (recursive)"});
  }
}

}  // namespace sbr::test

namespace sbr::test {

// A file test is a fact about the host, said in words: never the test's own syntax
// ("when -S /var/run/docker.sock", "not -e ...").
TEST_CASE("file tests read as facts about the host", "[bash-paths]") {
  auto r = render_text(R"(#!/bin/bash
if [ -S /var/run/docker.sock ]; then
  docker run --rm -v /var/run/docker.sock:/var/run/docker.sock img
fi
if [[ ! -e /etc/agent/allowlist ]]; then
  podman run --rm --network host img
fi
)");
  auto ls = launches(r);
  REQUIRE(ls.size() == 2);
  CHECK(ls[0]->from.condition().text == "when `/var/run/docker.sock` is a socket");
  CHECK(ls[1]->from.condition().text == "when `/etc/agent/allowlist` does not exist");
  CHECK(bash::file_test_words("-t", "0").first == "file descriptor 0 is a terminal");
  CHECK(bash::file_test_words("-nt", "b").second == "the test `-nt b` fails");
}

}  // namespace sbr::test
