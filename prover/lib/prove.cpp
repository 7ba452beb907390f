#include "prover/lib/prove.h"

#include <fmt/format.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

#include "invariants/common.h"
#include "prover/lib/host_net.h"
#include "prover/lib/interrupt.h"
#include "prover/lib/judge.h"
#include "prover/lib/launch.h"
#include "prover/lib/runtime_findings.h"

namespace sbr::prove {
namespace {

std::optional<std::string> repo_file(const SourceSet& sources, const std::string& path) {
  std::string p = path;
  while (p.rfind("./", 0) == 0) p.erase(0, 2);
  for (const SourceFile& f : sources.files) {
    if (!f.readable) continue;
    // A profile path is written relative to where the launcher runs: match the end.
    if (f.path == p ||
        (f.path.size() > p.size() && f.path.compare(f.path.size() - p.size(), p.size(), p) == 0 &&
         f.path[f.path.size() - p.size() - 1] == '/')) {
      return f.bytes;
    }
  }
  return std::nullopt;
}

WorkloadRun run_one(const Model& model, const SourceSet& sources, Session& s, size_t index) {
  const Workload& w = model.workloads[index];
  WorkloadRun run;
  run.workload = index;
  run.label = inv::describe(w);
  PlanContext ctx;
  ctx.run_id = s.run_id();
  ctx.name = fmt::format("{}-w{}", s.run_id(), index);
  ctx.image = s.image();
  ctx.standin_dir = fmt::format("{}/w{}", s.dir(), index);
  ctx.runsc_available = s.runsc_available();
  ctx.free_port = free_port;
  ctx.repo_file = [&sources](const std::string& p) { return repo_file(sources, p); };
  auto start = std::chrono::steady_clock::now();
  run.plan = plan_launch(w, model, ctx);
  if (interrupted() == 0) run.obs = launch(s, run.plan, ctx);
  if (interrupted() != 0 && !run.obs.launched) run.obs.error = "the run was interrupted";
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return run;
}

}  // namespace

const Workload* workload_of(const Finding& f, const Model& model) {
  if (f.identity.empty()) return nullptr;
  for (const Workload& w : model.workloads) {
    if (identity_key(w.id) == f.identity) return &w;
  }
  return nullptr;
}

ProveResult prove(const Model& model, const SourceSet& sources,
                  const std::vector<Finding>& findings, Session& session,
                  const ProveOptions& options) {
  ProveResult result;
  const size_t total = model.workloads.size();
  result.runs.resize(total);
  std::atomic<size_t> next{0}, done{0};
  std::mutex progress_mu;
  auto worker = [&] {
    for (size_t i = next++; i < total && interrupted() == 0; i = next++) {
      if (options.progress) {
        std::lock_guard<std::mutex> lock(progress_mu);
        options.progress({done.load(), total, nullptr, inv::describe(model.workloads[i])});
      }
      result.runs[i] = run_one(model, sources, session, i);
      std::lock_guard<std::mutex> lock(progress_mu);
      size_t d = ++done;
      if (options.progress) options.progress({d, total, &result.runs[i], result.runs[i].label});
    }
  };
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < std::max(1U, options.parallel); ++t) threads.emplace_back(worker);
  for (auto& t : threads) t.join();
  result.interrupted = interrupted();
  for (size_t i = 0; i < total; ++i) {
    WorkloadRun& run = result.runs[i];
    if (!run.label.empty()) continue;
    run.workload = i;
    run.label = inv::describe(model.workloads[i]);
    run.plan.why_not = "the run was interrupted before its launch";
  }

  // Judging is pure and in model order: the result does not depend on which launch ran first.
  std::vector<std::vector<Judged>> judged(total);
  std::vector<std::set<std::string>> reported(total);
  result.verdicts.reserve(findings.size());
  for (const Finding& f : findings) {
    const Workload* w = workload_of(f, model);
    size_t i = w != nullptr ? static_cast<size_t>(w - model.workloads.data()) : total;
    const WorkloadRun* run = i < total ? &result.runs[i] : nullptr;
    result.verdicts.push_back(
        judge_finding(f, w, run ? &run->plan : nullptr, run ? &run->obs : nullptr));
    if (i < total) {
      judged[i].push_back({&f, result.verdicts.back()});
      reported[i].insert(std::string(f.rule_id));
      for (const Reason& r : f.reasons) reported[i].insert(std::string(r.rule_id));
    }
    // A finding shared by several workloads reports the control's absence for each of them.
    for (const SharedWith& sw : f.shared_with) {
      for (size_t k = 0; k < total; ++k) {
        if (inv::subject_of(model.workloads[k]) == sw.subject) {
          reported[k].insert(std::string(f.rule_id));
        }
      }
    }
  }
  for (size_t i = 0; i < total; ++i) {
    WorkloadRun& run = result.runs[i];
    run.controls = judge_controls(model.workloads[i], model, reported[i], run.plan, run.obs);
    auto mine = runtime_findings(model.workloads[i], run.plan, run.obs, run.controls, judged[i]);
    result.runtime_findings.insert(result.runtime_findings.end(), mine.begin(), mine.end());
  }
  return result;
}

}  // namespace sbr::prove
