// The run's last-resort budgets: what they answer, and that the engines deep inside a run see
// the budget of the analysis that opened the scope.
#include <catch2/catch.hpp>

#include "analyzer/support/run_budget.h"

TEST_CASE("a run budget names the limit it met", "[run-budget]") {
  CHECK_FALSE(sbr::RunBudget(0, 0).exceeded());           // both off
  CHECK_FALSE(sbr::RunBudget(3600, 1 << 20).exceeded());  // an hour, a terabyte
  auto memory = sbr::RunBudget(0, 1).exceeded();          // this test binary holds more than 1 MB
  REQUIRE(memory);
  CHECK(memory->find("memory limit of 1 MB (limits.memory_megabytes)") != std::string::npos);
}

TEST_CASE("the budget in force is the innermost open scope's", "[run-budget]") {
  CHECK_FALSE(sbr::run_budget_exceeded());  // no analysis running
  sbr::RunBudget generous(3600, 0), tight(0, 1);
  {
    sbr::RunBudgetScope outer(generous);
    CHECK_FALSE(sbr::run_budget_exceeded());
    {
      sbr::RunBudgetScope inner(tight);
      CHECK(sbr::run_budget_exceeded());
    }
    CHECK_FALSE(sbr::run_budget_exceeded());
  }
  CHECK_FALSE(sbr::run_budget_exceeded());
}
