#include "analyzer/cli/prove_command.h"

#include <fmt/format.h>
#include <unistd.h>

#include <fstream>
#include <iostream>
#include <thread>

#include "analyzer/check/catalog.h"
#include "analyzer/check/runner.h"
#include "analyzer/cli/command.h"
#include "analyzer/cli/prove_from.h"
#include "analyzer/cli/prove_self_test.h"
#include "analyzer/cli/render_command.h"
#include "analyzer/report/report_util.h"
#include "invariants/common.h"
#include "prover/lib/interrupt.h"
#include "prover/lib/prove.h"
#include "prover/lib/runtime_findings.h"

namespace sbr {
namespace {

RuntimeNote note_of(const prove::RuntimeVerdict& v) {
  return {std::string(prove::verdict_name(v.verdict)), v.observed, v.runtime, v.reason};
}

RuntimeLaunch launch_of(const prove::WorkloadRun& run, const Workload& w) {
  RuntimeLaunch l;
  l.subject = inv::subject_of(w);
  l.label = run.label;
  switch (run.plan.kind) {
    case prove::LaunchKind::PodmanRun:
      l.launch = "podman run";
      break;
    case prove::LaunchKind::KubePlay:
      l.launch = "podman kube play";
      break;
    case prove::LaunchKind::None:
      l.error = "not launched: " + run.plan.why_not;
      break;
  }
  l.runtime = run.plan.kind == prove::LaunchKind::None ? "" : run.obs.runtime;
  l.engine_note = run.plan.engine_note;
  if (l.error.empty() && !run.obs.launched) {
    l.error = run.obs.timed_out ? "the launch timed out" : run.obs.error;
  }
  for (const auto& n : run.plan.not_passed) l.not_passed.push_back(n.what + ": " + n.reason);
  for (const prove::Control& c : run.controls) {
    l.controls.push_back({c.name, c.invariant, c.from.at, c.expected, note_of(c.verdict)});
  }
  return l;
}

// "[3/12] launching launcher run.sh (line 4)…" on a terminal, overwritten in place; one plain
// line per finished launch otherwise.
std::function<void(const prove::Progress&)> progress_to(std::ostream& err) {
  const bool tty = &err == &std::cerr && isatty(STDERR_FILENO) != 0;
  return [&err, tty](const prove::Progress& p) {
    if (tty) {
      std::string line = p.run == nullptr
                             ? fmt::format("[{}/{}] launching {}…", p.done + 1, p.total, p.label)
                             : fmt::format("[{}/{}] {} done", p.done, p.total, p.label);
      err << "\r\x1b[K" << line.substr(0, 100) << (p.run && p.done == p.total ? "\n" : "")
          << std::flush;
    } else if (p.run != nullptr) {
      std::string how = p.run->obs.launched                           ? p.run->obs.runtime
                        : p.run->plan.kind == prove::LaunchKind::None ? "not launched"
                                                                      : "failed";
      err << fmt::format("prove: [{}/{}] {}: {} ({:.1f} s)\n", p.done, p.total, p.label, how,
                         p.run->seconds);
    }
  };
}

bool write_prove_reports(const Options& o, const ReportContext& ctx, std::ostream& out,
                         std::ostream& err) {
  for (const auto& spec : o.outputs) {
    std::ofstream file;
    std::ostream* stream = &out;
    if (!spec.path.empty()) {
      file.open(spec.path, std::ios::binary | std::ios::trunc);
      if (!file) {
        err << "sbreview: cannot write " << spec.path << "\n";
        return false;
      }
      stream = &file;
    }
    if (spec.format == "json") {
      write_json(ctx, *stream);
    } else if (spec.format == "sarif") {
      write_sarif(ctx, *stream);
    } else {
      bool tty = spec.path.empty() && &out == &std::cout && isatty(STDOUT_FILENO);
      write_prove_text(ctx, *stream, tty);
    }
  }
  return true;
}

}  // namespace

int run_prove(const Options& o, std::ostream& out, std::ostream& err, const Catalog& catalog) {
  if (o.self_test) return run_prove_self_test(o, out, err);
  auto text = config_text(o, nullptr);
  if (!text) {
    err << "sbreview: " << report::one_line_safe(text.error().message) << "\n";
    return 2;
  }
  auto parsed = read_config(*text);
  if (!parsed) {
    err << "sbreview: " << report::one_line_safe(parsed.error().message) << "\n";
    return 2;
  }
  Config config = std::move(*parsed);
  AnalyzeOptions ao;
  ao.jobs = o.jobs ? o.jobs : std::max(1u, std::thread::hardware_concurrency());
  ao.render = render_options(o);
  Analysis analysis = analyze(o.paths, config, ao);
  give_config_a_file(*text, analysis, config);
  RunOptions ro;
  ro.today = o.today.empty() ? today_utc() : o.today;
  std::vector<Finding> findings = run_checks(analysis.model, catalog, config, ro);
  ReportContext roots{analysis.model, analysis.sources, catalog, findings};
  set_report_roots(o.paths, roots);
  if (o.from_sarif) {
    auto from =
        findings_from_sarif(*o.from_sarif, analysis.model, catalog, findings, roots.uri_prefix);
    if (!from) {
      err << "sbreview: " << report::one_line_safe(from.error().message) << "\n";
      return 2;
    }
    findings = std::move(*from);
  }

  // Signals are taken by the prover from here on, so that an interrupted run still cleans up.
  prove::Interrupts interrupts;
  prove::SessionOptions so;
  so.runtime_dir = o.runtime_dir.value_or("");
  so.command_timeout_ms = static_cast<int>(o.timeout.value_or(30)) * 1000;
  auto session = prove::Session::open(so);
  if (!session) {
    err << "sbreview: prove: " << report::one_line_safe(session.error().message) << "\n";
    return 2;
  }
  prove::ProveOptions po;
  po.progress = progress_to(err);
  prove::ProveResult result =
      prove::prove(analysis.model, analysis.sources, findings, **session, po);
  std::string leftovers = (*session)->cleanup();
  if (result.interrupted != 0) {
    err << "sbreview: prove: interrupted; the run's containers, pods, volumes and image were "
           "removed\n";
    interrupts.reraise();
    return 128 + result.interrupted;
  }
  if (!leftovers.empty()) err << "sbreview: prove: cleanup: " << leftovers << "\n";

  prove::finish_runtime_findings(result.runtime_findings, catalog, config);
  std::vector<RuntimeNote> notes;
  for (const auto& v : result.verdicts) notes.push_back(note_of(v));
  for (const Finding& f : result.runtime_findings) {
    findings.push_back(f);
    std::string runtime;
    for (const auto& run : result.runs) {
      if (inv::subject_of(analysis.model.workloads[run.workload]) == f.subject) {
        runtime = run.obs.runtime;
      }
    }
    notes.push_back({"confirmed", "", runtime, "the prover's own finding"});
  }
  ReportContext ctx{analysis.model, analysis.sources, catalog, findings};
  ctx.source_root = roots.source_root;
  ctx.uri_prefix = roots.uri_prefix;
  ctx.display_prefix = roots.display_prefix;
  ctx.runtime = std::move(notes);
  for (const auto& run : result.runs) {
    ctx.launches.push_back(launch_of(run, analysis.model.workloads[run.workload]));
  }
  if (!write_prove_reports(o, ctx, out, err)) return 2;
  if (!leftovers.empty()) return 2;
  std::string level = o.fail_on ? *o.fail_on : config.fail_on ? *config.fail_on : "high";
  return should_fail(findings, level) ? 1 : 0;
}

}  // namespace sbr
