#include "analyzer/render/render_roots.h"

#include <algorithm>
#include <exception>
#include <tuple>

#include "analyzer/render/helm/helm.h"
#include "analyzer/render/kustomize/kustomize.h"

namespace sbr::render {

const Origin& SourceMap::find(std::uint32_t line, std::uint32_t column) const {
  auto after = std::upper_bound(
      segments.begin(), segments.end(), std::tie(line, column),
      [](const auto& pos, const Segment& s) { return pos < std::tie(s.line, s.column); });
  return after == segments.begin() ? fallback : std::prev(after)->origin;
}

RenderOutput render_roots(const SourceSet& sources, const RenderOptions& options) {
  RenderOutput out;
  if (!options.enabled) return out;
  // A renderer defect must not lose the repository: it becomes a located problem, and the
  // files it did not claim are still read raw.
  auto guarded = [&](auto&& render, std::string_view what) {
    try {
      render(sources, options, out);
    } catch (const std::exception& e) {
      Location at = sources.files.empty() ? Location{} : Location{sources.files.front().id, 1, 1};
      out.problems.push_back(
          {ProblemKind::RenderFailed,
           std::string("internal error while rendering ") + std::string(what) + ": " + e.what(),
           at});
    }
  };
  RenderOptions helm = options;
  try {
    helm.inflated_charts = kustomize_inflated_charts(sources);
  } catch (const std::exception&) {
    // the Kustomize renderer reports it below
  }
  auto charts = [&](const SourceSet& s, const RenderOptions&, RenderOutput& o) {
    render_helm_charts(s, helm, o);
  };
  guarded(charts, "Helm charts");
  guarded(render_kustomizations, "Kustomize overlays");
  std::sort(out.consumed.begin(), out.consumed.end());
  out.consumed.erase(std::unique(out.consumed.begin(), out.consumed.end()), out.consumed.end());
  return out;
}

}  // namespace sbr::render
