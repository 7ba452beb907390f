// Facts about the shell script around a launch (filled by the bash frontend). Kept apart from
// Workload because one script launches several workloads and holds gates, traps and flows that
// are about the script, not one container.
#pragma once

#include <string>
#include <vector>

#include "analyzer/model/provenance.h"
#include "analyzer/model/workload.h"

namespace sbr {

enum class ScriptFactKind : std::uint8_t {
  ErrexitMissing,      // no `set -e` (or equivalent) in force at a launch
  FailOpenStep,        // a security step whose failure is swallowed
  UnvalidatedSplice,   // tainted value reaches eval / sh -c / nft / iptables / squid / sed
  MissingCleanup,      // a host resource started without a trap removing it
  TrapDiscardedByExec, // exec after a trap: the trap never runs
  TrapAfterStart,      // trap installed after the resource it cleans up
  CurlPipeShell,       // downloaded code executed unverified
  EscapeHatch,         // --insecure-*, extra-args variable reaching the command line
  SecretFileUnprotected,  // secret written without umask 077 / chmod 600
  XtraceWithSecrets,   // set -x while secrets are in variables
  SecretInUrl,         // https://user:token@ or a secret echoed
  CapabilityKeptAtExec,   // NET_ADMIN etc. not dropped before the untrusted exec
  PublishWithNetworkNone, // -p with --network none: podman ignores the mapping
  EmptyAllowlistOpen,     // an empty allowlist in allow mode starts wide open
  SudoGrant,
};

struct ScriptFact {
  ScriptFactKind kind = ScriptFactKind::ErrexitMissing;
  std::string detail;  // what: the command, the variable, the resource
  bool high_stakes = false;  // cleanup of a published port or secret file
  Provenance from;
  std::vector<Related> related;
};

struct ScriptFacts {
  FileId file = kNoFile;
  std::vector<ScriptFact> facts;
  std::vector<EgressGate> gates;  // gates the script builds; link_gates attaches them
};

}  // namespace sbr
