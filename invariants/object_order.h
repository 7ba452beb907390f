// The order in which the sinks that merge a pod's containers into one finding (FactFindings,
// the data rules' pod facts) see workloads: the model's, one object's containers together or
// not. Knowing where each object's last workload is lets a sink emit an object's findings once
// the checks have passed it, instead of holding every pending finding of the model until the
// end (on a 10,000-workload stream that cost 12 MB of the peak; docs/robustness.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <algorithm>

#include "analyzer/model/model.h"

namespace sbr::inv {

class ObjectOrder {
 public:
  explicit ObjectOrder(const Model& model);

  // Records that the checks have reached `w`. Callers add workloads in the model's order; a
  // workload outside the model (or one behind the furthest reached) moves nothing.
  void reach(const Workload& w);
  // Every workload of w's object (its kind and name: the coarsest key any sink groups by) is
  // behind the furthest workload reached, so nothing more can join w's pending findings.
  bool complete(const Workload& w) const;
  // The furthest index reached; a pending set whose smallest object end is at or past it has
  // nothing complete, so a sink need not look.
  std::size_t reached() const { return reached_; }
  std::size_t end_of(const Workload& w) const;

 private:
  const Workload* first_ = nullptr;
  std::vector<std::uint32_t> last_;  // per workload: the index of its object's last workload
  std::size_t reached_ = 0;
};

// Emits (`emit(entry)`) the pending entries whose object the checks have passed, or all of
// them, keeping the others in order; `index` maps keys to positions in `entries` and follows the
// kept ones. Returns the smallest object end among the kept entries (SIZE_MAX if none).
template <class Entry, class Index, class Emit>
std::size_t emit_complete(std::vector<Entry>& entries, Index& index, const ObjectOrder& order,
                          bool all, Emit emit) {
  std::vector<std::size_t> moved_to(entries.size(), SIZE_MAX);
  std::size_t kept = 0, first_end = SIZE_MAX;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (all || order.complete(*entries[i].w)) {
      emit(entries[i]);
      continue;
    }
    first_end = std::min(first_end, order.end_of(*entries[i].w));
    moved_to[i] = kept;
    if (kept != i) entries[kept] = std::move(entries[i]);
    ++kept;
  }
  entries.resize(kept);
  for (auto it = index.begin(); it != index.end();) {
    if (moved_to[it->second] == SIZE_MAX) {
      it = index.erase(it);
    } else {
      it->second = moved_to[it->second];
      ++it;
    }
  }
  return first_end;
}

}  // namespace sbr::inv
