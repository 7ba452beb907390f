// What the bash renderer observes in a launcher script, neutrally: which security steps run and
// how their exit status is used, which values are spliced into code and where they come from,
// which traps are installed, which resources are started and which trap removes them, what
// `exec` hands over, where secrets go. No observation says whether something is wrong: the
// checks in invariants/ judge them (invariants/script_judgments.h), with their own wording.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/model/provenance.h"

namespace sbr {

// How the exit status of a command is used where it runs.
enum class StatusUse : std::uint8_t {
  Unchecked,             // a statement on its own: only errexit stops the script on failure
  ExitsOnFailure,        // `cmd || exit 1`, `cmd || die ...`: the failure branch exits
  StatusReadNext,        // the next statement reads `$?`
  OrTrue,                // `cmd || true`, `cmd || :`: the failure is ignored
  OrContinue,            // `cmd || echo ...`: something runs on failure, then the script goes on
  PipedWithoutPipefail,  // not the last stage of a pipeline, without pipefail
  Negated,               // `! cmd` on its own: errexit ignores it
  Condition,             // an if/while condition: the branches decide
};
const char* status_use_name(StatusUse s);

// What a security step configures.
enum class StepKind : std::uint8_t { GateLoad, CapabilityDrop, UserSwitch };
const char* step_kind_name(StepKind k);

// What a firewall step does to the traffic, which decides the direction a failure fails in:
// a cleanup (flush, delete, destroy, create-if-missing) is idempotent and the rebuild follows; a
// deny that fails leaves traffic open; an allow that fails leaves traffic blocked.
enum class StepEffect : std::uint8_t { Cleanup, Deny, Allow, Other };
const char* step_effect_name(StepEffect e);

struct SecurityStep {
  StepKind kind = StepKind::GateLoad;
  std::string command;  // the first words of the command line, as rendered or as written
  // The whole command line (its words joined): what tells two steps with the same first words
  // apart (`iptables -A OUTPUT -p tcp` and `-p udp`).
  std::string line;
  StatusUse status = StatusUse::Unchecked;
  bool errexit_applies = false;  // errexit is on and not suppressed where the step runs
  // For a step that is an if condition: whether the branch taken on failure exits.
  std::optional<bool> failure_branch_exits;
  Location status_at;  // the `||` (or pipe) that decides how the status is used
  Provenance from;
  StepEffect effect = StepEffect::Other;  // from the command's words (facts.cpp step_effect)
};

// Code that a value is spliced into.
enum class SinkKind : std::uint8_t {
  Eval,
  ShellCommandString,  // sh -c STRING
  ShellStdin,          // a shell reading its script on stdin
  FirewallRule,        // nft / iptables / ipset arguments or rule files
  SedScript,
  SquidConfig,  // a squid configuration file written by the script
};
const char* sink_kind_name(SinkKind k);

// Where a value the script does not fix comes from.
enum class ValueSource : std::uint8_t {
  Argument,
  Environment,
  ConfigFile,  // a variable assigned in a sourced configuration file
  StdinRead,   // `read` from stdin or a file
  CommandSubstitution,
  NetworkRead,  // a command substitution that fetches from the network (curl, wget)
  Unknown,
};
const char* value_source_name(ValueSource s);

struct Splice {
  SinkKind sink = SinkKind::Eval;
  std::string sink_command;  // the sink's command: "eval", "bash", "nft", "sed", "printf"
  std::string variable;      // the value's identifier: variable, `argument $1`, substitution
  std::string value_origin;  // the evaluator's description of the value
  ValueSource source = ValueSource::Unknown;
  bool validated = false;  // an earlier test that exits on failure constrained it
  Location entered_at;     // where the value enters the script
  Provenance from;         // the spliced word
  // The value is one double-quoted word of the command line (`-d "$ip"`), not part of a
  // here-document, a rule file or a `-c` string: the tool receives it as one argument.
  bool one_argument = false;
};

struct TrapInstall {
  std::vector<std::string> signals;
  std::string handler;  // as written
  Location at;
};

enum class ResourceKind : std::uint8_t {
  Container,
  PortForwarder,
  Proxy,
  Network,
  Pod,
  TempSecretFile,  // a temporary file holding a secret
};
const char* resource_kind_name(ResourceKind k);

struct ResourceStart {
  ResourceKind kind = ResourceKind::Container;
  std::string name;  // container name, tool, network name, file path; empty when unnamed
  // Display only: the name with its unknown parts named (`cai-test-<unknown: $$>`); "" when
  // it has none (model/invocation.h UnknownPart).
  std::string name_shown;
  std::string holds;  // TempSecretFile: the secret variable written
  bool publishes_ports = false;
  Provenance from;
  // The first trap (index into ScriptObservations::traps) whose handler, rendered in the
  // script's final state, removes the resource; none when no handler mentions it.
  std::optional<std::size_t> cleanup_trap;
  bool cleanup_installed_before = false;  // that trap was in force when the resource started
};

// `exec` replacing the shell.
struct ExecHandover {
  Provenance from;     // the exec'd invocation
  Provenance command;  // its first word
  bool container_launch = false;
  std::vector<TrapInstall> traps_in_force;
  Location net_admin_used_at;         // a command needing NET_ADMIN ran earlier (invalid: none did)
  bool bounding_set_dropped = false;  // setpriv --bounding-set -all, capsh --drop=
  std::string user_switch;            // gosu, su-exec, runuser, setpriv...; empty: none
};

struct ContainerLaunch {
  std::string command;  // `podman run`
  bool errexit = false;
  bool nounset = false;   // `set -u` in force
  bool pipefail = false;  // `set -o pipefail` in force
  Provenance from;
};

// A secret variable's value expanded (or assigned) while `set -x` is on.
struct TracedSecret {
  std::string variable;
  bool assignment = false;
  Location xtrace_at;
  Provenance from;
};

// A URL word with userinfo (`scheme://user[:password]@host`).
struct UrlUserinfo {
  std::string secret_variable;  // the secret variable the word holds; empty: none
  bool has_password = false;
  std::string password_key_format;  // the credential format the userinfo matches; empty: none
  Provenance from;
};

// echo/printf of a secret variable to the terminal (not redirected, not piped).
struct SecretEcho {
  std::string command;
  std::string variable;
  Provenance from;
};

struct SecretFileWrite {
  std::string path;
  std::string path_shown;  // display only, as ResourceStart::name_shown
  std::string variable;
  bool created_private = false;  // umask 077 in force, or a mktemp file
  bool chmod_private = false;    // chmod 600 (or stricter) of the path somewhere in the script
  Provenance from;
};

enum class GrantKind : std::uint8_t { SudoersRule, SudoGroup };
struct PrivilegeGrant {
  GrantKind kind = GrantKind::SudoersRule;
  std::string target;  // the sudoers file written, or the command adding the user
  bool grants_all = false;
  bool nopasswd = false;
  Provenance from;
};

// A symbolic word among a container launch's engine options (before the image).
struct EngineOptionWord {
  std::string variable;
  ValueSource source = ValueSource::Unknown;
  Provenance from;
};

// A `case` item whose first pattern is a long option, and whether its branch warns (writes to
// stderr or calls logger, directly or through a function it calls).
struct OptionBranch {
  std::string option;  // the pattern as written
  bool warns = false;
  Provenance from;
};

// A pipeline stage whose command is a network fetch, and a later stage of the same pipeline.
struct FetchPipe {
  std::string producer;  // curl, wget, fetch
  std::string consumer;  // the later stage's command (after sudo/env/command)
  Location producer_at;
  Provenance from;  // the consumer stage
};

// A presence check of a security tool (`command -v iptables`, `which nft`, `type -p`, `hash`)
// whose failure branch skips the steps and succeeds: `return 0`, `return`, `exit 0`,
// `continue`; or an `if command -v T; then <steps>; fi` whose else (if any) does not fail.
struct ToolGuard {
  std::string tool;
  std::string check;    // the check as written
  bool warns = false;   // the failure branch writes to stderr or calls logger
  Location skipped_at;  // the return / exit 0 / continue, or the if whose steps are skipped
  Provenance from;      // the check
};

// `exit 0` (or a bare `exit`) in a branch a variable decides, before a security step of the
// same statement list, with no security step of its own.
struct EarlySuccess {
  std::string condition;  // the test as written
  Location gate_at;       // the first security step after the branch
  Provenance from;        // the exit
};

// A security step run inside a container (`podman exec agent iptables ...`) that the script
// started detached earlier: between the start and this step the container runs without it.
struct LateGate {
  std::string container;  // the name given to exec, as rendered
  std::string gate;       // the step's first words
  Location started_at;    // the detached start
  Provenance from;        // the exec
};

struct ScriptObservations {
  bool posix_sh = false;  // run by sh, not bash: an EXIT trap does not run on INT/TERM
  std::vector<SecurityStep> steps;
  std::vector<Splice> splices;
  std::vector<TrapInstall> traps;
  std::vector<ResourceStart> resources;
  std::vector<ExecHandover> execs;
  std::vector<ContainerLaunch> launches;
  std::vector<TracedSecret> traced_secrets;
  std::vector<UrlUserinfo> urls;
  std::vector<SecretEcho> secret_echoes;
  std::vector<SecretFileWrite> secret_files;
  std::vector<PrivilegeGrant> grants;
  std::vector<EngineOptionWord> engine_options;
  std::vector<OptionBranch> option_branches;
  std::vector<FetchPipe> fetch_pipes;
  std::vector<ToolGuard> tool_guards;
  std::vector<EarlySuccess> early_successes;
  std::vector<LateGate> late_gates;
};

}  // namespace sbr
