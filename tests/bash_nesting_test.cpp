// Hostile nesting: every recursive walk of the evaluator (statements, words, conditions,
// arithmetic) is bounded by RenderLimits::max_nesting, so a file nested thousands deep ends in
// a budget problem at its place instead of a stack overflow, and what came before is kept.
#include <fmt/format.h>
#include <catch2/catch.hpp>

#include <string>

#include "tests/bash_helpers.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace bash_nesting_test {

namespace {

std::string repeat(const std::string& s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

struct Nesting {
  const char* name;
  std::string (*make)(int depth);
};

// Each wraps `docker run inner` in `depth` levels of one syntax form.
const Nesting kForms[] = {
    {"command substitution",
     [](int d) { return "echo " + repeat("$(echo ", d) + "x" + repeat(")", d) + "\n"; }},
    {"if",
     [](int d) { return repeat("if true; then\n", d) + "docker run inner\n" + repeat("fi\n", d); }},
    {"subshell",
     [](int d) { return repeat("( ", d) + "docker run inner" + repeat(" )", d) + "\n"; }},
    {"brace group",
     [](int d) { return repeat("{ ", d) + "docker run inner; " + repeat("}; ", d) + "\n"; }},
    {"case",
     [](int d) {
       return repeat("case a in a) ", d) + "docker run inner ;; " + repeat("esac; ", d);
     }},
    {"arithmetic",
     [](int d) {
       return "n=$((" + repeat("(", d) + "1" + repeat(")", d) + "))\ndocker run inner\n";
     }},
    {"[[ ]] grouping",
     [](int d) {
       return "if [[ " + repeat("( ", d) + "-n x" + repeat(" )", d) +
              " ]]; then docker run inner; fi\n";
     }},
    {"parameter default",
     [](int d) {
       return "x=\"" + repeat("${a:-", d) + "v" + repeat("}", d) + "\"\ndocker run inner\n";
     }},
    // Flat in the source, but each elif is evaluated inside the one before it.
    {"elif chain",
     [](int d) {
       return "if [ \"$1\" = a ]; then :\n" + repeat("elif [ \"$1\" = b ]; then :\n", d) +
              "else docker run inner\nfi\n";
     }},
};

bool has_nesting_problem(const sbr::bash::ScriptRender& r) {
  for (const auto& p : r.problems) {
    if (p.kind == sbr::ProblemKind::BudgetExceeded &&
        p.message.find("nested more than") != std::string::npos && p.at.line >= 2)
      return true;
  }
  return false;
}

}  // namespace

TEST_CASE("thousands of nesting levels end in a budget problem, and the launch before is kept",
          "[bash-nesting]") {
  for (const Nesting& form : kForms) {
    INFO(form.name);
    std::string text = "docker run --privileged before\n" + form.make(3000);
    auto r = sbr::test::render_text(text);
    CHECK(has_nesting_problem(r));
    const sbr::Invocation* before = sbr::test::find_invocation(r, "docker");
    REQUIRE(before != nullptr);
    CHECK(sbr::test::find_word(*before, "before") != nullptr);
  }
}

TEST_CASE("nesting a real script would use renders whole, with no budget problem",
          "[bash-nesting]") {
  for (const Nesting& form : kForms) {
    INFO(form.name);
    auto r = sbr::test::render_text(form.make(20));
    CHECK_FALSE(has_nesting_problem(r));
    if (std::string(form.name) == "command substitution") continue;  // it has no launch
    bool inner = false;
    for (const auto& inv : r.invocations) inner = inner || sbr::test::find_word(inv, "inner");
    CHECK(inner);
  }
}

TEST_CASE("the nesting bound is the configured one", "[bash-nesting]") {
  sbr::bash::RenderLimits limits;
  limits.max_nesting = 12;
  auto shallow = sbr::test::render_text(kForms[1].make(3), "launch.sh", nullptr, limits);
  CHECK_FALSE(has_nesting_problem(shallow));
  auto deep = sbr::test::render_text(kForms[1].make(30), "launch.sh", nullptr, limits);
  CHECK(has_nesting_problem(deep));
}

TEST_CASE("regex tests are decided by RE2 in linear time, globs by fnmatch", "[bash-nesting]") {
  // A pattern that backtracks exponentially in a recursive matcher, on a long subject.
  std::string script = "x=" + repeat("a", 5000) + "b\n" +
                       "if [[ $x =~ ^(a+)+$ ]]; then docker run matched; else docker run "
                       "unmatched; fi\n"
                       "case_ok=yes\n"
                       "if [[ agent-1.sh != agent-*.sh ]]; then docker run globwrong; fi\n"
                       "if [[ agent-1.sh == agent-[0-9].sh ]]; then docker run globright; fi\n";
  auto r = sbr::test::render_text(script);
  std::string words;
  for (const auto& inv : r.invocations) words += sbr::test::argv_text(inv) + "\n";
  CHECK(words == "docker run unmatched\ndocker run globright\n");
}

TEST_CASE("an elif chain far past the bound ends in a budget problem, not a crash",
          "[bash-nesting]") {
  // 20,000 elifs overflowed the stack when each elif recursed without a nesting level.
  auto r = sbr::test::render_text(kForms[8].make(20000));
  CHECK(has_nesting_problem(r));
}

}  // namespace bash_nesting_test
