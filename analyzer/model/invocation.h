// A command as a launcher script would run it, after partial evaluation: every argument with
// its origin. The bash renderer produces these; the launch frontend turns container-engine
// invocations into workloads; gate parsers read nft/iptables ones.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/model/provenance.h"

namespace sbr {

// A part of a word the evaluator could not resolve and has no guess for (`$1`, an unset
// `$NAME`, `$(cmd)`): `text` holds nothing for it, so `$HOME/.sb/tools/$1/home` reads
// `$HOME/.sb/tools//home`. Where it was dropped (an offset into `text`) and a short name for it,
// so that a message can show `$HOME/.sb/tools/<unknown: $1>/home` (issue 34 §4). Display only:
// no option parsing, path classification, matching or fingerprint reads it.
struct UnknownPart {
  std::uint32_t at = 0;  // offset into the text, before the character it was dropped in front of
  std::string name;      // "$NAME", "$1", "$(cmd ...)"
};
// Parts kept per word: a word joined from thousands of unknown pieces is rare and unreadable.
inline constexpr std::size_t kMaxUnknownParts = 16;

// `text` with each unknown part shown as `<unknown: NAME>`; `text` itself when there is none
// (or when the parts no longer fit the text, which then changed without them).
std::string show_unknown(std::string_view text, const std::vector<UnknownPart>& parts);
// The parts that fall in text[begin, end] (both ends included: a part at the end of a slice,
// `$SRC` of `$SRC:/dst`, belongs to it), moved to offsets into that slice.
std::vector<UnknownPart> unknown_parts_in(const std::vector<UnknownPart>& parts, std::size_t begin,
                                          std::size_t end);

// One argument after expansion. A symbolic word keeps what it stands for, e.g.
// "env AGENTBOX_PUBLISH, default 5173:5173"; `text` is then the best concrete guess (the
// default) or empty.
struct Word {
  std::string text;
  bool symbolic = false;
  std::string origin;    // for symbolic words: env / argument / read / command substitution / file
  bool tainted = false;  // from the environment, arguments, config files, command substitution
  Provenance from;       // where the word is written (after following variables: the use site)
  // A symbolic word with no guess: a name for its unknown value that is the same wherever that
  // value is used (an environment variable the script never sets, `$NAME` of one assignment),
  // written as the word with each unknown part named: "agent-$NAME@bin/run.sh:4". Two words
  // with one identity hold the same value; "" says nothing.
  std::string identity;
  // A value computed from the host's own network configuration: what it was read from ("the
  // default gateway (`ip route`)"), followed through variables, functions and sourced files.
  std::string host_network;
  // bash: every unknown part was expanded inside double quotes (`--memory="$memory"`), so the
  // word stays one argument whatever its value; false when that is not known.
  bool one_argument = false;
  // Display only: the unknown parts `text` lacks, in order of their offsets (at most
  // kMaxUnknownParts).
  std::vector<UnknownPart> unknown_parts;

  // The text as a message shows it: `text` with its unknown parts named.
  std::string shown() const { return show_unknown(text, unknown_parts); }
  // What the word names (a container, a network): its text, or the identity of an unknown value.
  const std::string& name() const { return identity.empty() ? text : identity; }
};

// Shell state in force where the command runs (INVARIANTS.md 7).
struct ShellState {
  bool errexit = false;
  bool errexit_suppressed = false;  // in a condition, either side of && / ||, after !
  bool nounset = false;
  bool pipefail = false;
  std::vector<std::string> exit_traps;  // handlers installed on EXIT/INT/TERM before this point
};

// A command that ran the recorded one (`timeout 3600`, `nice -n 10`, `setpriv --nnp`), with its
// own arguments as written. The launch frontend reads what they imply (a wall clock).
struct WrapperUse {
  std::string name;               // "timeout"
  std::vector<std::string> args;  // its options and operands, e.g. {"-k", "10", "1h"}
  std::string operand;            // the positional it takes before the command ("1h"), if any
  Provenance from;                // the wrapper's word
};

struct Invocation {
  std::vector<Word> argv;  // argv[0] is the command after `sudo`, `env X=y`, `command`, `exec`
  std::vector<Word> env_prefix;  // VAR=value words before the command (env, inline assignments)
  // A compose command only: the script's exported variables with one value it knows there
  // (`export HOST_HOME=${HOME}` before `docker compose up`), which compose interpolates.
  std::vector<std::pair<std::string, std::string>> exported_env;
  bool via_exec = false;  // `exec cmd`: replaces the shell, traps never run
  bool via_sudo = false;
  std::vector<WrapperUse> wrappers;  // every wrapper in front of argv[0], outermost first
  Provenance from;                   // the command's first line; condition = the path it is on
  std::uint32_t sequence = 0;        // position in the evaluated call sequence of the script
  // The functions called on the way here, outermost first (empty at the top level). With the
  // command it is the launch's structural identity: unlike `sequence`, it does not shift when
  // unrelated commands are added above.
  std::vector<std::string> call_path;
  ShellState shell;
  std::string stdin_text;  // heredoc / here-string body when the command reads one
  Provenance stdin_from;   // where that body starts
  // The same command with the input it reads on another path (a heredoc whose `$ALLOW` an
  // option changes): the `sequence` of the invocation it stands in for on that path, which
  // from.condition names. Not a command run after that one (docs/bash-evaluation.md).
  std::optional<std::uint32_t> input_of{};
};

}  // namespace sbr
