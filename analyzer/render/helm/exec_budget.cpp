// The chart engine's budgets (exec.h, docs/robustness.md "The chart engine's budgets"): steps,
// output, what functions build, and the run's own wall clock and memory.
#include <fmt/format.h>

#include "analyzer/render/helm/exec.h"
#include "analyzer/support/run_budget.h"

namespace sbr::render::helm {

void Exec::step(const Location& at) {
  if (++steps_ > kMaxSteps)
    throw RenderError(
        fmt::format("template runs more than {} steps (a loop that does not end?)", kMaxSteps), at);
  if (steps_ % kStepsPerRunCheck == 0) {
    if (auto why = run_budget_exceeded()) throw RenderError(*why, at);
  }
}

void Exec::check_output(const Location& at) const {
  if (out_->text.size() > kMaxOutput) {
    throw RenderError(fmt::format("template output exceeds {} MiB, sbreview's budget for one "
                                  "template file",
                                  kMaxOutput >> 20),
                      at);
  }
  if (out_->spans.size() > kMaxOutputLines) {
    throw RenderError(fmt::format("template output exceeds {} lines, sbreview's budget for one "
                                  "template file",
                                  kMaxOutputLines),
                      at);
  }
}

void Exec::charge(std::uint64_t bytes, const char* what, const Location& at) {
  if (bytes > kMaxValueBytes) {
    throw RenderError(fmt::format("{} would build {} bytes, past sbreview's budget of {} MiB for "
                                  "one value",
                                  what, bytes, kMaxValueBytes >> 20),
                      at);
  }
  built_ += bytes;
  if (built_ > kMaxBuiltBytes) {
    throw RenderError(fmt::format("the template's functions built more than {} MiB, sbreview's "
                                  "budget for one template file (at {})",
                                  kMaxBuiltBytes >> 20, what),
                      at);
  }
}

// What any function returned counts, whether or not it checked before building.
void Exec::charge_result(const std::string& name, const Value& r, const Location& at) {
  if (r.is_string()) charge(r.s.size(), name.c_str(), at);
  if (!r.is_list()) return;
  if (r.list->size() > kMaxListItems) {
    throw RenderError(fmt::format("{} built a list of {} items, past sbreview's budget of {}", name,
                                  r.list->size(), kMaxListItems),
                      at);
  }
  charge(r.list->size() * kElementBytes, name.c_str(), at);
}

}  // namespace sbr::render::helm
