// The run's budgets after every file is read (analyzer/pipeline/late_budget.h): a step not taken
// fails closed and says so at the files it would have narrowed.
#include <catch2/catch.hpp>

#include <string>

#include "analyzer/check/catalog.h"
#include "analyzer/check/runner.h"
#include "analyzer/config/config.h"
#include "analyzer/pipeline/analysis.h"
#include "analyzer/pipeline/late_budget.h"
#include "analyzer/source/memory_tree.h"

// Each test file in its own namespace: the test binary is built in unity batches.
namespace late_budget_test {

using namespace sbr;

namespace {

constexpr const char* kWhy =
    "the run reached its wall-clock limit of 5 s (limits.wall_clock_seconds)";

const Workload& service(const Model& m, const std::string& container) {
  for (const Workload& w : m.workloads) {
    if (w.id.container == container) return w;
  }
  FAIL("no workload " << container);
  return m.workloads.front();
}

// Findings of `rule` at `path`.
std::vector<const Finding*> at(const Model& m, const std::vector<Finding>& fs, std::string rule,
                               const std::string& path) {
  std::vector<const Finding*> out;
  for (const Finding& f : fs) {
    if (f.rule_id == rule && m.files.path(f.at.file) == path) out.push_back(&f);
  }
  return out;
}

MemoryTree stack() {
  MemoryTree t;
  t.add_file("compose.yaml",
             "services:\n"
             "  agent:\n"
             "    image: ghcr.io/example/agent:1\n"
             "    command: [\"claude\", \"--dangerously-skip-permissions\"]\n"
             "  db:\n"
             "    image: postgres:16\n"
             "    environment:\n"
             "      POSTGRES_PASSWORD: example\n");
  t.add_file("README.md", "# Stack\n\nThe agent runs with no network.\n");
  return t;
}

}  // namespace

TEST_CASE("past the budget a workload's class is not inferred: untrusted code, said per file",
          "[late-budget]") {
  Analysis a = analyze(stack(), Config{}, {});
  REQUIRE(service(a.model, "db").threat == ThreatClass::UntrustedInput);  // a well-known database
  const std::size_t problems = a.model.problems.size();

  threats_not_inferred(a.model, kWhy);
  CHECK(service(a.model, "db").threat == ThreatClass::UntrustedCode);
  CHECK(service(a.model, "agent").threat == ThreatClass::UntrustedCode);
  REQUIRE(a.model.problems.size() == problems + 1);  // one file holds both services
  const Problem& p = a.model.problems.back();
  CHECK(p.kind == ProblemKind::BudgetExceeded);
  CHECK(a.model.files.path(p.at.file) == "compose.yaml");
  CHECK(p.message ==
        "threat classes not inferred: the run reached its wall-clock limit of 5 s "
        "(limits.wall_clock_seconds) before that step; the 2 workloads of this file are judged "
        "as running untrusted code");
}

TEST_CASE("past the budget a document's claims are not linked: none judged, an SB0007 each",
          "[late-budget]") {
  Analysis a = analyze(stack(), Config{}, {});
  std::vector<Finding> before = run_checks(a.model, Catalog::embedded(), Config{}, {"2026-01-01"});
  // The claim is judged when the document is linked (the compose agent has a network).
  REQUIRE_FALSE(at(a.model, before, "SB5100", "README.md").empty());
  REQUIRE(at(a.model, before, "SB0007", "README.md").empty());

  documents_not_linked(a.model, kWhy);
  std::vector<Finding> after = run_checks(a.model, Catalog::embedded(), Config{}, {"2026-01-01"});
  CHECK(at(a.model, after, "SB5100", "README.md").empty());
  auto cut = at(a.model, after, "SB0007", "README.md");
  REQUIRE(cut.size() == 1);
  CHECK(cut[0]->message.find("the document's 1 claim is not checked: the run reached its "
                             "wall-clock limit of 5 s") != std::string::npos);
}

}  // namespace late_budget_test
