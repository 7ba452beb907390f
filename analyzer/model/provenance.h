// Where every fact in the model came from. Facts are small: a file is an index into the run's
// file table, so a 10,000-workload model does not carry 10,000 copies of each path.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sbr {

using FileId = std::uint32_t;
inline constexpr FileId kNoFile = 0xffffffffu;

// 1-based line and column; 0 means "the whole file" (e.g. an unreadable file).
struct Location {
  FileId file = kNoFile;
  std::uint32_t line = 0;
  std::uint32_t column = 0;

  bool valid() const { return file != kNoFile; }
  friend bool operator==(const Location&, const Location&) = default;
  // NOLINTNEXTLINE(modernize-use-nullptr): clang-tidy 14 misreads a defaulted <=>
  friend auto operator<=>(const Location&, const Location&) = default;
};

enum class Frontend : std::uint8_t {
  Kubernetes,
  Bash,
  Compose,
  Devcontainer,
  Dockerfile,
  Seccomp,
  Nft,
  Iptables,
  Squid,
  Markdown,
  Config,
  Engine,  // a default the engine supplies, not something written in the input
};

// One conjunct of a path condition: what a reader is told ("AGENTBOX_NET=full"), its negation,
// and, when the value tested stays the same wherever it is tested (an environment variable
// the script never assigns, one assignment of a variable), that value's identity, so that two
// atoms about it can be seen to contradict each other.
struct CondAtom {
  std::string shown;
  std::string negation;
  std::string subject;  // "" = not comparable with other atoms
  std::string equals;   // the literal the subject equals when the atom holds, if it says so
  // A test of the platform the launcher runs on: "linux", "macos", "wsl", "windows" when the
  // atom holds there only, "!linux"... when it holds everywhere else; "" for other tests.
  std::string platform;
  friend bool operator==(const CondAtom&, const CondAtom&) = default;
};

// The subject of an atom that stands for a chart value rendered flipped from its default
// (a Helm switch): "render-switch " + chart directory + " " + key path. A finding of such a
// render that the default render also reports is the same finding, not a conditional one.
inline constexpr std::string_view kRenderSwitchSubject = "render-switch ";

// A fact reached only on some path of a script carries the condition of that path: a
// conjunction of atoms, and its text for display. needs_switch is true when the path is not
// the default one (it needs an explicit, non-default switch).
struct Condition {
  std::string text;
  bool needs_switch = false;
  std::vector<CondAtom> atoms;  // empty with a text: one atom, the text itself

  static Condition when(CondAtom atom, bool needs_switch);
  bool always() const { return text.empty(); }
  // Every atom of `weaker` is one of this condition's: whatever holds under `weaker` holds here.
  bool implies(const Condition& weaker) const;
  // Some atom of this condition and some atom of `other` cannot hold together.
  bool contradicts(const Condition& other) const;
  friend bool operator==(const Condition&, const Condition&) = default;
};

// The conjunction of two path conditions (atoms in order, each once).
Condition conjoin(const Condition& outer, const Condition& inner);

// One earlier place a value passed through on its way to the fact, with what happened there.
// The bash renderer fills the steps of a variable, an array element, a default or a function
// argument; rendered manifests (Helm, Kustomize) fill template and values steps.
enum class StepRole : std::uint8_t {
  Used,      // expanded here: the command word that uses the value
  Assigned,  // a variable assignment `X=value`
  Element,   // an array element `a=(value)` / `a+=(value)`
  Default,   // the default of `${X:-value}`
  Argument,  // a function argument at the call site
  Output,    // printed by a command or function whose output is captured
  Rendered,  // the rendered document (Helm/Kustomize output)
  Template,  // the template line that produced it
  Values,    // the values-file line that fed the template
  Patched,   // a Kustomize patch that changed it
};

struct Step {
  StepRole role = StepRole::Used;
  Location at;
  std::string note;  // short: the variable or function named at that step ("flags", "start")
  friend bool operator==(const Step&, const Step&) = default;
};

// Whether `c` is a chart value rendered flipped (an atom on kRenderSwitchSubject).
bool from_render_switch(const Condition& c);

// Whether a path under `c` can run on `platform` ("linux", "macos", "wsl", "windows"): no
// platform test of the path rules it out. WSL reports Linux to `uname -s`, so a Linux branch
// runs there too, but a WSL-only branch does not run on Linux. "" allows every path.
bool on_platform(const Condition& c, std::string_view platform);

// Steps a chain keeps: a value looped through many assignments names its nearest ones.
inline constexpr std::size_t kMaxSteps = 8;

// What a fact learned on its way to the model: the condition of the path that reached it and
// the places its value passed through. Most facts have neither, and the facts of one path or
// one value share one copy: a 10,000-workload stream holds about 70 provenance records per
// workload, and carrying both inline made each 104 bytes instead of 32 (docs/robustness.md).
struct Trail {
  Condition condition;
  std::vector<Step> via;  // where the value came from, nearest first; empty: written at `at`
};

// A shared Trail, copied on write: copying it costs no allocation, and the facts and findings
// of one path or one value point to one Trail. Null means the always-path and no steps.
class TrailRef {
 public:
  TrailRef() = default;
  TrailRef(Condition c, std::vector<Step> v);

  const Condition& condition() const;
  const std::vector<Step>& via() const;
  // Replace or edit one part; the other is kept. Copies are not affected: an edit copies a
  // Trail that is shared (the renderers edit only their own words' chains).
  void set_condition(Condition c);
  void set_via(std::vector<Step> v);
  Condition& edit_condition();
  std::vector<Step>& edit_via();
  // Takes the condition and steps of another fact, sharing them.
  void share_trail(const TrailRef& other) { trail_ = other.trail_; }

 private:
  Trail& own_trail();

  std::shared_ptr<Trail> trail_;  // never changed while shared
};

struct Provenance : TrailRef {
  Provenance() = default;
  // Most facts are written where they are: `via` is filled by the renderers that follow values.
  explicit(false) Provenance(Location a, Frontend fe = Frontend::Kubernetes, Condition c = {},
                             std::vector<Step> v = {})
      : TrailRef(std::move(c), std::move(v)), at(a), frontend(fe) {}

  Location at;
  Frontend frontend = Frontend::Kubernetes;
};

std::string_view step_role_name(StepRole r);

// One value with where it came from. std::optional<Fact<T>> keeps "unset" apart from "false".
template <class T>
struct Fact {
  T value{};
  Provenance from;
};

template <class T>
using Maybe = std::optional<Fact<T>>;

template <class T>
Fact<T> fact(T v, Provenance p) {
  return Fact<T>{std::move(v), std::move(p)};
}

// A location that contributes to a finding without being its cause.
struct Related {
  Location at;
  std::string message;
  friend bool operator==(const Related&, const Related&) = default;
};

}  // namespace sbr
