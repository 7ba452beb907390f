// Shared by the prover's tests: a model from launcher or manifest text (the real pipeline, on
// an in-memory tree), a planning context that needs no machine, and probe reports to judge.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "analyzer/check/catalog.h"
#include "analyzer/check/runner.h"
#include "analyzer/pipeline/analysis.h"
#include "analyzer/source/memory_tree.h"
#include "prover/lib/launch_plan.h"
#include "prover/lib/probe_report.h"

namespace sbr::test {

struct Analysed {
  Analysis analysis;
  std::vector<Finding> findings;
};

inline Analysed analyse_files(const std::vector<std::pair<std::string, std::string>>& files) {
  MemoryTree tree;
  for (const auto& [path, text] : files) tree.add_file(path, text);
  Config config;
  AnalyzeOptions options;
  Analysed a{analyze(tree, config, options), {}};
  RunOptions ro;
  ro.today = "2026-01-01";
  a.findings = run_checks(a.analysis.model, Catalog::embedded(), config, ro);
  return a;
}

// A context without a machine: ports count up from 40000, runsc as asked.
inline prove::PlanContext plan_context(bool runsc = true) {
  prove::PlanContext ctx;
  ctx.run_id = "sbrp-test";
  ctx.name = "sbrp-test-w0";
  ctx.image = "localhost/sbreview-probe-sbrp-test:latest";
  ctx.standin_dir = "/run-dir/w0";
  ctx.runsc_available = runsc;
  auto next = std::make_shared<int>(40000);
  ctx.free_port = [next] { return (*next)++; };
  return ctx;
}

// The report a probe prints, as the probe writes it (prover/probe/probe_main.cpp).
inline std::string probe_line(const std::string& json) {
  return "SBREVIEW-PROBE-REPORT " + json;
}

}  // namespace sbr::test
