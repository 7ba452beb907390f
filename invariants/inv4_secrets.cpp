// Invariant 4, environment and configuration: see docs/invariants/4-secrets.md. Messages name
// the variable or key that holds a secret, never its value.
#include <fmt/format.h>

#include "analyzer/support/secrets.h"
#include "generated/rule_ids.h"
#include "invariants/common.h"
#include "invariants/inv4_parts.h"
#include "invariants/modules.h"

namespace sbr::inv {
namespace {

// An env file that is a dump of the launching environment: /proc/<pid>/environ, or a process
// substitution of env/printenv/export -p. A named .env file is a choice of keys, not this.
bool is_host_environment_file(std::string_view path) {
  if (path.find("/proc/") != std::string_view::npos &&
      path.find("environ") != std::string_view::npos) {
    return true;
  }
  for (std::string_view dump : {"<(env", "<(printenv", "<(export", "<( env", "<( printenv"}) {
    if (path.rfind(dump, 0) == 0) return true;
  }
  return false;
}

// `$(OTHER)` (Kubernetes dependent variable) or `${X}`: a reference, not a written secret.
bool is_reference(std::string_view v) {
  if (v.size() < 3 || v[0] != '$') return false;
  char open = v[1], close = open == '(' ? ')' : open == '{' ? '}' : '\0';
  return close != 0 && v.back() == close && v.find(close) == v.size() - 1;
}

void check_bulk(const Workload& w, Findings& out) {
  for (const auto& b : w.env_bulk) {
    std::string msg;
    switch (b.kind) {
      case EnvBulkKind::SecretEnvFrom:
        msg = fmt::format(
            "{}: envFrom loads every key of Secret {} into the environment, including keys "
            "added later; reference the one key the agent needs with secretKeyRef",
            describe(w), b.name);
        break;
      case EnvBulkKind::HostEnvironment:
        msg = fmt::format(
            "{}: the launcher's whole environment is passed in (--env-host), with every token "
            "and key the host shell holds",
            describe(w));
        break;
      case EnvBulkKind::EnvFile:
        if (!is_host_environment_file(b.name)) continue;
        msg = fmt::format(
            "{}: the env file {} is a dump of the launcher's environment, so every token and "
            "key the host shell holds is passed in",
            describe(w), b.name);
        break;
      case EnvBulkKind::ConfigMapEnvFrom:
        continue;
    }
    out.add(make(w, rule::environment_passthrough, std::move(msg), b.from, "envFrom:" + b.name));
  }
}

void check_env(const Workload& w, Findings& out) {
  for (const auto& e : w.env) {
    if (e.source != EnvSource::Literal || e.value.empty()) continue;
    std::string format = secrets::key_format(e.value);
    if (!format.empty()) {
      out.add(make(w, rule::key_material_in_configuration,
                   fmt::format("{}: environment variable {} holds a literal {} written in the "
                               "configuration",
                               describe(w), e.name, format),
                   e.from, "env:" + e.name));
    } else if (secrets::is_secret_name(e.name) && !is_reference(e.value)) {
      out.add(make(w, rule::secret_literal_in_environment,
                   fmt::format("{}: environment variable {} looks secret and its value is written "
                               "in the configuration; read it from a Secret (secretKeyRef) instead",
                               describe(w), e.name),
                   e.from, "env:" + e.name));
    }
  }
  for (size_t i = 0; i < w.command.size(); ++i) {
    std::string format = secrets::key_format(w.command[i].value);
    if (format.empty()) continue;
    out.add(make(w, rule::key_material_in_configuration,
                 fmt::format("{}: argument {} of the command line holds a literal {}; it is "
                             "visible in the configuration and in every process listing",
                             describe(w), i, format),
                 w.command[i].from, fmt::format("command[{}]", i)));
  }
}

void check_data(const Model& model, Findings& out) {
  for (const auto& d : model.cluster.data) {
    std::string format = secrets::key_format(d.value);
    if (format.empty()) continue;
    Finding f;
    f.rule_id = rule::key_material_in_configuration;
    f.message = fmt::format("{} key {} holds a literal {} committed with the configuration",
                            d.object, d.key, format);
    f.at = d.from.at;
    f.condition = d.from.condition;
    f.subject = d.object;
    f.fact_path = "data:" + d.key;
    out.add(std::move(f));
  }
}

}  // namespace

void check_secret_environment(const Model& model, Findings& out) {
  for (const auto& w : model.workloads) {
    check_bulk(w, out);
    check_env(w, out);
  }
  check_data(model, out);
}

void check_secrets(const Model& model, Findings& out) {
  check_secret_environment(model, out);
  check_service_account(model, out);
  check_env_on_argv(model, out);
  check_login_volumes(model, out);
  check_script_secrets(model, out);
}

}  // namespace sbr::inv
