// What documents say about the sandbox (docs/doc-claims.md): each control a README, SECURITY or
// threat-model page claims, where it is written, how the sentence around it reads, and the
// evidence files a claims table cites. Observations only: whether a claim holds is decided by
// the checks in invariants/doc_claims_*.cpp against the rest of the model.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/model/provenance.h"

namespace sbr {

// The control a claim names. Each form has one predicate (invariants/doc_claims_predicates.cpp)
// and belongs to one invariant.
enum class ClaimForm : std::uint8_t {
  Unknown,            // a flag in a control cell that the vocabulary does not know
  HardenedRuntime,    // 1: gVisor / runsc, a microVM (Kata, Firecracker); value: gvisor|microvm
  NotPrivileged,      // 1: "never `--privileged`"
  NoRuntimeSocket,    // 1: "no access to the Docker socket", "the Docker daemon is not mounted"
  CapDropAll,         // 2: `--cap-drop=ALL`, `drop: [ALL]`, "drops all capabilities"
  NoNewPrivileges,    // 2: `--security-opt no-new-privileges`, `allowPrivilegeEscalation: false`
  NonRootUser,        // 2: `--user 1000`, `runAsNonRoot: true`, "runs as a non-root user"
  ReadOnlyRoot,       // 2: `--read-only`, `readOnlyRootFilesystem: true`, "read-only root"
  SeccompProfile,     // 2: a seccomp profile (value: its name, or "" for any but unconfined)
  AppArmorProfile,    // 2: an AppArmor profile (value: its name)
  MountReadOnly,      // 3: "`~/.agents` is mounted read-only" (arguments: the paths)
  OnlyMounts,         // 3: "only the project directory is mounted" (arguments: the others)
  NotMounted,         // 3: "cannot access `~/.ssh`" (arguments: the paths)
  NoTokenAutomount,   // 4: `automountServiceAccountToken: false`
  NoCredentials,      // 4: "credentials never enter the container"
  NoNetwork,          // 5: `--network none`, "no network"
  EgressDefaultDeny,  // 5: `policy drop`, "default-deny egress"
  ProxyDenyAll,       // 5: squid's `http_access deny all`
  ProxyOnly,          // 5: "all traffic goes through the proxy"
  NoInternalReach,    // 5: "cannot reach the host / cloud metadata / the LAN" (value: which)
  LoopbackPublish,    // 5: "published ports bind 127.0.0.1 by default"
  MemoryLimit,        // 6: `--memory`, `limits.memory`, "memory limit"
  PidsLimit,          // 6: `--pids-limit`, "pids limit"
  CpuLimit,           // 6: `--cpus`, `limits.cpu`, "cpu limit"
  WallClock,          // 6: `--timeout`, `activeDeadlineSeconds`
  FailClosed,         // 7: "refuses to start if the gate fails"
  Ephemeral,          // 7: `--rm`, "removed when the container exits"
  NoPersistence,      // 7: "cannot persist beyond the container's lifetime"
};

// Which workloads a control can be about: a podman/docker flag or a compose key speaks about
// launched containers, a Kubernetes field about pods, prose and rule names about any.
enum class ClaimFamily : std::uint8_t { Any, Launch, Kubernetes };

enum class ClaimOrigin : std::uint8_t { Table, Prose };

// Which paths of a launcher the claim speaks about: the default one (no switches, also what
// "by default" says) or every one ("always", "in every mode").
enum class ClaimPaths : std::uint8_t { Default, Every };

// How the sentence around the control reads. Only Asserted claims are checked; the others are
// recognised so that they are never read as claims of the control.
enum class ClaimMood : std::uint8_t {
  Asserted,     // the control is said to be in place
  Negated,      // a negation next to it ("does not use `--read-only`"): not a claim
  Conditional,  // only on a path the document names ("when `--strict` is given")
  Hedged,       // "optional", "may", "can be"
  Advice,       // an instruction ("add `--cap-drop=ALL`", "should"): not a claim
  Planned,      // the future ("we plan to", "on the roadmap"): not a claim about today
  Recorded,     // release notes: what a release changed, not the configuration today
  Compared,     // a comparison document: what it says is mostly of other tools or options
};

struct Claim {
  ClaimForm form = ClaimForm::Unknown;
  ClaimFamily family = ClaimFamily::Any;
  ClaimOrigin origin = ClaimOrigin::Prose;
  ClaimPaths paths = ClaimPaths::Default;
  ClaimMood mood = ClaimMood::Asserted;
  std::string control;                 // as written: "--cap-drop=ALL", "drops all capabilities"
  bool literal = false;                // written as a code span (a flag, a field, a rule name)
  std::string value;                   // what the control states: "512", "4g", "gvisor"
  std::vector<std::string> arguments;  // the paths a mount claim names, as written
  bool writable_only = false;          // OnlyMounts: "the only writable mount"
  std::string marker;  // the words that made the claim negated, conditional, hedged or advice
  std::string unless;  // an exception the sentence names ("unless `--net full`")
  // The platform the sentence names ("on Linux", "under WSL"): "linux", "macos", "wsl",
  // "windows", or "". The claim is judged on the launcher's paths that run there.
  std::string platform;
  // Literal tokens that name the control in a test or configuration file ("--cap-drop",
  // "readOnlyRootFilesystem", "policy drop"): what an evidence file must mention.
  std::vector<std::string> tokens;
  // A path the block starts with ("`overlays/gvisor/`: runs under gVisor"): the claim is about
  // the workloads there. "" when the block names none.
  std::string subject;
  // A sandbox inside the container that the block or table row names (`bwrap`): the claim may
  // be about that jail, which sbreview does not model, so it is not checked (SB0032).
  std::string inner_sandbox;
  Location at;
  // Filled by link_documents: indices into Model::workloads of the workloads the claim speaks
  // about (the subject's, else the document's), and why, for --dump-model.
  std::vector<std::size_t> about;
  std::string about_note;
};

// A file a claims table cites as evidence for the controls of its row.
struct ClaimEvidence {
  std::string path;      // as written
  Location at;           // the code span or link
  std::string resolved;  // the file of the run it names; "" when none exists
  // The row's controls as a reader sees them (`--cap-drop=ALL`, "drops all capabilities"), and
  // those whose tokens the file never contains.
  std::vector<std::string> controls;
  std::vector<std::string> unmentioned;
};

// A path or name the document names in a code span or a link: which workloads it speaks about.
struct DocMention {
  std::string text;
  Location at;
};

// A fenced code block tagged as shell or YAML: an example, analysed only when configured.
struct DocExample {
  std::string language;
  Location at;  // the first line of the block's content
  bool analysed = false;
};

struct Document {
  FileId file = kNoFile;
  std::vector<Claim> claims;
  std::vector<ClaimEvidence> evidence;
  std::vector<DocMention> mentions;
  std::vector<DocExample> examples;
  std::string about_note;  // how the document's scope was decided (link_documents)
};

// `documents:` in .sbreview.yaml: which Markdown files are read for claims and what they are
// about (docs/doc-claims.md, "Scoping").
struct DocumentScope {
  std::string path;                // glob over document paths
  std::vector<std::string> about;  // globs over workload files; empty: the default scope
  bool claims = true;              // false: the document is not read for claims
  bool examples = false;           // analyse its fenced shell and YAML blocks as examples
  Location at;
};

std::string_view claim_form_name(ClaimForm f);
std::string_view claim_mood_name(ClaimMood m);
// The invariant a claim form's control belongs to (0 for Unknown).
int claim_form_invariant(ClaimForm f);

}  // namespace sbr
