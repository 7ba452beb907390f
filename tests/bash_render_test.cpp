// The bash partial evaluator: rendered argument lists with origins, conditions and shell
// state, on scripts held in memory and on the launcher fixtures.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "analyzer/pipeline/analysis.h"
#include "tests/bash_helpers.h"
#include "tests/fixture_harness.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace bash_render_test {

using namespace sbr;
using sbr::test::argv_text;
using sbr::test::find_invocation;
using sbr::test::find_word;
using sbr::test::render_text;

namespace {

const Invocation& only(const bash::ScriptRender& r, const std::string& argv0) {
  const Invocation* inv = find_invocation(r, argv0);
  INFO(test::dump(r));
  REQUIRE(inv != nullptr);
  return *inv;
}

}  // namespace

TEST_CASE("parameter expansions, defaults and concatenation", "[bash]") {
  auto r = render_text(R"SH(
A=alpha
B="${A}-beta"
podman run "$B" ${UNSET:-dflt} ${A:+plus} "${A#al}" "${A%ha}" x"$A"y ${#A} ${A/ph/f}
C=${C:=assigned}
echo "$C" "${UNSET2-dash}"
)SH");
  const Invocation& p = only(r, "podman");
  CHECK(argv_text(p) == "podman run alpha-beta dflt plus pha alp xalphay 5 alfa");
  const Invocation& e = only(r, "echo");
  CHECK(argv_text(e) == "echo assigned dash");
}

TEST_CASE("environment values stay symbolic with their origin and taint", "[bash]") {
  auto r = render_text(
      "#!/bin/bash\nPUBLISH=\"${AGENTBOX_PUBLISH:-5173:5173}\"\npodman run -p \"$PUBLISH\" "
      "\"$IMAGE\"\n");
  const Invocation& p = only(r, "podman");
  REQUIRE(p.argv.size() == 5);
  const Word& pub = p.argv[3];
  CHECK(pub.symbolic);
  CHECK(pub.text == "5173:5173");
  CHECK(pub.origin == "env AGENTBOX_PUBLISH, default 5173:5173");
  CHECK(pub.tainted);
  CHECK(pub.from.at.line == 3);
  CHECK(pub.from.at.column == 15);
  const Word& img = p.argv[4];
  CHECK(img.symbolic);
  CHECK(img.text.empty());
  CHECK(img.origin == "env IMAGE");
  // The script's own literal is not tainted.
  CHECK_FALSE(p.argv[2].tainted);
}

TEST_CASE("arrays: literal, append, index, @ and *, declare -A", "[bash]") {
  auto r = render_text(R"SH(
declare -a args=(--rm "two words")
args+=(--network none)
args[1]="replaced"
declare -A m=([net]=host [user]="1000")
podman run "${args[@]}" "${args[*]}" ${m[net]} "${m[user]}" "${args[3]}"
)SH");
  const Invocation& p = only(r, "podman");
  CHECK(argv_text(p) ==
        "podman run --rm replaced --network none --rm replaced --network none host 1000 none");
  // Each element of "${args[@]}" keeps its own assignment site.
  const Word* net = find_word(p, "--network");
  REQUIRE(net != nullptr);
  CHECK(net->from.at.line == 3);
  CHECK(net->from.at.column == 8);
}

TEST_CASE("IFS=, read -r -a splits a known value and keeps an unknown one symbolic", "[bash]") {
  auto r = render_text(R"SH(
IFS=, read -r -a ports <<< "80,443"
echo "${ports[@]}"
IFS=, read -r -a hosts <<< "$ALLOW"
echo "${hosts[@]}"
)SH");
  REQUIRE(r.invocations.size() == 2);
  CHECK(argv_text(r.invocations[0]) == "echo 80 443");
  const Word& h = r.invocations[1].argv[1];
  CHECK(h.symbolic);
  CHECK(h.tainted);
  CHECK(h.origin == "env ALLOW split on ','");
}

TEST_CASE("functions: positional parameters, local, \"$@\" and call order", "[bash]") {
  auto r = render_text(R"SH(
NAME=global
launch() {
  local NAME="$1"
  shift
  podman run --name "$NAME" "$@"
}
launch first --rm img
launch second -d img
echo "$NAME"
)SH");
  REQUIRE(r.invocations.size() == 3);
  CHECK(argv_text(r.invocations[0]) == "podman run --name first --rm img");
  CHECK(argv_text(r.invocations[1]) == "podman run --name second -d img");
  CHECK(argv_text(r.invocations[2]) == "echo global");
  CHECK(r.invocations[0].sequence == 0);
  CHECK(r.invocations[1].sequence == 1);
  // "$@" inside the function points at the caller's words.
  CHECK(find_word(r.invocations[0], "--rm")->from.at.line == 8);
}

TEST_CASE("sudo, env, command and exec are unwrapped", "[bash]") {
  auto r = render_text(R"SH(
sudo -u root env HTTP_PROXY=http://proxy:3128 podman run --rm img
command docker run img2
exec nerdctl run img3
echo never
)SH");
  REQUIRE(r.invocations.size() == 3);
  const Invocation& a = r.invocations[0];
  CHECK(a.via_sudo);
  CHECK(argv_text(a) == "podman run --rm img");
  REQUIRE(a.env_prefix.size() == 1);
  CHECK(a.env_prefix[0].text == "HTTP_PROXY=http://proxy:3128");
  CHECK(argv_text(r.invocations[1]) == "docker run img2");
  CHECK(r.invocations[2].via_exec);
  CHECK(argv_text(r.invocations[2]) == "nerdctl run img3");
}

TEST_CASE("an engine named by a quoted variable: resolved, and unresolved kept symbolic",
          "[bash]") {
  auto r = render_text("ENGINE=docker\n\"$ENGINE\" run img\n\"$RUNTIME\" run img\n");
  REQUIRE(r.invocations.size() == 2);
  CHECK(r.invocations[0].argv[0].text == "docker");
  CHECK_FALSE(r.invocations[0].argv[0].symbolic);
  CHECK(r.invocations[1].argv[0].symbolic);
  CHECK(r.invocations[1].argv[0].origin == "env RUNTIME");
  CHECK(bash::is_container_launch(r.invocations[0]));
  CHECK(bash::is_container_launch(r.invocations[1]));
}

TEST_CASE("branches on the environment are conditional, the non-default one needs a switch",
          "[bash]") {
  auto r = render_text(R"SH(
args=(--rm)
if [[ "${AGENTBOX_NET:-gated}" == full ]]; then
  args+=(--network host)
elif [[ $AGENTBOX_NET == none ]]; then
  args+=(--network none)
else
  args+=(--network gated)
fi
[[ -n $DEBUG ]] && args+=(--log-level=debug)
podman run "${args[@]}" img
)SH");
  const Invocation& p = only(r, "podman");
  CHECK(p.from.condition().always());
  const Word* host = find_word(p, "host");
  REQUIRE(host != nullptr);
  CHECK(host->from.condition().text == "when AGENTBOX_NET=full");
  CHECK(host->from.condition().needs_switch);
  const Word* gated = find_word(p, "gated");
  REQUIRE(gated != nullptr);
  CHECK_FALSE(gated->from.condition().needs_switch);
  CHECK(gated->from.condition().text.find("AGENTBOX_NET!=full") != std::string::npos);
  const Word* dbg = find_word(p, "--log-level=debug");
  REQUIRE(dbg != nullptr);
  CHECK(dbg->from.condition().text == "when DEBUG is set");
  CHECK(dbg->from.condition().needs_switch);
}

TEST_CASE("a scalar with a value per path renders one variant per value", "[bash]") {
  auto r = render_text(R"SH(
if [[ "${AGENTBOX_NET:-gated}" == full ]]; then NET=host; else NET=none; fi
podman run --rm --network "$NET" img
)SH");
  REQUIRE(r.invocations.size() == 2);
  CHECK(argv_text(r.invocations[0]) == "podman run --rm --network none img");
  CHECK_FALSE(r.invocations[0].from.condition().needs_switch);
  CHECK(argv_text(r.invocations[1]) == "podman run --rm --network host img");
  CHECK(r.invocations[1].from.condition().text == "when AGENTBOX_NET=full");
  CHECK(r.invocations[1].from.condition().needs_switch);
  CHECK(find_word(r.invocations[1], "host")->from.at.column == 27);
}

TEST_CASE("decided conditions take one branch only", "[bash]") {
  auto r = render_text(R"SH(
MODE=strict
if [ "$MODE" = strict ]; then podman run --read-only img; else podman run img; fi
case "$MODE" in
  lax) echo lax ;;
  str*) echo strict ;;
esac
)SH");
  REQUIRE(r.invocations.size() == 2);
  CHECK(argv_text(r.invocations[0]) == "podman run --read-only img");
  CHECK(r.invocations[0].from.condition().always());
  CHECK(argv_text(r.invocations[1]) == "echo strict");
}

TEST_CASE("case on an unknown value: every item is a path", "[bash]") {
  auto r = render_text(R"SH(
case "${PROFILE:-safe}" in
  safe) podman run --network none img ;;
  open) podman run --network host img ;;
esac
)SH");
  REQUIRE(r.invocations.size() == 2);
  CHECK(r.invocations[0].from.condition().text == "when PROFILE matches safe");
  CHECK_FALSE(r.invocations[0].from.condition().needs_switch);
  CHECK(r.invocations[1].from.condition().text == "when PROFILE matches open");
  CHECK(r.invocations[1].from.condition().needs_switch);
}

TEST_CASE("for over literal lists and arrays, while with an arithmetic bound", "[bash]") {
  auto r = render_text(R"SH(
hosts=(a.example b.example)
for h in "${hosts[@]}" c.example; do echo "$h"; done
i=0
while (( i < 3 )); do echo "n$i"; i=$((i+1)); done
)SH");
  std::vector<std::string> got;
  for (const auto& inv : r.invocations) got.push_back(argv_text(inv));
  CHECK(got == std::vector<std::string>{"echo a.example", "echo b.example", "echo c.example",
                                        "echo n0", "echo n1", "echo n2"});
}

TEST_CASE("heredocs: unquoted expand, quoted do not, <<- strips tabs", "[bash]") {
  auto r = render_text(
      "PORT=443\nnft -f - <<EOF\ntcp dport $PORT accept\nEOF\ncat <<'RAW'\n$PORT\nRAW\ncat "
      "<<-T\n\t\tindented $PORT\n\tT\n");
  REQUIRE(r.invocations.size() == 3);
  CHECK(r.invocations[0].stdin_text == "tcp dport 443 accept\n");
  CHECK(r.invocations[0].stdin_from.at.line == 3);
  CHECK(r.invocations[1].stdin_text == "$PORT\n");
  CHECK(r.invocations[2].stdin_text == "indented 443\n");
}

TEST_CASE("bash -c strings and eval are rendered again", "[bash]") {
  auto r =
      render_text("NET=none\nbash -c \"podman run --network $NET img\"\neval 'docker run img2'\n");
  const Invocation* p = find_invocation(r, "podman");
  REQUIRE(p != nullptr);
  CHECK(argv_text(*p) == "podman run --network none img");
  CHECK(p->from.at.line == 2);
  REQUIRE(find_invocation(r, "docker") != nullptr);
}

TEST_CASE("shell state at each command: set -e, set +e regions, suppressed contexts", "[bash]") {
  auto r = render_text(R"SH(
set -euo pipefail
podman run a
set +e
podman run b
set -e
start() { podman run c; }
start || true
if podman run d; then :; fi
trap 'podman rm -f x' EXIT
podman run e
)SH");
  REQUIRE(r.invocations.size() == 5);
  CHECK(r.invocations[0].shell.errexit);
  CHECK(r.invocations[0].shell.pipefail);
  CHECK(r.invocations[0].shell.nounset);
  CHECK_FALSE(r.invocations[0].shell.errexit_suppressed);
  CHECK_FALSE(r.invocations[1].shell.errexit);
  CHECK(r.invocations[2].shell.errexit);
  CHECK(r.invocations[2].shell.errexit_suppressed);  // function called from ||
  CHECK(r.invocations[3].shell.errexit_suppressed);  // if condition
  CHECK(r.invocations[4].shell.exit_traps == std::vector<std::string>{"podman rm -f x"});
}

TEST_CASE("source follows files inside the root only", "[bash]") {
  std::string dir = test::source_dir() + "/fixtures/launchers/agentbox";
  Config cfg;
  AnalyzeOptions ao;
  Analysis a = analyze({dir}, cfg, ao);
  const ScriptFacts* run = nullptr;
  for (const auto& s : a.model.scripts) {
    if (a.model.files.path(s.file) == "run-agent.sh") run = &s;
  }
  REQUIRE(run != nullptr);
  const Invocation* p = nullptr;
  for (const auto& inv : run->invocations) {
    if (bash::is_container_launch(inv)) p = &inv;
  }
  REQUIRE(p != nullptr);
  CHECK(argv_text(*p).rfind("podman run --rm --cap-drop=ALL --security-opt=no-new-privileges", 0) ==
        0);
  // Flags come from functions in the sourced library, at their own lines there.
  const Word* host = find_word(*p, "host");
  REQUIRE(host != nullptr);
  CHECK(a.model.files.path(host->from.at.file) == "lib/agentbox-common.sh");
  CHECK(host->from.at.line == 15);
  CHECK(host->from.condition().text == "when AGENTBOX_NET=full");
  CHECK(host->from.condition().needs_switch);
  const Word* p_flag = find_word(*p, "-p");
  REQUIRE(p_flag != nullptr);
  CHECK(a.model.files.path(p_flag->from.at.file) == "run-agent.sh");
  CHECK(p_flag->from.at.line == 22);

  auto outside = render_text("source /etc/profile\nsource ../../outside.sh\npodman run img\n");
  CHECK(outside.invocations.size() == 1);
}

TEST_CASE("malformed bash is a located ParseError and the rest is still rendered", "[bash]") {
  auto r = render_text("podman run --rm first\nfoo )\npodman run --rm last\n");
  REQUIRE(r.problems.size() == 1);
  CHECK(r.problems[0].kind == ProblemKind::ParseError);
  CHECK(r.problems[0].at.line == 2);
  CHECK(r.problems[0].at.column == 5);
  CHECK(find_invocation(r, "podman") != nullptr);
  bool last = false;
  for (const auto& inv : r.invocations) last = last || argv_text(inv) == "podman run --rm last";
  CHECK(last);
}

// Budgets are counted in work, not time (a timed assertion fails on a loaded machine and says
// nothing the bounds do not): each hostile input must stop at its bound with a finding.
TEST_CASE("budgets: endless loops, fork bombs and huge expansions stop at their bounds", "[bash]") {
  auto loop = render_text("while true; do echo tick; done\npodman run img\n");
  REQUIRE(loop.problems.size() == 1);
  // A bound of one path: the loop is cut, the script goes on (SB0019).
  CHECK(loop.problems[0].kind == ProblemKind::PathCut);
  CHECK(loop.problems[0].at.line == 1);
  CHECK(find_invocation(loop, "podman") != nullptr);

  auto bomb = render_text("f(){ f|f& }; f\n");
  REQUIRE_FALSE(bomb.problems.empty());
  for (const auto& p : bomb.problems) {
    CHECK((p.kind == ProblemKind::BudgetExceeded || p.kind == ProblemKind::PathCut));
    CHECK(p.at.line == 1);
  }
  // Plain deep recursion stops at the depth limit and the script goes on.
  auto deep = render_text("walk() { walk \"$1/x\"; }\nwalk /\npodman run img\n");
  REQUIRE(deep.problems.size() == 1);
  CHECK(deep.problems[0].message.find("nested deeper") != std::string::npos);
  CHECK(find_invocation(deep, "podman") != nullptr);

  std::string big =
      "x=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\nfor i in $(seq 1 40) 1 2 3 4 5 6 7 8 9 10 11 12 13 14 "
      "15 16 17 18 19 20 21 22 23 24 25; do x=\"$x$x\"; done\npodman run \"$x\"\n";
  auto huge = render_text(big);
  REQUIRE(huge.problems.size() == 1);
  CHECK(huge.problems[0].kind == ProblemKind::BudgetExceeded);
  CHECK(huge.problems[0].message.find("bytes") != std::string::npos);

  // A 1 MB script of expansions.
  std::string mb;
  while (mb.size() < (1u << 20)) mb += "v=\"${v}${HOME}${PWD}x\"\n";
  auto wide = render_text(mb);
  REQUIRE_FALSE(wide.problems.empty());
  CHECK(wide.problems.back().kind == ProblemKind::BudgetExceeded);
}

TEST_CASE("truncated and mangled launchers never crash the renderer", "[bash]") {
  std::string dir = test::source_dir() + "/fixtures/launchers/";
  for (const char* f : {"agentbox/run-agent.sh", "agentbox/lib/agentbox-common.sh",
                        "agentbox-validated/run-agent.sh", "iptables-allowlist/gate.sh"}) {
    std::ifstream in(dir + f);
    std::stringstream ss;
    ss << in.rdbuf();
    std::string text = ss.str();
    REQUIRE_FALSE(text.empty());
    for (size_t cut = 0; cut < text.size(); cut += 23) {
      CHECK_NOTHROW(render_text(text.substr(0, cut)));
      std::string mangled = text;
      mangled.insert(cut, cut % 2 ? "$(" : "<<EOF\n");
      CHECK_NOTHROW(render_text(mangled));
    }
  }
}

TEST_CASE("a test of an indirect expansion names the variable and not the syntax", "[bash]") {
  // claudo forwards each credential the user has set: the condition reads as words.
  auto r = render_text(R"(#!/bin/bash
args=()
for var in ANTHROPIC_API_KEY OPENAI_API_KEY; do
  if [ -n "${!var:-}" ]; then
    args+=(-e "$var")
  fi
done
podman run --rm "${args[@]}" agent:1
)");
  const Invocation& p = only(r, "podman");
  const Word* key = find_word(p, "ANTHROPIC_API_KEY");
  REQUIRE(key != nullptr);
  CHECK(key->from.condition().text.find("the variable named by `var` is set") != std::string::npos);
  CHECK(key->from.condition().text.find("${") == std::string::npos);
}

}  // namespace bash_render_test
