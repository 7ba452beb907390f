// Renders every Kustomize root of the tree: refused before running when it would download or
// execute anything, otherwise built by the installed kustomize in a private export of the
// tree with origin annotations on, and mapped back to base and patch lines.
#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <atomic>
#include <set>
#include <thread>
#include <tuple>

#include "analyzer/render/helm/helm.h"
#include "analyzer/render/kustomize/internal.h"
#include "analyzer/render/kustomize/kustomize.h"
#include "analyzer/source/export.h"
#include "analyzer/support/run_budget.h"

namespace sbr::render {
namespace {

using kz::Kustomization;
using Kustomizations = std::map<FileId, Kustomization>;

constexpr size_t kMaxParallelRuns = 4;  // each run is one mostly idle Go process

std::string root_name(const Kustomization& k) {
  return k.dir.empty() ? "." : k.dir;
}

void problem_at(RenderOutput& out, FileId file, std::string message, Cause cause) {
  out.problems.push_back(
      {ProblemKind::RenderFailed, std::move(message), Location{file, 1, 1}, cause});
}

// The files of a root's chain go to `consumed` (the charts it inflates too, rendered or not:
// their templates are not YAML); its refusals (each once) to the problems.
bool claim(const SourceSet& sources, const Kustomizations& all, FileId root, RenderOutput& out,
           std::set<std::tuple<Location, std::string>>& reported) {
  bool refused = false;
  for (FileId k : kz::chain_of(all, root)) {
    const Kustomization& kust = all.at(k);
    out.consumed.push_back(k);
    out.consumed.insert(out.consumed.end(), kust.reads.begin(), kust.reads.end());
    for (const kz::HelmChartUse& h : kust.helm_charts) {
      for (const SourceFile& f : sources.files) {
        if (f.path.starts_with(h.chart_dir + "/")) out.consumed.push_back(f.id);
      }
    }
    for (const Problem& p : kust.refusals) {
      refused = true;
      if (reported.emplace(p.at, p.message).second) out.problems.push_back(p);
    }
  }
  return refused;
}

bool write_over(const std::string& path, const std::string& bytes) {
  int fd = open(path.c_str(), O_WRONLY | O_TRUNC | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return false;
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = write(fd, bytes.data() + done, bytes.size() - done);
    if (n <= 0) break;
    done += static_cast<size_t>(n);
  }
  close(fd);
  return done == bytes.size();
}

// With LoadRestrictionsRootOnly kustomize loads only files below a kustomization's directory:
// the rest of the repository is not copied.
SourceSet loadable(const SourceSet& sources, const Kustomizations& all) {
  SourceSet out;
  for (const SourceFile& f : sources.files) {
    for (const auto& [id, k] : all) {
      if (k.dir.empty() || f.path.starts_with(k.dir + "/")) {
        out.files.push_back(f);
        break;
      }
    }
  }
  return out;
}

// Why a tool cannot render, or "" when it can.
std::string unusable(const kz::Tool& tool) {
  if (tool.path.empty()) {
    return "neither `kustomize` nor `kubectl` is installed; install kubectl (Kustomize " +
           std::string(kz::kMinimumVersion) + " or newer) or check the overlay's output";
  }
  if (!tool.recent_enough) {
    return fmt::format(
        "{} has Kustomize {}, older than {} (no `patches:` or origin "
        "annotations); install a newer kubectl or kustomize",
        tool.path, tool.version.empty() ? "of unknown version" : tool.version, kz::kMinimumVersion);
  }
  return "";
}

// kustomize's own refusal is the repository's; a run sbreview stopped at its limits is its gap.
Cause failure_cause(const kz::RunResult& r) {
  if (!r.not_run.empty()) return Cause::Analyzer;
  if (!r.started) return Cause::Environment;
  return r.timed_out || r.too_large ? Cause::Analyzer : Cause::Repository;
}

std::string failure_message(const kz::RunResult& r, const RenderOptions& options,
                            const std::string& export_dir) {
  if (!r.not_run.empty()) return "kustomize was not run: " + r.not_run;
  if (!r.started) return "kustomize could not be started";
  if (r.timed_out) return fmt::format("kustomize did not finish within {} ms", options.timeout_ms);
  if (r.too_large) {
    return fmt::format("kustomize's output exceeds {} bytes", options.max_output_bytes);
  }
  return "kustomize failed: " + kz::first_error_line(r.err, export_dir);
}

kz::RunResult run_root(const RenderOptions& options, const kz::Tool& tool, const ExportedTree& tree,
                       const Kustomization& k) {
  std::vector<std::string> argv{tool.path};
  argv.insert(argv.end(), tool.verb.begin(), tool.verb.end());
  argv.insert(argv.end(), {"--load-restrictor", "LoadRestrictionsRootOnly",
                           k.dir.empty() ? tree.path() : tree.path() + "/" + k.dir});
  kz::RunLimits limits;
  limits.timeout_ms = options.timeout_ms;
  limits.max_output_bytes = options.max_output_bytes;
  return kz::run_isolated(argv, tree.path(), limits);
}

// The roots' runs side by side (kustomize spends its time starting up); results by index, so
// the output does not depend on which finished first.
std::vector<kz::RunResult> run_roots(const RenderOptions& options, const kz::Tool& tool,
                                     const ExportedTree& tree, const Kustomizations& all,
                                     const std::vector<FileId>& roots) {
  std::vector<kz::RunResult> results(roots.size());
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i = next++; i < roots.size(); i = next++) {
      if (auto why = run_budget_exceeded()) {
        results[i].not_run = *why;
        continue;
      }
      results[i] = run_root(options, tool, tree, all.at(roots[i]));
    }
  };
  const size_t threads = std::min<size_t>(kMaxParallelRuns, roots.size());
  std::vector<std::thread> pool;
  for (size_t t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
  return results;
}

// The charts the kustomizations to run inflate, rendered by the chart engine: each becomes a
// file of the private copy that its kustomization lists as a resource.
struct Charts {
  std::map<std::string, Inflated> rendered;          // by tree path of the generated file
  std::map<FileId, std::vector<std::string>> names;  // per kustomization, relative to it
  kz::GeneratedResources resources;
};

void inflate(const SourceSet& sources, const RenderOptions& options, const Kustomizations& all,
             const std::set<FileId>& running, Charts& charts, RenderOutput& out) {
  for (const auto& [id, k] : all) {
    if (running.count(id) == 0) continue;
    for (const kz::HelmChartUse& h : k.helm_charts) {
      HelmInflation spec{
          h.chart_dir,    id,   h.index,        h.values_files, h.values_file,  h.values_merge,
          h.release_name, h.ns, h.include_crds, h.skip_tests,   h.kube_version, h.api_versions};
      Inflated chart = inflate_helm_chart(sources, spec, options, out);
      if (!chart.ok) continue;
      std::string name = fmt::format(".sbreview-helm-{}-{}.yaml", h.index, h.name);
      std::string path = k.dir.empty() ? name : k.dir + "/" + name;
      charts.names[id].push_back(name);
      const Inflated& kept = charts.rendered[path] = std::move(chart);
      charts.resources[path] = {id, kept.text, &kept.map};
    }
  }
}

void add_stream(const SourceSet& sources, const RenderOptions& options, const ExportedTree& tree,
                const Kustomizations& all, FileId root, const kz::RunResult& r,
                const kz::GeneratedResources& charts, RenderOutput& out) {
  if (r.exit_code != 0) {
    problem_at(out, root,
               fmt::format("kustomization `{}` is not rendered: {}", sources.files[root].path,
                           failure_message(r, options, tree.path())),
               failure_cause(r));
    return;
  }
  std::vector<std::string> origins;
  RenderedStream s;
  s.root = root_name(all.at(root));
  s.engine = "kustomize";
  s.text = kz::strip_origins(r.out, origins);
  s.map = kz::map_rendered(s.text, origins, sources, all, root, charts);
  out.streams.push_back(std::move(s));
}

}  // namespace

namespace kz {

void render_with_tool(const SourceSet& sources, const RenderOptions& options, const Tool* tool,
                      RenderOutput& out) {
  const Kustomizations all = read_kustomizations(sources);
  std::set<std::tuple<Location, std::string>> reported;
  std::vector<FileId> to_run;
  std::set<FileId> in_chains;
  for (FileId root : render_root_files(all)) {
    if (!claim(sources, all, root, out, reported)) to_run.push_back(root);
    for (FileId k : chain_of(all, root)) in_chains.insert(k);
  }
  for (const auto& [id, k] : all) {  // a component nobody uses: its patches are not objects
    if (in_chains.count(id) == 0) claim(sources, all, id, out, reported);
  }
  if (to_run.empty()) return;
  const Tool found = tool != nullptr ? *tool : find_tool();
  if (std::string why = unusable(found); !why.empty()) {
    for (FileId root : to_run) {
      problem_at(
          out, root,
          fmt::format("kustomization `{}` is not rendered: {}", sources.files[root].path, why),
          Cause::Environment);
    }
    return;
  }
  std::set<FileId> running;
  for (FileId root : to_run) {
    for (FileId k : chain_of(all, root)) running.insert(k);
  }
  Charts charts;
  inflate(sources, options, all, running, charts, out);
  SourceSet copy = loadable(sources, all);
  for (const auto& [path, chart] : charts.rendered) {
    SourceFile f;
    f.path = path;
    f.bytes = chart.text;
    f.readable = true;
    copy.files.push_back(std::move(f));
  }
  auto tree = export_files(copy);
  for (const auto& [id, k] : all) {
    if (!tree) break;
    const std::string& rel = sources.files[id].path;
    std::string text = sources.files[id].bytes;
    if (!k.helm_charts.empty()) text = with_generated_resources(text, charts.names[id]);
    if (!write_over(tree.value().path() + "/" + rel, with_origin_annotations(text))) {
      tree = Error{"cannot write the private copy of " + rel};
    }
  }
  if (!tree) {
    for (FileId root : to_run) {
      problem_at(out, root,
                 fmt::format("kustomization `{}` is not rendered: {}", sources.files[root].path,
                             tree.error().message),
                 Cause::Environment);
    }
    return;
  }
  std::vector<RunResult> results = run_roots(options, found, tree.value(), all, to_run);
  for (size_t i = 0; i < to_run.size(); ++i) {
    add_stream(sources, options, tree.value(), all, to_run[i], results[i], charts.resources, out);
  }
}

}  // namespace kz

void render_kustomizations(const SourceSet& sources, const RenderOptions& options,
                           RenderOutput& out) {
  kz::render_with_tool(sources, options, nullptr, out);
}

std::vector<std::string> kustomize_inflated_charts(const SourceSet& sources) {
  return kz::inflated_chart_dirs(kz::read_kustomizations(sources));
}

}  // namespace sbr::render
