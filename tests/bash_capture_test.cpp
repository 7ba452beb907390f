// Function output as words (render/bash/capture.cpp): what echo/printf print inside `$(...)` and
// `<(...)` becomes the substitution's value, with the printing statement in the word's chain.
#include <catch2/catch.hpp>

#include <string>

#include "tests/bash_helpers.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace bash_capture_test {

using namespace sbr;

namespace {

std::string launch_of(const std::string& script, const std::string& image) {
  auto r = sbr::test::render_text(script);
  for (const auto& inv : r.invocations) {
    if (!inv.argv.empty() && inv.argv.back().text == image) return sbr::test::argv_text(inv);
  }
  return "(no launch of " + image + ")";
}

}  // namespace

TEST_CASE("$(fn) splits what the function prints into words", "[bash-capture]") {
  std::string s =
      "flags() {\n  echo --cap-drop=ALL\n  printf '%s\\n' --user 1000 --read-only\n}\n"
      "podman run $(flags) img\n";
  CHECK(launch_of(s, "img") == "podman run --cap-drop=ALL --user 1000 --read-only img");
}

TEST_CASE("a printed word's chain names the statement that printed it", "[bash-capture]") {
  auto r = sbr::test::render_text(
      "f() {\n  echo --privileged\n}\nx=($(f))\npodman run \"${x[@]}\" img\n");
  const sbr::Invocation* inv = sbr::test::find_invocation(r, "podman");
  REQUIRE(inv != nullptr);
  const sbr::Word* w = sbr::test::find_word(*inv, "--privileged");
  REQUIRE(w != nullptr);
  bool printed_at_2 = false;
  for (const auto& step : w->from.via())
    printed_at_2 = printed_at_2 || (step.role == sbr::StepRole::Output && step.at.line == 2);
  CHECK(printed_at_2);
}

TEST_CASE(
    "a quoted function capture is one word, mapfile from a process substitution one element per "
    "line",
    "[bash-capture]") {
  CHECK(launch_of("n() { echo agent one; }\npodman run --name \"$(n)\" img\n", "img") ==
        "podman run --name agent one img");
  std::string m =
      "opts() { printf -- '--network\\nnone\\n'; echo --rm; }\n"
      "mapfile -t O < <(opts)\npodman run \"${O[@]}\" img\n";
  CHECK(launch_of(m, "img") == "podman run --network none --rm img");
}

TEST_CASE("output stays unknown when anything but echo/printf writes it", "[bash-capture]") {
  // `cat` prints a file the analyser does not read: the substitution is symbolic, not "".
  auto r = sbr::test::render_text("f() { echo --rm; cat /etc/flags; }\npodman run $(f) img\n");
  const sbr::Invocation* inv = nullptr;
  for (const auto& i : r.invocations)
    if (!i.argv.empty() && i.argv[0].text == "podman") inv = &i;
  REQUIRE(inv != nullptr);
  REQUIRE(inv->argv.size() == 4);
  CHECK(inv->argv[2].symbolic);
  // What goes to stderr or a file is not part of the output.
  CHECK(launch_of("f() { echo 'starting' >&2; echo --rm; echo x >/tmp/log; }\n"
                  "podman run $(f) img\n",
                  "img") == "podman run --rm img");
}

TEST_CASE("printf reuses its format while arguments remain", "[bash-capture]") {
  CHECK(launch_of("podman run $(printf -- '-e %s=1 ' A B) img\n", "img") ==
        "podman run -e A=1 -e B=1 img");
}

TEST_CASE("while read over a known input runs once per line", "[bash-capture]") {
  auto r = test::render_text(
      "flags() {\n  echo --cap-drop=ALL\n  printf '%s\\n' --read-only\n}\nargs=()\n"
      "while IFS= read -r f; do\n  args+=(\"$f\")\ndone < <(flags)\n"
      "while read -r opt value; do args+=(\"$opt\" \"$value\"); done <<'EOF'\n"
      "  --pids-limit   256  \n--memory 2g\nEOF\n"
      "podman run --rm \"${args[@]}\" img\n");
  const Invocation* p = test::find_invocation(r, "podman");
  REQUIRE(p != nullptr);
  CHECK(test::argv_text(*p) ==
        "podman run --rm --cap-drop=ALL --read-only --pids-limit 256 --memory 2g img");
  for (const Word& w : p->argv) CHECK_FALSE(w.symbolic);
}

TEST_CASE("read splits a known line as bash does, and an unknown input stays unknown",
          "[bash-capture]") {
  auto r = test::render_text(
      "read -r a b rest <<< \"x  y z  w \"\nIFS= read -r whole <<< \"  keep  \"\n"
      "podman run \"$a\" \"$b\" \"$rest\" \"$whole\" img\n"
      "while read -r f; do podman run \"$f\" img2; done < \"$FLAGS_FILE\"\n");
  const Invocation* p = test::find_invocation(r, "podman");
  REQUIRE(p != nullptr);
  REQUIRE(p->argv.size() == 7);
  CHECK(p->argv[2].text == "x");
  CHECK(p->argv[3].text == "y");
  CHECK(p->argv[4].text == "z  w");
  CHECK(p->argv[5].text == "  keep  ");
  const Invocation* q = nullptr;
  for (const auto& inv : r.invocations)
    if (test::argv_text(inv).find("img2") != std::string::npos) q = &inv;
  REQUIRE(q != nullptr);
  CHECK(q->argv[2].symbolic);
  CHECK(q->argv[2].tainted);
}

TEST_CASE("a read loop over a long input stops at the loop bound", "[bash-capture]") {
  std::string s = "while read -r n; do podman run \"img$n\"; done <<EOF\n";
  for (int i = 0; i < 100; ++i) s += std::to_string(i) + "\n";
  s += "EOF\n";
  auto r = test::render_text(s);
  REQUIRE(r.problems.size() == 1);
  CHECK(r.problems[0].kind == ProblemKind::PathCut);  // the loop, not the script
  CHECK(r.invocations.size() == 64);
}

}  // namespace bash_capture_test
