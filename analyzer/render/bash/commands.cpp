// Simple commands: unwrapping sudo/env/command/exec, builtins that change the evaluator's state
// (set, trap, read, source, eval, exit...), function calls, and recording every other command
// as an Invocation.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <optional>

#include "analyzer/render/bash/evaluator.h"
#include "analyzer/render/bash/exported_env.h"
#include "analyzer/render/bash/fields.h"
#include "analyzer/render/bash/observe.h"
#include "analyzer/render/bash/path_idioms.h"
#include "analyzer/render/bash/unknown_parts.h"
#include "analyzer/render/bash/words.h"
#include "analyzer/render/bash/wrappers.h"
#include "analyzer/support/secrets.h"

namespace sbr::bash {

std::string Evaluator::path_of(const SyntaxTree* tree) const {
  FileId id = tree ? tree->file_id : file_.id;
  if (sources_ != nullptr && id < sources_->files.size()) return sources_->files[id].path;
  return file_.path;
}

bool is_container_launch(const Invocation& inv) {
  if (inv.argv.empty()) return false;
  const Word& w0 = inv.argv[0];
  std::string b = base_name(w0.text);
  bool engine = b == "podman" || b == "docker" || b == "nerdctl";
  if (!engine && w0.symbolic && w0.text.empty()) {
    std::string o = w0.origin;
    std::transform(o.begin(), o.end(), o.begin(), [](unsigned char c) { return std::tolower(c); });
    engine = o.find("engine") != std::string::npos || o.find("runtime") != std::string::npos ||
             o.find("docker") != std::string::npos || o.find("podman") != std::string::npos;
  }
  if (!engine) return false;
  size_t i = 1;
  while (i < inv.argv.size() && starts(inv.argv[i].text, "-")) {
    const std::string& o = inv.argv[i].text;
    bool takes = o.find('=') == std::string::npos &&
                 (o == "--context" || o == "-c" || o == "--host" || o == "-H" || o == "--url" ||
                  o == "--connection" || o == "--log-level" || o == "--config" || o == "--root" ||
                  o == "--runroot" || o == "--namespace" || o == "-n");
    i += takes ? 2 : 1;
  }
  if (i >= inv.argv.size()) return false;
  const std::string& sub = inv.argv[i].text;
  std::string next = i + 1 < inv.argv.size() ? inv.argv[i + 1].text : "";
  if (sub == "run" || sub == "create") return true;
  if (sub == "container") return next == "run" || next == "create";
  if (sub == "kube") return next == "play";
  return false;
}

const SyntaxTree* Evaluator::tree_for_source(const std::string& path_in, Location at) {
  if (sources_ == nullptr) return nullptr;
  // Resolve relative to the repository root (paths built on the script's directory) or to
  // the script's directory; never outside the root.
  if (path_in.empty() || path_in[0] == '$' || path_in[0] == '~') return nullptr;
  std::vector<std::string> candidates;
  if (path_in[0] == '/') {
    // Inside the container the repository is mounted or copied somewhere
    // (`$WORKSPACE/.sandbox/scripts/common.sh`, WORKSPACE=/workspace): a tail naming one of
    // its files is that file.
    auto in_repo = in_container_path(path_in, [&](const std::string& p) {
      return std::any_of(sources_->files.begin(), sources_->files.end(),
                         [&](const SourceFile& f) { return f.path == p && f.readable; });
    });
    if (!in_repo) return nullptr;
    candidates.push_back(*in_repo);
  } else {
    const SourceFile* f = repository_file(path_in);
    if (f == nullptr) return nullptr;
    candidates.push_back(f->path);
  }
  for (const auto& c : candidates) {
    auto n = normalise_repo_path(c);
    if (!n) continue;
    for (const SourceFile& f : sources_->files) {
      if (f.path != *n || !f.readable) continue;
      // A library sourced again (by every test of a suite, through `bash -c 'source lib &&
      // ...'`) is the same text: parsed and reported once per render, its tree shared.
      if (auto seen = sourced_trees_.find(f.id); seen != sourced_trees_.end()) return seen->second;
      if (f.bytes.size() > limits_.max_script_bytes)
        abort_budget(script_too_large(f.bytes.size()), at);
      auto t = parse_bash_recovering(f.bytes);
      t->file_id = f.id;
      std::string lower = f.path;
      bool script =
          lower.size() > 3 && (lower.substr(lower.size() - 3) == ".sh" ||
                               (lower.size() > 5 && lower.substr(lower.size() - 5) == ".bash"));
      t->config_file = !script;
      report_syntax(*t, f.path);
      trees_.push_back(std::move(t));
      sourced_trees_.emplace(f.id, trees_.back().get());
      return trees_.back().get();
    }
  }
  (void)at;
  return nullptr;
}

// A call of a function the script defined: its body runs in the caller's state, with the
// call's words as positional parameters and a frame for its locals.
void Evaluator::call_function(const std::string& name, const std::vector<EWord>& cmd,
                              const std::vector<TSNode>& args,
                              std::pair<TSNode, const SyntaxTree*> fn, TSNode n, Ctx& ctx) {
  if (depth_ + 1 > static_cast<int>(limits_.max_call_depth)) {
    // Deep recursion (a directory walk, a fork bomb): calls below the limit are not
    // followed; the step budget stops a recursion that fans out.
    if (!recursion_reported_) {
      recursion_reported_ = true;
      const std::string what =
          fmt::format("function calls nested deeper than {}: deeper calls were not rendered",
                      limits_.max_call_depth);
      // A function that calls itself (a retry, a directory walk) is recursion, bounded as
      // such: its path is cut. A chain of that many distinct functions is no script a person
      // writes: a budget finding (SB0007), and the rest of the script still runs.
      if (std::find(call_path_.begin(), call_path_.end(), name) != call_path_.end())
        cut_path(what, loc(n, ctx.tree));
      else
        out_.problems.push_back({ProblemKind::BudgetExceeded, what, loc(n, ctx.tree)});
    }
    return;
  }
  if (hot_function(name, n, ctx)) return;
  // The steps of this call, however it ends: all of them, and its own statements' (a nested
  // call's charged to the function that took them), so that a launcher whose helper scans an
  // array per mount cuts the helper, not the launcher that calls it (path_budget.cpp).
  struct Charge {
    FunctionCost& cost;
    const std::uint32_t& steps;
    std::uint32_t start;
    std::uint64_t*& callees_of_caller;
    std::uint64_t* outer;
    std::uint64_t callees = 0;
    ~Charge() {
      const std::uint64_t took = steps >= start ? steps - start : 0;
      cost.all += took;
      cost.own += took >= callees ? took - callees : 0;
      callees_of_caller = outer;
      if (outer != nullptr) *outer += took;
    }
  } charge{function_cost_[name], steps_, steps_, callee_steps_, callee_steps_};
  ++charge.cost.calls;
  callee_steps_ = &charge.callees;
  ++depth_;
  if (std::find(call_path_.begin(), call_path_.end(), name) != call_path_.end())
    recursive_.insert(name);
  call_path_.push_back(name);
  call_sites_.push_back(loc(n, ctx.tree));
  called_.insert(name);
  std::vector<EWord> fargs(cmd.begin() + 1, cmd.end());
  for (auto& a : fargs) {
    a.keep_from = true;
    if (!a.site_role) mark_site(a, StepRole::Argument, name);
  }
  auto [body, tree] = fn;
  std::vector<std::string> arg_vars;
  arg_vars.reserve(args.size());
  for (TSNode a : args) arg_vars.push_back(var_in(ctx.tree->slice(a)));
  validate_from_function(body, tree, fargs, arg_vars);
  auto saved_pos = st_.positional;
  bool saved_unknown = st_.positional_unknown;
  st_.positional = fargs;
  st_.positional_unknown = false;
  st_.frames.emplace_back();
  Ctx fc = ctx;
  fc.tree = tree;
  fc.background = false;
  fc.printed_on = nullptr;  // what the function prints is its own, on every list
  if (ctx.background) fc.errexit_suppressed = true;
  std::vector<TSNode> stmts;
  if (is(body, K::compound_statement) || is(body, K::subshell)) {
    for (TSNode s : named_children(body))
      if (!is(s, K::comment)) stmts.push_back(s);
  } else {
    stmts.push_back(body);
  }
  // A body that runs in a subshell keeps only what it launched: the state before it, copied
  // only then.
  const bool subshell = is(body, K::subshell) || ctx.background || ctx.in_pipeline_not_last;
  std::optional<State> before_sub;
  if (subshell) before_sub = st_;
  for (size_t k = 0; k < stmts.size(); ++k) {
    if (st_.dead || st_.returning) break;
    Ctx sc = fc;
    sc.status = k + 1 == stmts.size() ? ctx.status : StatusUse::Unchecked;
    sc.status_returned = k + 1 == stmts.size();
    if (!sc.status_returned) sc.caller_errexit.reset();
    if (k + 1 < stmts.size() && reads_status(stmts[k + 1], tree))
      sc.status = StatusUse::StatusReadNext;
    statement(stmts[k], sc);
  }
  st_.frames.pop_back();
  st_.positional = saved_pos;
  st_.positional_unknown = saved_unknown;
  st_.returning = false;
  if (before_sub) {
    st_ = std::move(*before_sub);
    st_.frames.pop_back();
    st_.positional = saved_pos;
    st_.positional_unknown = saved_unknown;
  }
  call_path_.pop_back();
  call_sites_.pop_back();
  --depth_;
}

// A function that calls itself (a retry or watch loop written as recursion) records its
// launches once per level, down to the call-depth bound: "f>f>f>...". The reader, the launch's
// label and its structural identity need the function once and the fact that it recurses.
void Evaluator::collapse_recursion() {
  if (recursive_.empty()) return;
  for (Invocation& inv : out_.invocations) {
    std::vector<std::string> path;
    for (const std::string& f : inv.call_path) {
      const std::string named = recursive_.count(f) != 0 ? f + " (recursive)" : f;
      if (std::find(path.begin(), path.end(), named) == path.end()) path.push_back(named);
    }
    inv.call_path = std::move(path);
  }
}

void Evaluator::command(TSNode n, Ctx& ctx, const std::vector<TSNode>& outer_redirects) {
  std::optional<CommandWords> cw = command_words(n, ctx, outer_redirects);
  if (!cw) return;  // assignments only
  std::vector<ArgvVariant> variants = argv_variants(*cw, ctx);
  // The other argument lists are recorded as conditional variants of a recorded command; a
  // function or builtin runs once, on the default values, unless another path names another
  // command (a dispatch table: `"${handlers[$cmd]}"`), which then runs on its path.
  cw->env_prefix = variants[0].env;
  // Another command named on another path runs instead of the default one, from the state
  // before it. The copy only when there is another path: a state holds every variable, and a
  // copy per command (per level of a recursion) was most of a render's memory.
  const bool other_paths = variants.size() > 1 || cw->stdin_value.size() > 1;
  const State before = other_paths ? st_ : State{};
  const std::size_t first = out_.invocations.size();  // the default list's, when recorded
  const bool function_call = variants.size() > 1 && calls_function(variants[0].argv);
  const bool recorded = run_words(variants[0].argv, *cw, n, ctx);
  if (!other_paths) return;
  // The same function on another path's words runs again on that path (path_budget.cpp).
  if (function_call) run_function_variants(variants, *cw, before, n, ctx);
  for (std::size_t k = 1; k < variants.size(); ++k) {
    if (!recorded && (variants[k].argv.empty() || variants[0].argv.empty() ||
                      variants[k].argv[0].w.text == variants[0].argv[0].w.text))
      continue;
    Ctx vc = ctx;
    vc.cond = join(ctx.cond, variants[k].cond);
    vc.printed_on = &variants[k].cond;
    // Every word of this list is on the variant's path, the command's name included (where a
    // launch is reported).
    for (EWord& w : variants[k].argv)
      w.w.from.set_condition(join(variants[k].cond, w.w.from.condition()));
    State after = std::move(st_);
    st_ = before;
    cw->env_prefix = variants[k].env;
    run_words(variants[k].argv, *cw, n, vc);
    st_ = std::move(after);
  }
  if (recorded) record_stdin_variants(variants.front(), *cw, before, first, n, ctx);
}

// A recorded command whose heredoc or here-string differs by path (`nft -f - <<EOF` with an
// `$ALLOW` an option sets) is recorded once more per other input, with the default argument
// list, on that input's path: the gate model sees every ruleset under its condition.
void Evaluator::record_stdin_variants(const ArgvVariant& def, const CommandWords& cw,
                                      const State& before, std::size_t first, TSNode n, Ctx& ctx) {
  for (std::size_t k = 1; k < cw.stdin_value.size(); ++k) {
    const Alt& in = cw.stdin_value.alts[k];
    if (ctx.cond.contradicts(in.cond)) continue;
    Ctx vc = ctx;
    vc.cond = join(ctx.cond, in.cond);
    vc.printed_on = &in.cond;
    ArgvVariant v = def;
    for (EWord& w : v.argv) w.w.from.set_condition(join(in.cond, w.w.from.condition()));
    CommandWords ic = cw;
    ic.stdin_words = in.elems;
    ic.env_prefix = v.env;
    State after = std::move(st_);
    st_ = before;
    const std::size_t at = out_.invocations.size();
    run_words(std::move(v.argv), std::move(ic), n, vc);
    // Another path's input of the same command, not a command run after it (the gate collector
    // replays the script with it in the default one's place).
    if (first < at && at < out_.invocations.size())
      out_.invocations[at].input_of = static_cast<std::uint32_t>(first);
    st_ = std::move(after);
  }
}

bool Evaluator::run_words(std::vector<EWord> argv, CommandWords cw, TSNode n, Ctx& ctx) {
  if (argv.empty()) return false;
  // Peel sudo / env / timeout / nice / setpriv ... (wrappers.cpp).
  Unwrapped u = unwrap(argv);
  if (u.lookup_only || u.start >= argv.size()) return false;
  for (auto& e : u.env_prefix) cw.env_prefix.push_back(std::move(e));
  std::vector<EWord> cmd(argv.begin() + static_cast<long>(u.start), argv.end());
  std::string name = cmd[0].w.symbolic ? "" : cmd[0].w.text;
  std::string bname = base_name(name);

  // Aliases come first: bash replaces the word before it looks for a function.
  if (u.start == 0 && !name.empty() && run_alias(name, n, ctx)) return false;

  // Function calls.
  const auto* fit = function(name);
  if (!u.bypass_functions && !u.via_exec && fit != nullptr) {
    // `NET=$net launch`: the function sees NET's value on every path, for the call only.
    if (!cw.env_vars.empty()) st_.frames.emplace_back();
    for (auto& [var, value] : cw.env_vars) {
      Var& slot = st_.frames.back().mut()[var].mut();
      slot.value = std::move(value);
      slot.exported = true;
      slot.serial = ++assignments_;
    }
    call_function(name, cmd, cw.args, *fit, n, ctx);
    if (!cw.env_vars.empty() && !st_.frames.empty()) st_.frames.pop_back();
    return false;
  }

  // Builtins that change the evaluator's state.
  if (!u.via_exec && !u.via_sudo &&
      builtin(bname, BuiltinCall{cmd, n, ctx, cw.stdin_words, cw.stdin_value, cw.stdin_file, cw.ifs,
                                 cw.words}))
    return false;

  // An external command (or echo/printf): record it.
  Invocation inv;
  inv.wrappers = std::move(u.wrappers);
  inv.via_exec = u.via_exec;
  inv.via_sudo = u.via_sudo;
  record_invocation(std::move(inv), cmd, cw, bname, n, ctx);
  run_inline_script(cmd, bname, ctx);
  if (u.via_exec && !ctx.background && !ctx.in_pipeline_not_last) st_.dead = true;
  return true;
}

namespace {

// Words of one command mostly share its path's condition and came through the same steps (or
// none): one trail for each such group instead of a copy per word. A 6,000-line test records
// 360,000 words, and a trail holding a long path condition is over a kilobyte.
void share_trails(Invocation& inv) {
  constexpr std::size_t kCompared = 16;  // distinct trails compared per command, at most
  std::vector<const TrailRef*> seen{&inv.from};
  auto share = [&](Word& w) {
    for (const TrailRef* t : seen) {
      if (t->condition() == w.from.condition() && t->via() == w.from.via()) {
        w.from.share_trail(*t);
        return;
      }
    }
    if (seen.size() < kCompared) seen.push_back(&w.from);
  };
  for (Word& w : inv.argv) share(w);
  for (Word& w : inv.env_prefix) share(w);
}

}  // namespace

void Evaluator::record_invocation(Invocation inv, const std::vector<EWord>& cmd, CommandWords& cw,
                                  const std::string& bname, TSNode n, Ctx& ctx) {
  capture_output(cmd, cw.stdout_redirected, ctx, prov(n, ctx));
  if (!record_run_here(bname, n, ctx)) return;
  if (out_.invocations.size() >= limits_.max_invocations) {
    abort_budget(fmt::format("more than {} commands", limits_.max_invocations), loc(n, ctx.tree));
  }
  inv.from = prov(n, ctx);
  inv.call_path = call_path_;
  inv.argv = exec_prefix_;
  for (const auto& w : cmd) {
    inv.argv.push_back(w.w);
    inv.argv.back().one_argument = (w.in_quotes || w.open_quoted) && !w.split_open;
    // A word that is one unknown piece was never joined: it is named here (`--name "$NAME"`).
    if (w.w.unknown_parts.empty()) inv.argv.back().unknown_parts = unknown_parts_of(w);
  }
  for (auto& w : cw.env_prefix) inv.env_prefix.push_back(w.w);
  if (runs_compose(inv.argv)) inv.exported_env = exported_values(st_);
  inv.shell.errexit = st_.opts.errexit;
  inv.shell.errexit_suppressed = ctx.errexit_suppressed;
  inv.shell.nounset = st_.opts.nounset;
  inv.shell.pipefail = st_.opts.pipefail;
  for (const Trap& t : st_.traps) inv.shell.exit_traps.push_back(t.handler);
  for (auto& w : cw.stdin_words) inv.stdin_text += w.w.text;
  inv.stdin_from = cw.stdin_from;
  if (inv.stdin_text.empty() && !cw.stdin_file.empty()) {
    auto tf = tainted_files_.find(cw.stdin_file);
    if (tf != tainted_files_.end()) cw.stdin_words.push_back(tf->second);
  }
  note_command_facts(inv, cmd, cw.stdin_words, ctx, cw.writes);
  for (size_t k = 0; k < cw.writes.size(); ++k) note_file_write(k, cw, cmd, bname, ctx);
  share_trails(inv);
  out_.invocations.push_back(std::move(inv));
}

namespace {

// The secret a command writes to its output file: a secret on its stdin, in the words `echo`
// and its kin print, or the whole environment from a bare `env`.
std::string written_secret(const std::vector<EWord>& stdin_words, const std::vector<EWord>& cmd,
                           const std::string& bname) {
  std::string secret;
  for (const auto& w : stdin_words)
    if (secret.empty()) secret = w.secret_var;
  if (bname == "echo" || bname == "printf" || bname == "cat" || bname == "tee") {
    for (size_t j = 1; j < cmd.size(); ++j)
      if (secret.empty()) secret = cmd[j].secret_var;
  }
  if (bname == "env" || bname == "printenv" || bname == "export")
    secret = secret.empty() && cmd.size() == 1 ? "the environment" : secret;
  return secret;
}

}  // namespace

// The k-th file the command writes: tainted content (a later `nft -f FILE` splices it) and
// secret content.
void Evaluator::note_file_write(size_t k, const CommandWords& cw, const std::vector<EWord>& cmd,
                                const std::string& bname, const Ctx& ctx) {
  const auto& [path, at] = cw.writes[k];
  for (const std::vector<EWord>* src : {&cw.stdin_words, &cmd}) {
    for (size_t j = (src == &cmd ? 1 : 0); j < src->size(); ++j) {
      if ((*src)[j].w.tainted) {
        tainted_files_[path] = (*src)[j];
        break;
      }
    }
  }
  std::string secret = written_secret(cw.stdin_words, cmd, bname);
  if (secret.empty()) return;
  const std::string& var = cw.write_vars[k];
  const Var* v = var.empty() ? nullptr : lookup(var);
  Write wr;
  wr.path = path;
  if (cw.write_shown[k] != path) wr.path_shown = cw.write_shown[k];
  wr.secret_var = secret;
  wr.from = Provenance{at, Frontend::Bash, ctx.cond};
  wr.protected_ = st_.opts.umask_strict || cw.write_temp[k];
  if (v) wr.protected_ = wr.protected_ || v->from_mktemp;
  wr.temp = cw.write_temp[k] || starts(wr.path, "/tmp/") || starts(wr.path, "/dev/shm/");
  if (v) wr.temp = wr.temp || v->from_mktemp;
  secret_writes_.push_back(wr);
  if (!wr.temp) return;
  Resource r;
  r.start.kind = ResourceKind::TempSecretFile;
  r.start.name = wr.path;
  r.start.name_shown = wr.path_shown;
  r.start.holds = secret;
  r.start.from = wr.from;
  if (!var.empty()) r.idents.push_back(var);
  r.idents.push_back(wr.path);
  add_resource(std::move(r));
}

}  // namespace sbr::bash
