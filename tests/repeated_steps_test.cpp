// One finding per rule for a file's helper steps and test containers
// (analyzer/check/repeated_steps.h): the launches of one test file with the same gap are one
// finding whose related locations name the others.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "analyzer/check/repeated_steps.h"
#include "generated/rule_ids.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace repeated_steps_test {

using namespace sbr;

Finding launch(std::uint32_t line, RepeatedStep step, Severity s = Severity::Low, FileId file = 0) {
  Finding f;
  f.rule_id = rule::no_memory_limit;
  f.label =
      "launcher tests/integration/test-sync.sh (docker run at line " + std::to_string(line) + ")";
  f.subject = f.label;
  f.at = Location{file, line, 3};
  f.severity = s;
  f.step = step;
  f.message = f.label.str() + " has no memory limit (--memory)";
  f.fingerprint = "fp" + std::to_string(line);
  return f;
}

TEST_CASE("a test file's launches with one gap are one finding naming the others", "[group]") {
  std::vector<Finding> fs{launch(40, RepeatedStep::Test), launch(95, RepeatedStep::Test),
                          launch(130, RepeatedStep::Test)};
  fold_repeated_steps(fs);
  REQUIRE(fs.size() == 1);
  CHECK(fs[0].fingerprint == "fp40");
  REQUIRE(fs[0].related.size() == 2);
  CHECK(fs[0].related[0].at.line == 95);
  CHECK(fs[0].related[1].message ==
        "the same for launcher tests/integration/test-sync.sh (docker run at line 130)");
  REQUIRE(fs[0].shared_with.size() == 2);
  CHECK(fs[0].shared_with[1].fingerprint == "fp130");
  CHECK(fs[0].message.str().ends_with(
      "(the same in 2 more test launches of this file, at lines 95, 130)"));
}

TEST_CASE("launches judged apart stay apart", "[group]") {
  // The product's own launch, another severity, another file, an accepted finding, and a helper
  // step beside a test launch are each their own finding.
  Finding accepted = launch(60, RepeatedStep::Test);
  accepted.accepted_reason = "the suite runs on a throwaway runner";
  std::vector<Finding> fs{launch(10, RepeatedStep::None),
                          launch(11, RepeatedStep::None),
                          launch(20, RepeatedStep::Test),
                          launch(30, RepeatedStep::Test, Severity::Medium),
                          launch(40, RepeatedStep::Test, Severity::Low, 1),
                          launch(50, RepeatedStep::Helper),
                          std::move(accepted)};
  fold_repeated_steps(fs);
  CHECK(fs.size() == 7);
  for (const Finding& f : fs) CHECK(f.related.empty());
}

}  // namespace repeated_steps_test
