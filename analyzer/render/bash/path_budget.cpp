// Budgets of one path: when a loop, a call or a command runs past its bound, that path is cut
// and reported (PathCut, SB0019) and the evaluation goes on with the rest of the script. The
// budgets of the whole render (steps, commands, bytes, nesting) stay in evaluator.cpp.
#include <fmt/format.h>

#include <algorithm>
#include <string>

#include "analyzer/render/bash/evaluator.h"
#include "analyzer/render/bash/path_merge.h"
#include "analyzer/render/bash/platform_tests.h"
#include "analyzer/render/bash/words.h"
#include "analyzer/render/bash/wrappers.h"

namespace sbr::bash {

namespace {

// A function run for another path's arguments may itself call a function whose arguments
// differ by path; one level more is followed, deeper calls take their default arguments (the
// runs multiply per level).
constexpr int kMaxFunctionVariantDepth = 2;

// Commands that read and print and change nothing a check reads: in a long test script they
// are most of the commands (3,054 of 5,000 were echo and printf in one), and past
// max_text_tool_invocations only their output is kept.
bool is_text_tool(const std::string& b) {
  return is_text_filter(b) ||
         in(b, {"echo", "printf", "cat",      "basename", "dirname", "date",   "pwd", "uname",
                "true", "false",  "test",     "[",        "sleep",   "base64", "yq",  "printenv",
                "id",   "whoami", "realpath", "readlink", "stat",    "ls",     "seq"});
}

// Counts a construct as entered for as long as it lives, also when a budget unwinds it.
class Entered {
 public:
  explicit Entered(int& depth) : depth_(depth) { ++depth_; }
  ~Entered() { --depth_; }
  Entered(const Entered&) = delete;
  Entered& operator=(const Entered&) = delete;

 private:
  int& depth_;
};

// The default argument list's path: none of the other lists' paths, when each is one test
// (`started with --host`), so that an array the function fills holds the default run's
// elements only where the other runs' do not apply; else no condition of its own.
Condition default_path(const std::vector<Condition>& others) {
  Condition out;
  for (const Condition& c : others) {
    if (c.atoms.size() != 1) return {};
    const CondAtom& a = c.atoms.front();
    out = join(out, Condition::when(
                        {a.negation, a.shown, a.subject, "", negate_platform(a.platform)}, false));
  }
  return out;
}

// A path's condition as a clause: "when started with --host"; a condition that reads as a
// clause already ("when `cmd` succeeds and ...") is not given a second "when".
std::string when_text(const std::string& cond) {
  return cond.starts_with("when ") ? cond : "when " + cond;
}

}  // namespace

void Evaluator::cut_path(const std::string& what, Location at, std::string topic) {
  Problem p{ProblemKind::PathCut, what, at};
  p.topic = std::move(topic);
  out_.problems.push_back(std::move(p));
}

// Whether `argv` runs a function of the script (as run_words decides: wrappers peeled, not
// through `exec`, `command` or `builtin`).
bool Evaluator::calls_function(const std::vector<EWord>& argv) const {
  if (argv.empty()) return false;
  const Unwrapped u = unwrap(argv);
  if (u.lookup_only || u.bypass_functions || u.via_exec || u.start >= argv.size()) return false;
  const EWord& name = argv[u.start];
  return !name.w.symbolic && function(name.w.text) != nullptr;
}

// A function called with words that differ by path (`launch "$net"` after an option loop set
// `net=host` on one path) runs once more per other argument list, each on its path and from
// the state before the call; the states then meet as the items of a `case` do. The default
// list has already run, in `st_`.
void Evaluator::run_function_variants(std::vector<ArgvVariant>& variants, CommandWords& cw,
                                      const State& before, TSNode n, Ctx& ctx) {
  const std::string& name = variants[0].argv[0].w.text;
  std::vector<std::size_t> others;
  for (std::size_t k = 1; k < variants.size(); ++k) {
    if (variants[k].argv.empty() || variants[k].argv[0].w.text != name) continue;
    if (!ctx.cond.contradicts(variants[k].cond)) others.push_back(k);
  }
  if (others.empty()) return;
  const Location at = loc(n, ctx.tree);
  if (function_variant_depth_ >= kMaxFunctionVariantDepth) {
    cut_path(fmt::format("`{}` is called here with {} more argument lists on other paths, inside "
                         "a run for another path's arguments: only the default arguments were "
                         "rendered",
                         name, others.size()),
             at, fmt::format("nested argument lists of `{}`", name));
    return;
  }
  if (function_variant_runs_ + others.size() > limits_.max_function_variant_runs) {
    cut_path(fmt::format("`{}` is called here with {} more argument lists on other paths "
                         "(the first: {}): past {} such runs in the script, only the "
                         "default arguments were rendered",
                         name, others.size(), when_text(variants[others[0]].cond.text),
                         limits_.max_function_variant_runs),
             at, fmt::format("argument lists of `{}` past the bound", name));
    return;
  }
  std::vector<std::string> arg_vars;
  for (TSNode a : cw.args) arg_vars.push_back(var_in(ctx.tree->slice(a)));
  Entered entered(function_variant_depth_);
  PathMerge merge;
  const bool dead = st_.dead;
  std::vector<Condition> other_paths;
  other_paths.reserve(others.size());
  for (std::size_t k : others) other_paths.push_back(variants[k].cond);
  const Condition base = join(ctx.cond, default_path(other_paths));
  if (dead)
    merge.start(before, base, false);
  else
    merge.start(std::move(st_), base, true);
  for (std::size_t k : others) {
    ++function_variant_runs_;
    ArgvVariant& v = variants[k];
    st_ = before;
    Ctx vc = ctx;
    vc.cond = join(ctx.cond, v.cond);
    for (EWord& w : v.argv) w.w.from.set_condition(join(v.cond, w.w.from.condition()));
    Truth narrowed;
    narrowed.other_path = v.cond;
    narrowed.narrow = arg_vars;
    narrow_to_path(narrowed);
    cw.env_prefix = v.env;
    run_words(v.argv, cw, n, vc);
    merge.add(std::move(st_), vc.cond);
  }
  st_ = merge.finish();
}

// A command recorded again and again from one call site (a loop in a helper that every mount
// calls) is recorded up to the bound; later runs still run (their output is captured, their
// assignments made) but are not recorded, and the place says so once.
bool Evaluator::record_run_here(const std::string& bname, TSNode n, const Ctx& ctx) {
  const Location at = loc(n, ctx.tree);
  if (out_.invocations.size() >= limits_.max_text_tool_invocations && is_text_tool(bname)) {
    if (!text_tools_cut_) {
      text_tools_cut_ = true;
      cut_path(fmt::format("more than {} commands recorded: from here on, commands that only "
                           "read and print (echo, printf, grep, dirname...) were evaluated, not "
                           "recorded",
                           limits_.max_text_tool_invocations),
               at);
    }
    return false;
  }
  const Location site = call_sites_.empty() ? Location{} : call_sites_.back();
  std::uint32_t& runs = runs_at_[{at, site}];
  if (++runs <= limits_.max_runs_per_place) return true;
  if (runs == limits_.max_runs_per_place + 1) {
    cut_path(fmt::format("this command ran more than {} times from one call site (a loop, or a "
                         "function called in one): later runs were evaluated, not recorded",
                         limits_.max_runs_per_place),
             at);
  }
  return false;
}

// A function that has taken a large share of the step budget while the budget runs low (a test
// harness running its product's import in each of 85 tests, a helper scanning the argument list
// for each mount): its later calls are not evaluated, so the rest of the file still renders;
// the first call cut says so, once.
bool Evaluator::hot_function(const std::string& name, TSNode n, const Ctx& ctx) {
  if (steps_ <= limits_.max_steps / 5 * 4) return false;
  const std::uint64_t share = limits_.max_steps / std::max(1u, limits_.hot_function_share);
  auto it = function_cost_.find(name);
  if (it == function_cost_.end()) return false;
  // Hot by its own statements (a scan per mount) once four fifths are spent; by what its calls
  // cost, nested ones included, only once nine tenths are and when it is called again and again
  // (a test harness's product entry point, run by every test). The helper doing the work is
  // cut first, and the function that adds a mount or runs the launch goes on with the rest.
  const FunctionCost& cost = it->second;
  const bool own = cost.own > share;
  const bool all = cost.all > share && cost.calls >= limits_.hot_function_calls &&
                   steps_ > limits_.max_steps / 10 * 9;
  if (!own && !all) return false;
  if (hot_functions_.insert(name).second) {
    cut_path(fmt::format("function `{}` has taken more than {} evaluation steps{}, and the "
                         "script has used {} of its budget: later calls of it were not evaluated",
                         name, share, own ? "" : " with the functions it calls",
                         own ? "four fifths" : "nine tenths"),
             loc(n, ctx.tree));
  }
  return true;
}

// An `sh -c` script is a whole program, and one that sources the project's library (`bash -c
// 'source lib.sh && cai import "$@"'` in a test helper) costs a render of that library per run:
// one place's script runs up to the bound, whoever calls the helper; later runs are not
// evaluated (their output and effects are unknown) and the place says so once.
bool Evaluator::inline_run_allowed(Location at) {
  std::uint32_t& runs = inline_runs_[at];
  if (++runs <= limits_.max_inline_runs_per_place) return true;
  if (runs == limits_.max_inline_runs_per_place + 1) {
    cut_path(fmt::format("this `sh -c` script ran {} times: later runs were not evaluated",
                         limits_.max_inline_runs_per_place),
             at);
  }
  return false;
}

}  // namespace sbr::bash
