#include "analyzer/pipeline/analysis.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <set>
#include <thread>

#include "analyzer/engine/gate_path.h"
#include "analyzer/engine/qos.h"
#include "analyzer/engine/threat_class.h"
#include "analyzer/frontends/frontend.h"
#include "analyzer/frontends/gates/gates.h"
#include "analyzer/frontends/k8s/k8s_frontend.h"
#include "analyzer/frontends/launch/launch.h"
#include "analyzer/frontends/markdown/markdown.h"
#include "analyzer/frontends/suppressions.h"
#include "analyzer/pipeline/late_budget.h"
#include "analyzer/render/render_roots.h"
#include "analyzer/support/run_budget.h"

namespace sbr {

void apply_threat_classes(Model& model, const Config& config) {
  for (Workload& w : model.workloads) {
    const std::string& path = model.files.path(w.object_from.at.file);
    bool set = false;
    for (const auto& e : config.threat_classes) {
      if (selector_matches(e.match, w.id, path)) {
        w.threat = e.threat;
        w.threat_from = Provenance{e.at, Frontend::Config, {}};
        w.threat_source = ThreatSource::Config;
        w.threat_reason =
            fmt::format("set in {} line {}{}", config.path.empty() ? ".sbreview.yaml" : config.path,
                        e.at.line, e.reason.empty() ? "" : " (" + e.reason + ")");
        set = true;
        break;
      }
    }
    if (set) continue;
    auto it = w.annotations.find(kThreatAnnotation);
    if (it == w.annotations.end()) continue;
    auto t = parse_threat_class(it->second);
    // `trusted` lowers the gate to critical findings only: it needs a written reason, which
    // only the configuration can carry. An annotation cannot set it.
    if (!t || *t == ThreatClass::Trusted) {
      model.problems.push_back(
          {ProblemKind::InvalidObject,
           "annotation " + std::string(kThreatAnnotation) + ": `" + it->second +
               "` is not untrusted-code, untrusted-input or multi-tenant (trusted needs a "
               "reason in .sbreview.yaml); judged as untrusted-code",
           w.object_from.at});
      continue;
    }
    w.threat = *t;
    w.threat_from = w.object_from;
    w.threat_source = ThreatSource::Annotation;
    w.threat_reason = fmt::format("set by annotation {} ({}:{})", kThreatAnnotation,
                                  model.files.path(w.object_from.at.file), w.object_from.at.line);
  }
}

namespace {

void append_problems(Model& model, std::vector<Problem>&& problems) {
  model.problems.insert(model.problems.end(), std::make_move_iterator(problems.begin()),
                        std::make_move_iterator(problems.end()));
}

// A file not analysed because the run met a budget of RunBudget.
Problem out_of_budget(FileId file, const std::string& why) {
  return {ProblemKind::BudgetExceeded, fmt::format("file not analysed: {} before this file", why),
          Location{file, 0, 0}};
}

// An excluded directory listed as one entry says how many files it stands for and why they
// are not listed one by one.
std::string excluded_reason(const ExcludedPath& x) {
  if (x.path.empty() || x.path.back() != '/') return x.reason;
  return fmt::format(
      "{} ({}{} file{} below it, not listed one by one: a report lists at most {} "
      "excluded files)",
      x.reason, x.all_counted ? "" : "more than ", x.files, x.files == 1 ? "" : "s",
      kMaxExcludedListed);
}

// What became of each path the walk met (RunSummary::files), for the reports' run summary.
void record_files(const SourceSet& sources, const std::vector<FilePart>& parts,
                  const std::vector<bool>& consumed, Model& model) {
  std::vector<FileRecord>& out = model.summary.files;
  const size_t files = sources.files.size();
  auto walk_problem = [&](FileId id) -> std::string {
    for (const Problem& p : sources.problems) {
      if (p.at.file == id) return p.message;
    }
    return "not read";
  };
  auto add = [&](FileId id, FileStatus status, std::string reason) {
    out.push_back({id, status, std::move(reason), {}, 1});
  };
  for (size_t i = 0; i < files; ++i) {
    const SourceFile& f = sources.files[i];
    if (!f.readable) {
      add(f.id, FileStatus::Skipped, walk_problem(f.id));
    } else if (!parts[i].skipped.empty()) {
      add(f.id, FileStatus::Skipped, parts[i].skipped);
    } else if (f.type == FileType::Other) {
      add(f.id, FileStatus::NotApplicable, "not a format sbreview reads");
    } else if (f.type == FileType::Config) {
      add(f.id, FileStatus::NotApplicable, "the configuration, read before the walk");
    } else {
      add(f.id, FileStatus::Analysed,
          consumed[i] ? "read through the chart or overlay it renders in" : "");
    }
  }
  // Paths that never became files: links out of the root, special files, submodules...
  for (const Problem& p : sources.problems) {
    if (p.at.file != kNoFile && p.at.file >= files) {
      add(p.at.file, FileStatus::Skipped, p.message);
    }
  }
  for (const ExcludedPath& x : sources.excluded_paths)
    out.push_back({kNoFile, FileStatus::Excluded, excluded_reason(x), x.path, x.files});
  std::stable_sort(out.begin(), out.end(), [&](const FileRecord& x, const FileRecord& y) {
    return x.path_in(model.files) < y.path_in(model.files);
  });
}

// A chart rendered with a switch flipped is read for the findings it adds: a problem its
// text has that the default render's text also has is the same problem, reported once; one
// it has alone (an invalid object only that value produces) says which value it needs.
void settle_switch_problems(const render::RenderOutput& rendered, std::vector<FilePart>& parts,
                            size_t files) {
  std::set<std::pair<Location, std::string>> seen;
  for (size_t i = files; i < parts.size(); ++i) {
    if (!rendered.streams[i - files].condition.always()) continue;
    for (const Problem& p : parts[i].problems) seen.insert({p.at, p.message});
  }
  for (size_t i = files; i < parts.size(); ++i) {
    const Condition& c = rendered.streams[i - files].condition;
    if (c.always()) continue;
    parts[i].summary = {};  // the documents a run has are the default render's
    std::vector<Problem> kept;
    for (Problem& p : parts[i].problems) {
      if (!seen.insert({p.at, p.message}).second) continue;
      p.kind = ProblemKind::SwitchNotRendered;
      p.message += " [only " + c.text + ", a non-default switch]";
      kept.push_back(std::move(p));
    }
    parts[i].problems = std::move(kept);
  }
}

// The configuration's Helm settings join the command line's render options.
render::RenderOptions render_options(const Config& config, const AnalyzeOptions& options) {
  render::RenderOptions r = options.render;
  if (r.kube_version.empty()) r.kube_version = config.helm.kube_version;
  r.api_versions.insert(r.api_versions.begin(), config.helm.api_versions.begin(),
                        config.helm.api_versions.end());
  for (const HelmChartValues& c : config.helm.charts)
    r.charts.push_back({c.path, c.values, c.set, c.set_string, c.set_file, c.at});
  return r;
}

WalkOptions walk_options(const Config& config, const AnalyzeOptions& options) {
  WalkOptions walk;
  walk.excludes = config.exclude;
  walk.includes = config.include;
  walk.max_file_bytes = config.limits.max_file_bytes;
  return walk;
}

constexpr size_t kNoTwin = static_cast<size_t>(-1);

// Which rendered streams are a flipped render's template (`twin`: the default render's stream
// of the same template, whose documents it is spliced from), and the documents kept for that.
struct StreamBases {
  std::vector<size_t> twin;
  std::vector<bool> is_base;
  std::vector<yaml::Documents> kept;
};

StreamBases stream_bases(const std::vector<render::RenderedStream>& streams) {
  StreamBases b;
  b.twin.assign(streams.size(), kNoTwin);
  b.is_base.assign(streams.size(), false);
  b.kept.resize(streams.size());
  auto key = [](const render::RenderedStream& s) {
    return std::make_pair(std::string_view(s.root),
                          std::string_view(s.text).substr(0, s.text.find('\n')));
  };
  std::map<std::pair<std::string_view, std::string_view>, size_t> defaults;
  for (size_t i = 0; i < streams.size(); ++i) {
    if (streams[i].condition.always()) defaults.emplace(key(streams[i]), i);
  }
  for (size_t i = 0; i < streams.size(); ++i) {
    if (streams[i].condition.always() || streams[i].text.rfind("# Source: ", 0) != 0) continue;
    auto it = defaults.find(key(streams[i]));
    if (it == defaults.end()) continue;
    b.twin[i] = it->second;
    b.is_base[it->second] = true;
  }
  return b;
}

// Calls `fn` on each of `items` from `jobs` threads.
template <class Fn>
void run_parallel(const std::vector<size_t>& items, unsigned jobs, const Fn& fn) {
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t k = next++; k < items.size(); k = next++) fn(items[k]);
  };
  jobs = std::max(1u, std::min<unsigned>(jobs, static_cast<unsigned>(items.size())));
  std::vector<std::thread> pool;
  for (unsigned j = 1; j < jobs; ++j) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
}

// Each file and rendered stream into its part, on `options.jobs` threads.
std::vector<FilePart> read_parts(Analysis& a, const render::RenderOutput& rendered,
                                 const std::vector<bool>& consumed, const Config& config,
                                 const AnalyzeOptions& options) {
  FrontendContext ctx;
  ctx.sources = &a.sources;
  ctx.launcher_engine = config.launcher_engine;
  ctx.max_documents = config.limits.max_documents;
  ctx.documents = &config.documents;
  ctx.repository = options.repository;
  ctx.ask_bash = options.ask_bash;
  const size_t files = a.sources.files.size();
  std::vector<FilePart> parts(files + rendered.streams.size());
  const std::vector<render::RenderedStream>& streams = rendered.streams;
  StreamBases bases = stream_bases(streams);
  auto read = [&](size_t i) {
    if (i >= files) {
      size_t k = i - files;
      StreamReuse reuse;
      if (bases.twin[k] != kNoTwin) {
        const yaml::Documents& base = bases.kept[bases.twin[k]];
        reuse.base_text = streams[bases.twin[k]].text;
        if (!base.empty()) reuse.base = &base;
      } else if (bases.is_base[k]) {
        reuse.keep = &bases.kept[k];
      }
      read_rendered_stream(streams[k], parts[i], ctx.max_documents, reuse);
      return;
    }
    // Suppressions in a consumed file (a values file, a patch) apply to the findings the
    // render locates there.
    const SourceFile& file = a.sources.files[i];
    if (auto why = run_budget_exceeded()) {
      parts[i].problems.push_back(out_of_budget(file.id, *why));
      parts[i].skipped = parts[i].problems.back().message;
      return;
    }
    if (file.readable) read_suppression_comments(file, parts[i].suppressions);
    if (!consumed[i]) analyze_file(file, ctx, parts[i]);
  };
  // The flipped renders' streams after the others: each is spliced from its default render's
  // documents, which must have been read first.
  std::vector<size_t> first, second;
  for (size_t i = 0; i < parts.size(); ++i) {
    bool flipped = i >= files && bases.twin[i - files] != kNoTwin;
    (flipped ? second : first).push_back(i);
  }
  run_parallel(first, options.jobs, read);
  run_parallel(second, options.jobs, read);
  return parts;
}

// Everything after the walk: the frontends on worker threads, then the linkers.
void analyze_sources(Analysis& a, const Config& config, const AnalyzeOptions& options) {
  RunBudget budget(config.limits.wall_clock_seconds, config.limits.memory_megabytes);
  RunBudgetScope scope(budget);
  a.model.problems = a.sources.problems;
  a.model.summary.files_seen = static_cast<std::uint32_t>(a.sources.files.size());
  a.model.summary.skipped_excluded = a.sources.excluded;

  // Render roots first: the files a render consumed are read through it, never raw.
  render::RenderOptions render = render_options(config, options);
  render.virtual_base = static_cast<FileId>(a.model.files.paths.size());
  render::RenderOutput rendered = render::render_roots(a.sources, render);
  for (const std::string& p : rendered.virtual_files) a.model.files.add(p);
  std::vector<bool> consumed(a.sources.files.size(), false);
  for (FileId id : rendered.consumed) {
    if (id < consumed.size()) consumed[id] = true;
  }
  append_problems(a.model, std::move(rendered.problems));

  std::vector<FilePart> parts = read_parts(a, rendered, consumed, config, options);
  record_files(a.sources, parts, consumed, a.model);
  settle_switch_problems(rendered, parts, a.sources.files.size());
  for (auto& p : parts) merge_part(std::move(p), a.model);
  for (const render::RenderedStream& s : rendered.streams) {
    if (s.condition.always()) continue;
    a.model.switch_replaces[s.root + '\x1f' + s.condition.text].insert(s.replaces.begin(),
                                                                       s.replaces.end());
  }
  // The rendered text and its source maps are read: their memory goes to the linkers and the
  // checks (a repository of many charts holds hundreds of MB of them).
  rendered.streams = {};

  a.model.cluster_facts = config.cluster;
  link_kubernetes(a.model);
  engine::derive_pod_qos(a.model);
  link_launches(a.model);
  a.model.repository_urls = config.repository_urls;
  link_envbuilder(a.model);  // a devcontainer a pod builds is part of that pod
  // Gates after the workloads are final: a devcontainer's lifecycle commands have joined the
  // compose service or pod that runs them.
  link_gates(a.model);
  engine::attach_gates(a.model);  // the linked gates on each workload's traffic path
  a.model.workspace_paths = config.workspace;
  a.model.intended_secrets = config.intended_secrets;
  // Evidence and the inferred class, before checks; past the run's budget, the default.
  if (auto why = run_budget_exceeded()) {
    threats_not_inferred(a.model, *why);
  } else {
    engine::infer_threat_classes(a.model);
  }
  apply_threat_classes(a.model, config);  // the configuration and annotations win
  if (auto why = run_budget_exceeded()) {
    documents_not_linked(a.model, *why);
  } else {
    link_documents(a.model, config.documents);  // what each document's claims are about
  }
  read_suppression_annotations(a.model, a.sources, a.model.suppressions);
}

}  // namespace

Analysis analyze(const std::vector<SourceRoot>& roots, const Config& config,
                 const AnalyzeOptions& options) {
  Analysis a;
  a.sources = walk_trees(roots, walk_options(config, options), a.model.files);
  analyze_sources(a, config, options);
  return a;
}

Analysis analyze(const SourceTree& tree, const Config& config, const AnalyzeOptions& options) {
  return analyze(std::vector<SourceRoot>{{&tree, "", ""}}, config, options);
}

Analysis analyze(const std::vector<std::string>& paths, const Config& config,
                 const AnalyzeOptions& options) {
  Analysis a;
  a.sources = walk_sources(paths, walk_options(config, options), a.model.files);
  analyze_sources(a, config, options);
  return a;
}

}  // namespace sbr
