#include "analyzer/engine/qos.h"

#include <cmath>
#include <cstdlib>
#include <map>
#include <string>
#include <tuple>

namespace sbr::engine {

std::optional<long double> parse_quantity(std::string_view q) {
  if (q.empty()) return std::nullopt;
  std::string s(q);
  char* end = nullptr;
  long double v = std::strtold(s.c_str(), &end);
  if (end == s.c_str()) return std::nullopt;
  std::string_view suffix(end);
  struct Unit {
    const char* name;
    long double factor;
  };
  static const Unit units[] = {{"Ki", 1024.0L},
                               {"Mi", 1048576.0L},
                               {"Gi", 1073741824.0L},
                               {"Ti", 1099511627776.0L},
                               {"Pi", 1125899906842624.0L},
                               {"Ei", 1152921504606846976.0L},
                               {"n", 1e-9L},
                               {"u", 1e-6L},
                               {"m", 1e-3L},
                               {"k", 1e3L},
                               {"M", 1e6L},
                               {"G", 1e9L},
                               {"T", 1e12L},
                               {"P", 1e15L},
                               {"E", 1e18L},
                               {"", 1.0L}};
  for (const auto& u : units) {
    if (suffix == u.name) return v * u.factor;
  }
  return std::nullopt;
}

namespace {

bool same_quantity(const Maybe<std::string>& a, const Maybe<std::string>& b) {
  if (!a || !b) return false;
  auto x = parse_quantity(a->value), y = parse_quantity(b->value);
  return x && y && std::fabs(static_cast<double>(*x - *y)) < 1e-9;
}

}  // namespace

QosClass qos_class(const std::vector<const Resources*>& containers) {
  bool any = false, guaranteed = !containers.empty();
  for (const Resources* r : containers) {
    any = any || r->memory_limit || r->memory_request || r->cpu_limit || r->cpu_request;
    const auto& mem_req = r->memory_request ? r->memory_request : r->memory_limit;
    const auto& cpu_req = r->cpu_request ? r->cpu_request : r->cpu_limit;
    if (!same_quantity(r->memory_limit, mem_req) || !same_quantity(r->cpu_limit, cpu_req)) {
      guaranteed = false;
    }
  }
  if (!any) return QosClass::BestEffort;
  return guaranteed ? QosClass::Guaranteed : QosClass::Burstable;
}

void derive_pod_qos(Model& model) {
  std::map<std::tuple<FileId, std::uint32_t, std::uint32_t>, std::vector<Workload*>> pods;
  for (Workload& w : model.workloads) {
    if (w.engine != Engine::Kubelet || w.role == ContainerRole::Ephemeral) continue;
    pods[{w.object_from.at.file, w.object_from.at.line, w.object_from.at.column}].push_back(&w);
  }
  for (auto& [key, members] : pods) {
    std::vector<const Resources*> res;
    for (Workload* w : members) res.push_back(&w->resources);
    QosClass q = qos_class(res);
    for (Workload* w : members) w->resources.qos = q;
  }
}

}  // namespace sbr::engine
