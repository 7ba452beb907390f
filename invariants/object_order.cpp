#include "invariants/object_order.h"

#include <functional>
#include <limits>
#include <string_view>
#include <unordered_map>

namespace sbr::inv {
namespace {

struct ObjectKey {
  std::string_view kind, name;
  bool operator==(const ObjectKey&) const = default;
};

struct ObjectHash {
  std::size_t operator()(const ObjectKey& k) const {
    return std::hash<std::string_view>{}(k.kind) * 31 + std::hash<std::string_view>{}(k.name);
  }
};

constexpr std::size_t kBeyond = std::numeric_limits<std::size_t>::max();

// w's index in the workloads starting at `first`, or kBeyond when it is not one of them.
std::size_t position(const Workload* first, std::size_t count, const Workload& w) {
  if (first == nullptr || &w < first || &w >= first + count) return kBeyond;
  return static_cast<std::size_t>(&w - first);
}

}  // namespace

ObjectOrder::ObjectOrder(const Model& model) : last_(model.workloads.size()) {
  if (model.workloads.empty()) return;
  first_ = model.workloads.data();
  std::unordered_map<ObjectKey, std::uint32_t, ObjectHash> last;
  for (std::uint32_t i = 0; i < model.workloads.size(); ++i) {
    const WorkloadId& id = model.workloads[i].id;
    last[{id.kind, id.name}] = i;
  }
  for (std::uint32_t i = 0; i < model.workloads.size(); ++i) {
    const WorkloadId& id = model.workloads[i].id;
    last_[i] = last.at({id.kind, id.name});
  }
}

std::size_t ObjectOrder::end_of(const Workload& w) const {
  std::size_t at = position(first_, last_.size(), w);
  return at == kBeyond ? kBeyond : last_[at];
}

void ObjectOrder::reach(const Workload& w) {
  std::size_t at = position(first_, last_.size(), w);
  if (at != kBeyond && at > reached_) reached_ = at;
}

bool ObjectOrder::complete(const Workload& w) const {
  return end_of(w) < reached_;
}

}  // namespace sbr::inv
