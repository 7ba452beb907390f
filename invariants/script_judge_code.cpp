// Invariant 7 judgments about code and controls from outside the script: options that turn a
// control off without a warning, engine options taken from the environment, and downloads
// piped into an interpreter.
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <set>
#include <tuple>

#include "analyzer/support/strings.h"
#include "invariants/script_judgments.h"

namespace sbr::inv {
namespace {

using K = ScriptFindingKind;

bool is_hatch_option(const std::string& option) {
  static const char* hatches[] = {"--insecure",    "--allow-unenforced", "--no-sandbox",
                                  "--unsafe",      "--dangerously",      "--disable-firewall",
                                  "--no-firewall", "--skip-gate",        "--allow-unconfined"};
  return std::any_of(std::begin(hatches), std::end(hatches),
                     [&](const char* h) { return option.find(h) != std::string::npos; });
}

// Names of variables that carry extra engine options (PODMAN_EXTRA_ARGS, RUN_OPTS...).
bool is_options_variable(const std::string& v) {
  std::string low = lower(v);
  for (const char* p : {"extra", "_args", "_opts", "_flags", "options"})
    if (low.find(p) != std::string::npos) return true;
  return false;
}

}  // namespace

std::vector<ScriptJudgment> judge_escape_hatches(const ScriptObservations& o) {
  std::vector<ScriptJudgment> out;
  for (const OptionBranch& b : o.option_branches) {
    if (!is_hatch_option(b.option) || b.warns) continue;
    add_unique(out, {K::EscapeHatch,
                     fmt::format("option {} turns a control off without a warning", b.option),
                     "option." + b.option,
                     false,
                     b.from,
                     {}});
  }
  for (const EngineOptionWord& w : o.engine_options) {
    if (w.source != ValueSource::Environment || !is_options_variable(w.variable)) continue;
    add_unique(out,
               {K::EscapeHatch,
                fmt::format("{} passes arbitrary engine options from the environment", w.variable),
                "engine-options." + w.variable,
                false,
                w.from,
                {}});
  }
  return out;
}

std::vector<ScriptJudgment> judge_downloads(const ScriptObservations& o) {
  std::vector<ScriptJudgment> out;
  // One finding per download: its first interpreter stage.
  std::set<std::tuple<FileId, std::uint32_t, std::uint32_t>> judged;
  for (const FetchPipe& p : o.fetch_pipes) {
    std::string c = base_name(p.consumer);
    if (!(c == "sh" || c == "bash" || c == "dash" || c == "zsh" || c == "ksh" || c == "python" ||
          c == "python3" || c == "perl" || c == "ruby" || c == "node"))
      continue;
    if (!judged.insert({p.producer_at.file, p.producer_at.line, p.producer_at.column}).second)
      continue;
    add_unique(out, {K::CurlPipeShell,
                     fmt::format("output of {} is executed by {} without verification", p.producer,
                                 p.consumer),
                     p.producer + "." + c,
                     false,
                     p.from,
                     {Related{p.producer_at, "the download"}}});
  }
  return out;
}

}  // namespace sbr::inv
