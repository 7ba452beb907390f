// Budgets of one path (issue 33): a function runs once per argument list its callers give it on
// different paths, and a loop, a call or a command past its bound cuts that path only (PathCut,
// SB0019), never the rest of the script.
#include <catch2/catch.hpp>

#include <string>

#include "analyzer/render/bash/render.h"
#include "tests/bash_helpers.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace bash_path_budget_test {

using namespace sbr;
using sbr::test::argv_text;
using sbr::test::launches;
using sbr::test::render_text;
using sbr::test::shell_file;

namespace {

std::size_t path_cuts(const bash::ScriptRender& r) {
  std::size_t n = 0;
  for (const Problem& p : r.problems) n += p.kind == ProblemKind::PathCut ? 1 : 0;
  return n;
}

bool rest_cut(const bash::ScriptRender& r) {
  for (const Problem& p : r.problems)
    if (p.kind == ProblemKind::BudgetExceeded) return true;
  return false;
}

// The shape of a dispatcher: main's option loop sets a value that it passes to the function
// building the engine command.
const char* const kDispatcher = R"(#!/bin/bash
launch() {
  local network="$1"
  podman run --rm --network "$network" img
}
main() {
  local net=none
  while [[ $# -gt 0 ]]; do
    case "$1" in
      --host) net=host; shift ;;
      *) break ;;
    esac
  done
  launch "$net"
}
main "$@"
)";

}  // namespace

TEST_CASE("a function runs once per argument list of another path, on that path",
          "[bash-path-budget]") {
  auto r = render_text(kDispatcher);
  auto ls = launches(r, "podman");
  REQUIRE(ls.size() == 2);
  CHECK(argv_text(*ls[0]) == "podman run --rm --network none img");
  CHECK(ls[0]->from.condition().always());
  CHECK(argv_text(*ls[1]) == "podman run --rm --network host img");
  CHECK(ls[1]->from.condition().text.find("`--host`") != std::string::npos);
  CHECK(path_cuts(r) == 0);
}

TEST_CASE("what a function sets for another path's arguments is that path's value after it",
          "[bash-path-budget]") {
  auto r = render_text(R"(#!/bin/bash
set_net() { NET_ARGS=(--network "$1"); }
net=none
if [[ $1 == --host ]]; then net=host; fi
set_net "$net"
podman run --rm "${NET_ARGS[@]}" img
)");
  auto ls = launches(r, "podman");
  REQUIRE_FALSE(ls.empty());
  std::string all;
  for (const Invocation* inv : ls) all += argv_text(*inv) + "\n";
  CHECK(all.find("--network none") != std::string::npos);
  CHECK(all.find("--network host") != std::string::npos);
}

TEST_CASE("past the bound on such runs, a call takes its default arguments and says so",
          "[bash-path-budget]") {
  bash::RenderLimits limits;
  limits.max_function_variant_runs = 0;
  auto r = render_text(kDispatcher, "launch.sh", nullptr, limits);
  auto ls = launches(r, "podman");
  REQUIRE(ls.size() == 1);
  CHECK(argv_text(*ls[0]) == "podman run --rm --network none img");
  REQUIRE(path_cuts(r) == 1);
  CHECK(r.problems[0].message.find("`launch` is called here with 1 more argument list") !=
        std::string::npos);
  INFO(r.problems[0].message);
  CHECK(r.problems[0].message.find("(the first: when started with `--host`)") != std::string::npos);

  // A path that a command's success decides reads as a clause of its own: one "when".
  auto s = render_text(R"(#!/bin/bash
launch() { podman run --rm --network "$1" img; }
net=none
if grep -q host /etc/agent.conf; then net=host; fi
launch "$net"
)",
                       "launch.sh", nullptr, limits);
  REQUIRE(path_cuts(s) == 1);
  CHECK(s.problems[0].message.find("when when") == std::string::npos);
  CHECK(s.problems[0].message.find("(the first: when ") != std::string::npos);
}

TEST_CASE("a command run past its bound from one call site is cut there, not the script",
          "[bash-path-budget]") {
  bash::RenderLimits limits;
  limits.max_runs_per_place = 4;
  auto r = render_text(R"(#!/bin/bash
show() { printf '%s\n' "$1"; }
for m in a b c d e f g h i j; do
  show "$m"
done
podman run --rm img
)",
                       "launch.sh", nullptr, limits);
  CHECK(launches(r, "printf").size() == 4);
  CHECK(launches(r, "podman").size() == 1);
  CHECK(path_cuts(r) == 1);
  CHECK_FALSE(rest_cut(r));
}

TEST_CASE(
    "a function that takes the budget is not called again, and the rest of the script renders",
    "[bash-path-budget]") {
  // ContainAI's integration test runs its product's import (`cai import`) in each of 85 tests:
  // the step budget ran out two thirds of the way down the file, and the rest was not rendered.
  bash::RenderLimits limits;
  limits.max_steps = 20000;
  auto r = render_text(R"(#!/bin/bash
run_import() {
  local pattern glob
  for pattern in a b c d e f g h i j k l m n o p q r s t u v w x y z; do
    for glob in a b c d e f g h i j k l m n o p q r s t u v w x y z; do
      case "$pattern/$glob" in a/*) : skip ;; *) : "$pattern" ;; esac
    done
  done
}
test_one() { run_import one; }
for t in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30; do
  test_one
done
podman run --rm --privileged img
)",
                       "launch.sh", nullptr, limits);
  CHECK_FALSE(rest_cut(r));
  CHECK(launches(r, "podman").size() == 1);
  bool hot = false;
  for (const Problem& p : r.problems) {
    hot = hot || p.message.find("has taken more than 2500 evaluation steps") != std::string::npos;
  }
  CHECK(hot);
}

namespace {

// cco's run_container: each mount goes through a helper that scans the whole argument list,
// and the launcher runs on the fallback path first, then on the default one.
const char* const kMountScan = R"(#!/bin/bash
find_index() {
  local i=0
  while [[ $i -lt 40 ]]; do
    [[ "${args[$i]}" == "$1" ]] && { echo "$i"; return 0; }
    ((i += 1))
  done
  return 1
}
add_mount() {
  if ! find_index "$1" >/dev/null; then args+=(-v "$1:$1"); fi
}
run_container() {
  args=()
  for d in a b c d e f g h i j k l m n o p q r s t u v w x y z; do add_mount "/$d"; done
  docker run --rm "${args[@]}" --network host img
}
if [[ "$BACKEND" == native ]]; then
  run_container
fi
run_container
)";

bool function_cut(const bash::ScriptRender& r, const std::string& name) {
  for (const Problem& p : r.problems)
    if (p.message.find("function `" + name + "` has taken") != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("the helper that takes the budget is cut and the launcher that calls it still runs",
          "[bash-path-budget]") {
  // Charged with its helpers' steps, run_container itself was "hot" after the fallback path
  // had called it once, and the default path's launch was never evaluated. The helper that
  // does the work is cut (the budget is reached); the launcher, called twice, is not.
  bash::RenderLimits limits;
  limits.max_steps = 20000;
  auto r = render_text(kMountScan, "launch.sh", nullptr, limits);
  CHECK_FALSE(rest_cut(r));
  CHECK((function_cut(r, "find_index") || function_cut(r, "add_mount")));
  CHECK_FALSE(function_cut(r, "run_container"));
  // The fallback's launch and the default path's.
  CHECK(launches(r, "docker").size() == 2);
}

TEST_CASE("the same command from another call site has its own bound", "[bash-path-budget]") {
  bash::RenderLimits limits;
  limits.max_runs_per_place = 2;
  auto r = render_text(R"(#!/bin/bash
log() { echo "$1"; }
log one
log two
log three
)",
                       "launch.sh", nullptr, limits);
  CHECK(launches(r, "echo").size() == 3);
  CHECK(path_cuts(r) == 0);
}

TEST_CASE("past the text-tool bound, echo and printf stop being recorded, launches do not",
          "[bash-path-budget]") {
  bash::RenderLimits limits;
  limits.max_text_tool_invocations = 3;
  auto r = render_text(R"(#!/bin/bash
echo 1
echo 2
echo 3
echo 4
printf '%s\n' 5
podman run --rm img
echo 6
)",
                       "launch.sh", nullptr, limits);
  CHECK(launches(r, "echo").size() == 3);
  CHECK(launches(r, "printf").empty());
  CHECK(launches(r, "podman").size() == 1);
  CHECK(path_cuts(r) == 1);
  CHECK_FALSE(rest_cut(r));
}

TEST_CASE("past the command bound, the rest of the script is not rendered (SB0007)",
          "[bash-path-budget]") {
  bash::RenderLimits limits;
  limits.max_invocations = 2;
  auto r = render_text("#!/bin/bash\nmkdir a\nmkdir b\nmkdir c\npodman run --rm img\n", "launch.sh",
                       nullptr, limits);
  CHECK(launches(r, "podman").empty());
  CHECK(rest_cut(r));
}

TEST_CASE("a file that sources itself is cut at the bound and the script goes on",
          "[bash-path-budget]") {
  SourceSet set;
  set.files.push_back(shell_file(1, "lib.sh", "COUNT=x$COUNT\nsource ./lib.sh\n"));
  auto r = render_text("#!/bin/bash\nsource ./lib.sh\npodman run --rm img\n", "launch.sh", &set);
  CHECK(launches(r, "podman").size() == 1);
  CHECK(path_cuts(r) == 1);
  CHECK_FALSE(rest_cut(r));
}

TEST_CASE("recursion is cut as a path, a chain of distinct calls past the bound is a budget",
          "[bash-path-budget]") {
  auto rec = render_text("#!/bin/bash\nwalk() { walk \"$1/x\"; }\nwalk /\npodman run --rm img\n");
  CHECK(path_cuts(rec) == 1);
  CHECK_FALSE(rest_cut(rec));
  CHECK(launches(rec, "podman").size() == 1);

  std::string chain = "#!/bin/bash\n";
  for (int i = 0; i < 40; ++i)
    chain += "f" + std::to_string(i) + "() { f" + std::to_string(i + 1) + "; }\n";
  auto deep = render_text(chain + "f0\npodman run --rm img\n");
  CHECK(path_cuts(deep) == 0);
  CHECK(rest_cut(deep));                        // SB0007: no script nests 40 functions
  CHECK(launches(deep, "podman").size() == 1);  // and the rest still runs
}

// The shape of a test suite's helper: every test imports through a fresh shell that sources the
// product's library.
TEST_CASE("an sh -c script written at one place runs up to its bound, whoever calls it",
          "[bash-path-budget]") {
  bash::RenderLimits limits;
  limits.max_inline_runs_per_place = 2;
  auto r = render_text(R"(#!/bin/bash
run_import() {
  bash -c 'podman run --rm --name "imp-$1" img' _ "$1"
}
run_import a
run_import b
run_import c
podman run --rm last
)",
                       "test.sh", nullptr, limits);
  auto inner = launches(r, "podman");
  REQUIRE(inner.size() == 3);
  CHECK(argv_text(*inner[0]) == "podman run --rm --name imp-a img");
  CHECK(argv_text(*inner[1]) == "podman run --rm --name imp-b img");
  CHECK(argv_text(*inner[2]) == "podman run --rm last");
  REQUIRE(path_cuts(r) == 1);
  CHECK(r.problems[0].at.line == 3);
  CHECK_FALSE(rest_cut(r));
}

TEST_CASE("a library sourced by every test is read once: its repairs are reported once",
          "[bash-path-budget]") {
  SourceSet set;
  // `exec 3<>"/dev/tcp/..."` is valid bash tree-sitter-bash needs recovering from.
  set.files.push_back(
      shell_file(1, "lib.sh", "probe() { exec 3<>\"/dev/tcp/127.0.0.1/$1\"; }\nLIB_IMAGE=img\n"));
  auto r = render_text(
      "#!/bin/bash\nsource ./lib.sh\nsource ./lib.sh\nsource ./lib.sh\npodman run --rm "
      "\"$LIB_IMAGE\"\n",
      "launch.sh", &set);
  std::size_t repairs = 0;
  for (const Problem& p : r.problems) repairs += p.kind == ProblemKind::ParseRecovered ? 1 : 0;
  CHECK(repairs == 1);
  auto ls = launches(r, "podman");
  REQUIRE(ls.size() == 1);
  CHECK(argv_text(*ls[0]) == "podman run --rm img");
}

// cco's mount upgrade: the index comes from a helper whose output is not known.
TEST_CASE("an element written at an unknown index leaves the array as it was and says so",
          "[bash-path-budget]") {
  auto r = render_text(R"(#!/bin/bash
args=(--rm -v "$HOME/.ssh:/home/agent/.ssh:ro")
i=$(find_mount_index /home/agent/.ssh)
args[$i]="$HOME/.ssh:/home/agent/.ssh"
args[-1]="$HOME/.ssh:/home/agent/.ssh:ro,z"
podman run "${args[@]}" agent:1
)");
  auto ls = launches(r, "podman");
  REQUIRE(ls.size() == 1);
  CHECK(argv_text(*ls[0]) == "podman run --rm -v $HOME/.ssh:/home/agent/.ssh:ro,z agent:1");
  REQUIRE(path_cuts(r) == 1);
  CHECK(r.problems[0].at.line == 4);
  CHECK(r.problems[0].message.find("`[$i]`") != std::string::npos);
}

}  // namespace bash_path_budget_test
