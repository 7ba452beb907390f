// Invariant 0: every problem the pipeline meets becomes a located finding of its own rule, high
// by default and adjustable only through the configuration's `integrity` map.
#include <catch2/catch.hpp>

#include "analyzer/check/catalog.h"
#include "analyzer/check/runner.h"
#include "invariants/modules.h"
#include "tests/inv_test_support.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace inv0_test {

using namespace sbr;

namespace {

const std::pair<ProblemKind, const char*> kKinds[] = {
    {ProblemKind::ParseError, "SB0001"},        {ProblemKind::Unreadable, "SB0002"},
    {ProblemKind::SymlinkOutside, "SB0003"},    {ProblemKind::TooLarge, "SB0004"},
    {ProblemKind::InvalidObject, "SB0005"},     {ProblemKind::DuplicateKey, "SB0006"},
    {ProblemKind::BudgetExceeded, "SB0007"},    {ProblemKind::SpecialFile, "SB0008"},
    {ProblemKind::BadAcceptance, "SB0009"},     {ProblemKind::ExpiredAcceptance, "SB0010"},
    {ProblemKind::RenderFailed, "SB0011"},      {ProblemKind::SourceUnresolved, "SB0012"},
    {ProblemKind::ArgvPartlyUnknown, "SB0013"}, {ProblemKind::ParseRecovered, "SB0018"},
};

}  // namespace

TEST_CASE("each problem kind maps to its SB0 rule at the problem's location", "[inv0]") {
  Model m;
  m.files.add("deploy/a.yaml");
  std::uint32_t line = 1;
  for (auto [kind, id] : kKinds)
    m.problems.push_back({kind, std::string("why ") + id, {0, line++, 2}});
  Findings out;
  test::integrity(m, out);
  REQUIRE(out.items().size() == std::size(kKinds));
  for (size_t i = 0; i < std::size(kKinds); ++i) {
    const Finding& f = out.items()[i];
    INFO(kKinds[i].second);
    CHECK(f.rule_id == kKinds[i].second);
    CHECK(f.message == std::string("why ") + kKinds[i].second);
    CHECK(f.at == Location{0, static_cast<std::uint32_t>(i + 1), 2});
    CHECK(f.subject == "deploy/a.yaml");
    CHECK(f.fact_path == std::string(kKinds[i].second) + "#0");  // never the line
  }
}

TEST_CASE("catalogued integrity rules are high by default, the configuration can change them",
          "[inv0]") {
  const Catalog& c = Catalog::embedded();
  for (auto [kind, id] : kKinds) {
    const Rule* r = c.find(id);
    INFO(id);
    REQUIRE(r != nullptr);  // a problem without a catalog entry would be dropped silently
    CHECK(r->invariant == 0);
    // A `source` that cannot be followed (SB0012, a note) is a partial analysis, not an unread
    // file. A launch word left open where an option goes (SB0013) is high: whoever sets it can
    // add `--privileged`, and the gate fails closed at its default `--fail-on high`. A construct
    // read with part of it neutralised (SB0018) is low: the rest of the script was analysed,
    // one value or test is open, and bash -n still judges the file (SB0001 if it rejects it).
    Severity want = id == std::string("SB0012")   ? Severity::Note
                    : id == std::string("SB0018") ? Severity::Low
                                                  : Severity::High;
    CHECK(r->severity == want);
  }
  Model m;
  m.files.add("a.yaml");
  m.problems.push_back({ProblemKind::ParseError, "bad", {0, 3, 1}});
  m.problems.push_back({ProblemKind::TooLarge, "big", {0, 0, 0}});
  Config cfg;
  cfg.integrity_severity["SB0004"] = Severity::Low;
  auto fs = run_checks(m, c, cfg, RunOptions{"2026-01-01"});
  REQUIRE(fs.size() == 2);
  // Sorted by location: the whole-file problem (line 0) first.
  CHECK(fs[0].rule_id == "SB0004");
  CHECK(fs[0].severity == Severity::Low);
  CHECK(fs[1].rule_id == "SB0001");
  CHECK(fs[1].severity == Severity::High);
  CHECK(fs[1].invariant == 0);
  CHECK(fs[0].fingerprint != fs[1].fingerprint);
}

TEST_CASE("weak acceptances are integrity findings at the acceptance", "[inv0]") {
  Model m;
  m.files.add("a.yaml");
  FileId cfg_file = m.files.add(".sbreview.yaml");
  m.problems.push_back({ProblemKind::ParseError, "bad", {0, 3, 1}});
  Config cfg;
  cfg.path = ".sbreview.yaml";
  cfg.acceptances.push_back({"SB0001", {}, "", "", {cfg_file, 2, 5}});
  auto fs = run_checks(m, Catalog::embedded(), cfg, RunOptions{"2026-01-01"});
  // Sorted by path: ".sbreview.yaml" comes before "a.yaml".
  REQUIRE(fs.size() == 2);
  CHECK(fs[1].rule_id == "SB0001");
  CHECK(fs[1].severity == Severity::High);  // an acceptance without a reason is ignored
  CHECK(fs[0].rule_id == "SB0009");
  CHECK(fs[0].at == Location{cfg_file, 2, 5});

  cfg.acceptances[0].reason = "vendored";
  cfg.acceptances[0].expires = "2025-12-31";
  fs = run_checks(m, Catalog::embedded(), cfg, RunOptions{"2026-01-01"});
  REQUIRE(fs.size() == 2);
  CHECK(fs[1].severity == Severity::High);
  CHECK(fs[0].rule_id == "SB0010");

  cfg.acceptances[0].expires = "2026-01-01";  // valid through its expiry day
  fs = run_checks(m, Catalog::embedded(), cfg, RunOptions{"2026-01-01"});
  REQUIRE(fs.size() == 1);
  CHECK(fs[0].severity == Severity::Note);
  CHECK(fs[0].accepted_reason == "vendored");
}

}  // namespace inv0_test
