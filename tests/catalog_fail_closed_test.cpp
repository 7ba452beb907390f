// The catalog fails closed: a finding of a rule the catalog does not hold, or a catalog that
// does not load, stops the run (CatalogError; exit 2 from the CLI) instead of being dropped.
// Over the whole fixture suite, every summary template gets the parameters it names and every
// finding comes from a kind of input its rule's applies_to lists.
#include <fmt/format.h>
#include <catch2/catch.hpp>

#include <set>
#include <sstream>

#include "analyzer/check/catalog.h"
#include "analyzer/check/runner.h"
#include "analyzer/cli/cli.h"
#include "analyzer/pipeline/analysis.h"
#include "generated/rule_ids.h"
#include "invariants/common.h"
#include "tests/fixture_harness.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace catalog_fail_closed_test {

using namespace sbr;

namespace {

Catalog catalog_without(RuleId id) {
  Catalog c;
  for (const Rule& r : Catalog::embedded().rules()) {
    if (r.id != id.str()) c.add(r);
  }
  return c;
}

// A C++ check's rule left out of the catalog (a data rule left out simply does not run).
const Catalog& without_runs_as_root() {
  static const Catalog c = catalog_without(rule::runs_as_root);
  return c;
}

const Catalog& broken_catalog() {
  throw CatalogError("the embedded rule catalog does not load:\nrules/x.yaml:3:1: boom");
}

// The kinds of input (applies_to values) a finding can come from: the engine of the workload
// it names, and the format of the file it points at.
std::set<std::string> input_kinds(const Analysis& a, const Finding& f) {
  std::set<std::string> kinds;
  for (const Workload& w : a.model.workloads) {
    if (inv::subject_of(w) != f.subject) continue;
    switch (w.engine) {
      case Engine::Kubelet:
        kinds.insert("kubernetes");
        break;
      case Engine::PodmanKubePlay:
        kinds.insert({"kubernetes", "launcher"});
        break;
      case Engine::Podman:
      case Engine::Docker:
        kinds.insert("launcher");
        break;
      case Engine::Compose:
        kinds.insert("compose");
        break;
      case Engine::Devcontainer:
        kinds.insert("devcontainer");
        break;
    }
  }
  if (f.at.valid() && f.at.file < a.sources.files.size()) {
    switch (a.sources.files[f.at.file].type) {
      case FileType::Yaml:
      case FileType::Json:
        kinds.insert("kubernetes");
        break;
      case FileType::Compose:
        kinds.insert("compose");
        break;
      case FileType::Devcontainer:
        kinds.insert("devcontainer");
        break;
      case FileType::Dockerfile:
        kinds.insert("dockerfile");
        break;
      case FileType::Shell:
        kinds.insert({"launcher", "egress-gate"});
        break;
      case FileType::Nft:
      case FileType::Squid:
        kinds.insert("egress-gate");
        break;
      case FileType::Config:
        kinds.insert("config");
        break;
      case FileType::Markdown:
      case FileType::Other:
        break;
    }
  }
  return kinds;
}

}  // namespace

TEST_CASE("a finding of a rule the catalog does not hold stops the run", "[catalog]") {
  Config config;
  Acceptance a;
  a.rule = "SB1001";  // no reason: the runner reports SB0009 itself
  config.acceptances.push_back(a);
  Model m;
  CHECK(run_checks(m, Catalog::embedded(), config, RunOptions{"2026-01-01"}).size() == 1);
  Catalog c = catalog_without(rule::acceptance_without_reason);
  CHECK_THROWS_AS(run_checks(m, c, config, RunOptions{"2026-01-01"}), CatalogError);
  CHECK_THROWS_WITH(run_checks(m, c, config, RunOptions{"2026-01-01"}),
                    "a check reported rule SB0009, which the rule catalog does not define "
                    "(finding: risk acceptance of SB1001 has no reason; it is ignored)");
}

TEST_CASE("the CLI exits 2 on an unknown rule id or a catalog that does not load", "[catalog]") {
  std::string dir = test::source_dir() + "/fixtures/rules/SB2006-runs-as-root";
  std::ostringstream out, err;
  CHECK(run_cli({"check", "--format", "json", dir}, out, err) == 1);  // the embedded catalog
  std::ostringstream out2, err2;
  CHECK(run_cli({"check", dir}, out2, err2, &without_runs_as_root) == 2);
  CHECK(err2.str().rfind("sbreview: internal error: a check reported rule SB2006, which the rule "
                         "catalog does not define",
                         0) == 0);
  std::ostringstream out3, err3;
  CHECK(run_cli({"check", dir}, out3, err3, &broken_catalog) == 2);
  CHECK(err3.str() ==
        "sbreview: internal error: the embedded rule catalog does not load:\nrules/x.yaml:3:1: "
        "boom\n");
  CHECK(out3.str().empty());
}

// One run over every fixture: a summary naming a parameter that its check does not supply
// throws here, and applies_to must name the input each finding came from.
TEST_CASE("over the fixture suite, summaries are complete and applies_to holds", "[catalog]") {
  AnalyzeOptions ao;
  ao.jobs = 2;
  Analysis a = analyze({test::source_dir() + "/fixtures"}, Config{}, ao);
  std::vector<Finding> findings;
  REQUIRE_NOTHROW(findings = run_checks(a.model, Catalog::embedded(), Config{}, {"2026-06-15"}));
  const Catalog& c = Catalog::embedded();
  // Every summary is rendered at least once, so a parameter missing anywhere would have thrown.
  std::set<std::string> fired, silent;
  for (const Finding& f : findings) fired.insert(std::string(f.rule_id));
  // The prover's rules fire only in `sbreview prove`; tests/prover_judge_test.cpp renders
  // their summaries through the prover's own runtime_findings.
  const std::set<std::string> prove_only = {"SB0040", "SB0041", "SB0042"};
  for (const Rule& r : c.rules()) {
    if (!r.summary.empty() && !fired.count(r.id) && !prove_only.count(r.id)) silent.insert(r.id);
  }
  INFO("rules with a summary that no fixture fires: " << fmt::format("{}", fmt::join(silent, " ")));
  CHECK(silent.empty());
  std::map<std::string, std::set<std::string>> unlisted;  // rule -> input kinds not in applies_to
  for (const Finding& f : findings) {
    const Rule* r = c.find(f.rule_id);
    REQUIRE(r != nullptr);
    if (r->invariant == 0) continue;  // integrity problems apply to every input
    std::set<std::string> kinds = input_kinds(a, f);
    bool listed = false;
    for (const auto& k : kinds) {
      listed = listed || std::count(r->applies_to.begin(), r->applies_to.end(), k) > 0;
    }
    if (!listed) unlisted[r->id].insert(kinds.begin(), kinds.end());
  }
  std::ostringstream os;
  for (const auto& [id, kinds] : unlisted) {
    os << id << " reported from";
    for (const auto& k : kinds) os << " " << k;
    os << "\n";
  }
  INFO(os.str());
  CHECK(unlisted.empty());
}

}  // namespace catalog_fail_closed_test
