// The documented vocabulary of controls (docs/doc-claims.md): which code spans are flags, fields
// or rule names of which claim form, which prose phrases claim which control, and the words that
// make a sentence negated, conditional, hedged or advice. Tables, not guesses: a phrase that is
// not here is not a claim.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/model/claims.h"

namespace re2 {
class RE2;
}

namespace sbr::md {

// A case-insensitive RE2 of `pattern`, for the vocabulary's tables of phrases and markers.
std::unique_ptr<re2::RE2> compile_ci(const char* pattern);

// What a code span names, when the vocabulary knows it.
struct SpanControl {
  ClaimForm form = ClaimForm::Unknown;
  ClaimFamily family = ClaimFamily::Any;
  std::string value;       // the value the span states ("512", "gvisor"), or ""
  std::string token;       // the literal an evidence file must contain ("--cap-drop")
  bool weakness = false;   // names a weakness (`--privileged`): a claim only when negated
  std::string mount_path;  // a mount spec `SRC:DST:ro`: SRC (form MountReadOnly)
};

// A flag, field or rule name of the vocabulary, or a flag it does not know (form Unknown), or
// nullopt for anything else (a path, a word, a command).
std::optional<SpanControl> classify_span(std::string_view literal);

// `~/.agents`, `/workspace`, `$PWD`, `deploy/agent.yaml`: a path, not a control.
bool looks_like_path(std::string_view literal);

// A prose phrase that claims a control, with offsets relative to the text searched.
struct PhraseHit {
  ClaimForm form = ClaimForm::Unknown;
  std::size_t begin = 0, end = 0;
  std::string value;
  bool writable_only = false;  // OnlyMounts: "the only writable mount"
  // OnlyMounts: about the workspace alone ("sees only the project directory"): the clause's
  // other paths are not mounts it allows.
  bool workspace_only = false;
  // Where the phrase names its value ("runs under runc instead of gVisor": at "gVisor"); a
  // negation right before it unmakes the claim like one before the phrase. `begin` when none.
  std::size_t value_at = 0;
  // "implements layer N: AppArmor profile P": about the invocation or service the clause names.
  bool layer = false;
};

// Every phrase of the vocabulary in `clause` (code spans in backticks), in order, overlaps
// resolved in favour of the earlier and longer match.
std::vector<PhraseHit> find_phrases(std::string_view clause);

// Offsets of the access words of a clause: "read-only" (not part of `exclude`) and
// "writable"/"read-write", for the nearest-word rule of mount claims.
struct AccessWord {
  std::size_t at = 0;
  bool read_only = false;
};
std::vector<AccessWord> access_words(std::string_view clause);

// The words around a claim. `before` is the clause up to the claim, `after` what follows it.
// Each returns the marker found ("never", "should", "optional", "if") or "".
// `max_words`: how many words before the claim a negation may stand; a comma, a parenthesis or
// a conjunction ("and", "but") ends its reach earlier.
std::string negation_before(std::string_view before, int max_words = 4);
std::string negation_after(std::string_view after);
std::string advice_marker(std::string_view clause, bool imperative_counts);
std::string hedge_marker(std::string_view clause);
// "we plan to", "on the roadmap", "not yet": the clause speaks about the future, not today.
std::string planned_marker(std::string_view clause);
std::string condition_marker(std::string_view before);
// "on macOS", "under WSL": the clause is about one platform. Launchers' platform branches are
// not modelled, so such a claim is conditional.
std::string platform_marker(std::string_view clause);
// The platform a marker names, as CondAtom::platform spells it ("linux", "macos", "wsl",
// "windows"); "" for one the launchers' tests do not tell apart ("Apple silicon").
std::string marker_platform(std::string_view marker);
// "unless `--net full`": the exception's text from its word to the clause end, or "".
std::string exception_text(std::string_view clause);
// "always", "in every mode": the claim is about every path of a launcher.
bool says_every_path(std::string_view clause);

// Claims tables: a header naming the control column ("Stopped by", "Mitigation", "Control",
// "Enforced by"...) and the evidence column ("Evidence", "Test", "Verified by"...).
bool is_control_header(std::string_view header);
bool is_evidence_header(std::string_view header);

// A sandbox that runs inside the container (`bwrap`, `firejail`, `nsjail`, `landlock`...) named
// in `text`, by name or by its own flags (`--ro-bind`, `--unshare-pid`, `--die-with-parent`):
// the tool's name, or "". sbreview models containers, not such a jail, so a claim beside it
// may be about the jail (DiamondLightSource/claude-sandbox's bwrap inside its devcontainer).
std::string inner_sandbox_named(std::string_view text);

// The literal tokens that name a form's control in a file, for prose claims ("drops all
// capabilities" is mentioned by `--cap-drop`, `cap_drop` or `drop:`).
std::vector<std::string> form_tokens(ClaimForm f);

// Case-folds and collapses the hardened runtime names: runsc -> gvisor; kata*, fc,
// firecracker, microvm -> microvm; "" for anything else (runc, crun).
std::string hardened_runtime_value(std::string_view name);

}  // namespace sbr::md
