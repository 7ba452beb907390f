// Stable kebab-case names of the observation enums: used in model dumps and in the fact paths
// of script findings, so renaming an enumerator must not change them.
#include "analyzer/model/script_observations.h"

namespace sbr {

const char* status_use_name(StatusUse s) {
  switch (s) {
    case StatusUse::Unchecked:
      return "unchecked";
    case StatusUse::ExitsOnFailure:
      return "exits-on-failure";
    case StatusUse::StatusReadNext:
      return "status-read-next";
    case StatusUse::OrTrue:
      return "or-true";
    case StatusUse::OrContinue:
      return "or-continue";
    case StatusUse::PipedWithoutPipefail:
      return "piped-without-pipefail";
    case StatusUse::Negated:
      return "negated";
    case StatusUse::Condition:
      return "condition";
  }
  return "status";
}

const char* step_kind_name(StepKind k) {
  switch (k) {
    case StepKind::GateLoad:
      return "gate-load";
    case StepKind::CapabilityDrop:
      return "capability-drop";
    case StepKind::UserSwitch:
      return "user-switch";
  }
  return "step";
}

const char* step_effect_name(StepEffect e) {
  switch (e) {
    case StepEffect::Cleanup:
      return "cleanup";
    case StepEffect::Deny:
      return "deny";
    case StepEffect::Allow:
      return "allow";
    case StepEffect::Other:
      return "other";
  }
  return "other";
}

const char* sink_kind_name(SinkKind k) {
  switch (k) {
    case SinkKind::Eval:
      return "eval";
    case SinkKind::ShellCommandString:
      return "shell-command-string";
    case SinkKind::ShellStdin:
      return "shell-stdin";
    case SinkKind::FirewallRule:
      return "firewall-rule";
    case SinkKind::SedScript:
      return "sed-script";
    case SinkKind::SquidConfig:
      return "squid-config";
  }
  return "sink";
}

const char* value_source_name(ValueSource s) {
  switch (s) {
    case ValueSource::Argument:
      return "argument";
    case ValueSource::Environment:
      return "environment";
    case ValueSource::ConfigFile:
      return "config-file";
    case ValueSource::StdinRead:
      return "read";
    case ValueSource::CommandSubstitution:
      return "command-substitution";
    case ValueSource::NetworkRead:
      return "network-read";
    case ValueSource::Unknown:
      return "unknown";
  }
  return "unknown";
}

const char* resource_kind_name(ResourceKind k) {
  switch (k) {
    case ResourceKind::Container:
      return "container";
    case ResourceKind::PortForwarder:
      return "port-forwarder";
    case ResourceKind::Proxy:
      return "proxy";
    case ResourceKind::Network:
      return "network";
    case ResourceKind::Pod:
      return "pod";
    case ResourceKind::TempSecretFile:
      return "temp-secret-file";
  }
  return "resource";
}

}  // namespace sbr
