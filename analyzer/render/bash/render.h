// Partial evaluation of a bash script into the commands it would run (Invocations, each word
// with its origin and the condition of its path) and neutral observations of the
// script around them (security steps, splices, traps, resources; judged by INVARIANTS.md 2, 4
// and 7 checks). No TSNode crosses this interface.
#pragma once

#include <cstdint>
#include <vector>

#include "analyzer/model/invocation.h"
#include "analyzer/model/model.h"
#include "analyzer/source/source.h"

namespace sbr::bash {

// Budgets that keep any script finite. Exceeding one is a BudgetExceeded problem at the place
// it happened; what was rendered up to then is kept.
// What one expanded word costs beside its text (its origin and provenance), in the bytes of
// RenderLimits::max_total_bytes: `f "$@" "$@"` doubles words of one byte each.
inline constexpr std::size_t kWordBytes = 64;

struct RenderLimits {
  std::uint32_t max_steps = 1000000;       // evaluated syntax nodes, in total
  std::uint32_t max_loop_iterations = 64;  // per loop
  std::uint32_t max_call_depth = 32;       // function calls and `source`, nested
  // Statements, words, conditions and arithmetic nested inside each other: each level is a
  // native stack frame, and a hostile file nests thousands deep (`$(` 2,000 times).
  std::uint32_t max_nesting = 200;
  std::size_t max_value_bytes = std::size_t{256} * 1024;  // one expanded word
  // Words of one expansion (all its paths): `f "$@" "$@"` doubles them at every call, and each
  // word held costs far more than its text (about 1 KB with its copies in the call frames).
  std::size_t max_value_words = 16384;
  // Every expansion of the render: the largest real script (a 6,200-line integration test
  // that runs its product's import again and again) expands 55 MiB.
  std::size_t max_total_bytes = std::size_t{64} * 1024 * 1024;
  // Commands recorded: past max_text_tool_invocations, commands that only read and print
  // (echo, printf, grep, dirname...) are evaluated but no longer recorded (SB0019); past
  // max_invocations, the rest of the script is not rendered (SB0007).
  std::uint32_t max_text_tool_invocations = 5000;
  std::uint32_t max_invocations = 10000;
  // Per path, not per file (SB0019): a command's recorded runs from one call site (a loop inside
  // a helper called for every mount), and a function's runs for argument lists of other paths.
  std::uint32_t max_runs_per_place = 64;
  std::uint32_t max_function_variant_runs = 256;
  // Runs of the `sh -c` script written at one place, evaluated (later ones are not).
  std::uint32_t max_inline_runs_per_place = 4;
  // Once four fifths of max_steps are spent, a function whose own statements have taken more
  // than max_steps / hot_function_share steps is not called again (SB0019 at the call); once
  // nine tenths are, neither is one whose calls, nested ones included, have taken that much
  // over hot_function_calls calls or more: a test harness that runs its product's CLI in every
  // test spends the budget there, and the rest of the file would go unrendered.
  std::uint32_t hot_function_share = 8;
  std::uint32_t hot_function_calls = 3;
  // One script or sourced file's text: tree-sitter takes about 60 bytes of memory per byte of a
  // long script (12 MB of `: $x` lines took 745 MB); the longest real launcher is 290 KB.
  std::size_t max_script_bytes = std::size_t{4} << 20;
};

struct ScriptRender {
  std::vector<Invocation> invocations;  // in evaluated order; `sequence` is the index
  ScriptObservations observed;          // what the script does around them, for the checks
  std::vector<Problem> problems;
};

// `sources` resolves `source`/`.` of files inside the analysed tree; it may be null.
ScriptRender render_script(const SourceFile& file, const SourceSet* sources,
                           const RenderLimits& limits = {});

// Recognises a container launch (podman/docker/nerdctl run|create, container run|create,
// kube play) by its words, whatever the launch frontend later makes of it.
bool is_container_launch(const Invocation& inv);

}  // namespace sbr::bash
