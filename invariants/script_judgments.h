// Judgments over the bash renderer's observations (model/script_observations.h): which
// observed steps fail open, which splices are unvalidated input, which resources lack a
// cleanup, and so on. Each is a pure function of one script's observations and carries its
// finding wording here, so the renderer records facts and only the checks decide.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analyzer/model/provenance.h"
#include "analyzer/model/script_observations.h"

namespace sbr::inv {

enum class ScriptFindingKind : std::uint8_t {
  ErrexitMissing,         // no `set -e` in force at the first container launch
  FailOpenStep,           // a security step whose failure lets the script go on
  UnvalidatedSplice,      // outside input reaches eval / sh -c / nft / iptables / squid / sed
  MissingCleanup,         // a started resource no trap removes (or only EXIT, under sh)
  TrapDiscardedByExec,    // exec after a trap: the trap never runs
  TrapAfterStart,         // the trap is installed after the resource it cleans up
  CurlPipeShell,          // downloaded code executed unverified
  EscapeHatch,            // an option that turns a control off silently; engine options from env
  SecretFileUnprotected,  // a secret written without umask 077 / chmod 600
  XtraceWithSecrets,      // set -x while a secret is expanded
  SecretInUrl,            // a credential in a URL, or a secret echoed
  CapabilityKeptAtExec,   // NET_ADMIN used by the setup, not dropped before the final exec
  PartialStrictMode,      // `set -e` at the first launch, but not `-u` or `pipefail`
  GateAfterStart,         // a gate exec'd into a container that was started detached before
};

// Stable kebab-case name, the first segment of the finding's fact path.
const char* script_finding_kind_name(ScriptFindingKind k);

struct ScriptJudgment {
  ScriptFindingKind kind = ScriptFindingKind::ErrexitMissing;
  std::string message;
  // The structured identity of what is judged (command, variable, resource, sink): the fact
  // path's tail. Never display wording, never a line number.
  std::string key;
  bool high_stakes = false;  // a published port, a port forwarder or a secret file left behind
  Provenance from;
  std::vector<Related> related;
};

// Invariant 7: errexit, fail-open steps, unvalidated splices, cleanup, exec after traps, escape
// hatches, downloaded code.
std::vector<ScriptJudgment> judge_lifecycle(const ScriptObservations& o);
// Invariant 7: options that turn a control off silently, engine options from the environment
// (script_judge_code.cpp); part of judge_lifecycle.
std::vector<ScriptJudgment> judge_escape_hatches(const ScriptObservations& o);
// Invariant 7: a download piped into an interpreter; part of judge_lifecycle.
std::vector<ScriptJudgment> judge_downloads(const ScriptObservations& o);
// Invariant 4: secret files, traces, URLs and echoes.
std::vector<ScriptJudgment> judge_secrets(const ScriptObservations& o);
// Invariant 2: capabilities kept across the final exec.
std::vector<ScriptJudgment> judge_privilege(const ScriptObservations& o);

// The strict-mode options missing beside `set -e`, in words ("`-u` and `-o pipefail`"); "" when
// none is (script_judge_lifecycle.cpp).
std::string missing_strict_options(bool nounset, bool pipefail);

// The one-at-a-place rule every judgment list follows: a judgment equal in kind, place and
// wording to an earlier one is not added again.
void add_unique(std::vector<ScriptJudgment>& out, ScriptJudgment j);

}  // namespace sbr::inv
