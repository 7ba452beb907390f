#include "analyzer/support/run_budget.h"

#include <fmt/format.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>

namespace sbr {
namespace {

std::atomic<const RunBudget*> current{nullptr};

// The resident set in bytes, from /proc/self/statm (its second field, in pages); 0 where there
// is no /proc.
std::uint64_t resident_bytes() {
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (f == nullptr) return 0;
  unsigned long long size = 0, resident = 0;
  int read = std::fscanf(f, "%llu %llu", &size, &resident);
  std::fclose(f);
  if (read != 2) return 0;
  return resident * static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
}

}  // namespace

RunBudget::RunBudget(std::uint32_t seconds, std::uint32_t megabytes)
    : seconds_(seconds),
      megabytes_(megabytes),
      deadline_(std::chrono::steady_clock::now() + std::chrono::seconds(seconds)) {}

std::optional<std::string> RunBudget::exceeded() const {
  if (seconds_ != 0 && std::chrono::steady_clock::now() > deadline_) {
    return fmt::format("the run reached its wall-clock limit of {} s (limits.wall_clock_seconds)",
                       seconds_);
  }
  if (megabytes_ != 0 && resident_bytes() > (std::uint64_t{megabytes_} << 20)) {
    return fmt::format("the run reached its memory limit of {} MB (limits.memory_megabytes)",
                       megabytes_);
  }
  return std::nullopt;
}

RunBudgetScope::RunBudgetScope(const RunBudget& budget) : previous_(current.exchange(&budget)) {}

RunBudgetScope::~RunBudgetScope() {
  current.store(previous_);
}

std::optional<std::string> run_budget_exceeded() {
  const RunBudget* b = current.load();
  return b ? b->exceeded() : std::nullopt;
}

}  // namespace sbr
