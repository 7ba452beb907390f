#include "analyzer/engine/secrets_inside.h"

#include <algorithm>

#include "analyzer/engine/defaults.h"
#include "analyzer/support/secrets.h"

namespace sbr::engine {

bool automounts_service_account_token(const Workload& w) {
  return mounts_service_account_token(w);
}

const Mount* projected_token_mount(const Workload& w) {
  for (const auto& m : w.mounts) {
    if (m.projects_sa_token && !m.target.empty()) return &m;
  }
  return nullptr;
}

bool service_account_token_reaches(const Workload& w) {
  return automounts_service_account_token(w) || projected_token_mount(w) != nullptr;
}

std::vector<SecretInside> secrets_inside(const Workload& w,
                                         const std::vector<std::string>& intended) {
  std::vector<SecretInside> out;
  for (const auto& e : w.env) {
    bool declared = std::find(intended.begin(), intended.end(), e.name) != intended.end();
    if (e.source == EnvSource::SecretRef) {
      out.push_back({"environment variable " + e.name + " from Secret " + e.ref, e.from});
    } else if (e.source == EnvSource::Literal && !e.value.empty() &&
               ((secrets::is_secret_name(e.name) && !secrets::flag_value(e.value)) ||
                !secrets::key_format(e.value).empty())) {
      out.push_back({"environment variable " + e.name + " with a literal secret value", e.from});
    } else if (declared) {
      out.push_back({"environment variable " + e.name + " (declared in secrets.intended)", e.from});
    } else if (e.source == EnvSource::HostCopy && secrets::is_secret_name(e.name)) {
      out.push_back({"environment variable " + e.name + " copied from the host", e.from});
    }
  }
  for (const auto& b : w.env_bulk) {
    if (b.kind == EnvBulkKind::SecretEnvFrom) {
      out.push_back({"every key of Secret " + b.name + " in the environment", b.from});
    } else if (b.kind == EnvBulkKind::HostEnvironment) {
      out.push_back({"the host's whole environment", b.from});
    }
  }
  for (const auto& m : w.mounts) {
    if (m.holds_secret && !m.target.empty()) {
      std::string name = m.source.empty() ? m.volume_name : m.source;
      out.push_back({"Secret " + name + " mounted at " + m.target, m.mount_from});
    }
  }
  if (const Mount* m = projected_token_mount(w)) {
    out.push_back({"a projected service-account token at " + m->target, m->mount_from});
  } else if (automounts_service_account_token(w)) {
    Provenance at = w.service.pod_automount      ? w.service.pod_automount->from
                    : w.pod_spec_from.at.valid() ? w.pod_spec_from
                                                 : w.object_from;
    out.push_back({"the automounted token of service account " + w.service.account, at});
  }
  return out;
}

}  // namespace sbr::engine
