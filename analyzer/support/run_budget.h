// The budgets of a whole run (`limits.wall_clock_seconds`, `limits.memory_megabytes`;
// docs/robustness.md, "Budgets"). The engines' own budgets count steps and bytes, so that a
// budget met is met on every machine alike; these two are the last resort for what no count
// foresaw, and are checked where work is cut without losing the rest of the run: between files
// and render roots, and every few thousand steps of the chart engine and the bash evaluator.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

namespace sbr {

class RunBudget {
 public:
  // 0 switches a budget off.
  RunBudget(std::uint32_t seconds, std::uint32_t megabytes);

  // Why the run is past a budget ("the run reached its wall-clock limit of 120 s
  // (limits.wall_clock_seconds)"), or nothing. Reads the clock and the resident set.
  std::optional<std::string> exceeded() const;

 private:
  std::uint32_t seconds_, megabytes_;
  std::chrono::steady_clock::time_point deadline_;
};

// The budget of the analysis running on this process, for the engines deep inside it: set for
// the length of a scope (one analysis; `diff` runs two in turn), null outside one.
class RunBudgetScope {
 public:
  explicit RunBudgetScope(const RunBudget& budget);
  ~RunBudgetScope();
  RunBudgetScope(const RunBudgetScope&) = delete;
  RunBudgetScope& operator=(const RunBudgetScope&) = delete;

 private:
  const RunBudget* previous_;
};

// Steps of an engine between two looks at the budget (a look reads /proc: about 10 us).
inline constexpr std::uint32_t kStepsPerRunCheck = 1u << 14;

// The current scope's verdict: nothing when no scope is open or no budget is met.
std::optional<std::string> run_budget_exceeded();

}  // namespace sbr
