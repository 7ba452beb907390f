// Facts about the shell script around a launch (filled by the bash frontend). Kept apart from
// Workload because one script launches several workloads and holds gates, traps and flows that
// are about the script, not one container.
#pragma once

#include <string>
#include <vector>

#include "analyzer/model/invocation.h"
#include "analyzer/model/provenance.h"
#include "analyzer/model/workload.h"

namespace sbr {

enum class ScriptFactKind : std::uint8_t {
  ErrexitMissing,          // no `set -e` (or equivalent) in force at a launch
  FailOpenStep,            // a security step whose failure is swallowed
  UnvalidatedSplice,       // tainted value reaches eval / sh -c / nft / iptables / squid / sed
  MissingCleanup,          // a host resource started without a trap removing it
  TrapDiscardedByExec,     // exec after a trap: the trap never runs
  TrapAfterStart,          // trap installed after the resource it cleans up
  CurlPipeShell,           // downloaded code executed unverified
  EscapeHatch,             // --insecure-*, extra-args variable reaching the command line
  SecretFileUnprotected,   // secret written without umask 077 / chmod 600
  XtraceWithSecrets,       // set -x while secrets are in variables
  SecretInUrl,             // https://user:token@ or a secret echoed
  CapabilityKeptAtExec,    // NET_ADMIN etc. not dropped before the untrusted exec
  PublishWithNetworkNone,  // -p with --network none: podman ignores the mapping
  EmptyAllowlistOpen,      // an empty allowlist in allow mode starts wide open
  SudoGrant,
};

// Stable kebab-case name of a fact kind, for dumps and fact paths.
inline const char* script_fact_kind_name(ScriptFactKind k) {
  switch (k) {
    case ScriptFactKind::ErrexitMissing:
      return "errexit-missing";
    case ScriptFactKind::FailOpenStep:
      return "fail-open";
    case ScriptFactKind::UnvalidatedSplice:
      return "unvalidated-splice";
    case ScriptFactKind::MissingCleanup:
      return "missing-cleanup";
    case ScriptFactKind::TrapDiscardedByExec:
      return "trap-discarded-by-exec";
    case ScriptFactKind::TrapAfterStart:
      return "trap-after-start";
    case ScriptFactKind::CurlPipeShell:
      return "curl-pipe-shell";
    case ScriptFactKind::EscapeHatch:
      return "escape-hatch";
    case ScriptFactKind::SecretFileUnprotected:
      return "secret-file-unprotected";
    case ScriptFactKind::XtraceWithSecrets:
      return "xtrace-with-secrets";
    case ScriptFactKind::SecretInUrl:
      return "secret-in-url";
    case ScriptFactKind::CapabilityKeptAtExec:
      return "capability-kept-at-exec";
    case ScriptFactKind::PublishWithNetworkNone:
      return "publish-with-network-none";
    case ScriptFactKind::EmptyAllowlistOpen:
      return "empty-allowlist-open";
    case ScriptFactKind::SudoGrant:
      return "sudo-grant";
  }
  return "script-fact";
}

struct ScriptFact {
  ScriptFactKind kind = ScriptFactKind::ErrexitMissing;
  std::string detail;        // what: the command, the variable, the resource
  bool high_stakes = false;  // cleanup of a published port or secret file
  Provenance from;
  std::vector<Related> related;
};

struct ScriptFacts {
  FileId file = kNoFile;
  std::vector<ScriptFact> facts;
  std::vector<EgressGate> gates;        // gates the script builds; link_gates attaches them
  std::vector<Invocation> invocations;  // every rendered command, in evaluated order
};

}  // namespace sbr
