// Statements and control flow of the bash partial evaluator.
#include "analyzer/render/bash/evaluator.h"
#include "analyzer/render/bash/observe.h"
#include "analyzer/support/run_budget.h"

#include <fmt/format.h>

#include <algorithm>

namespace sbr::bash {

Evaluator::Evaluator(const SourceFile& file, const SourceSet* sources, const RenderLimits& limits)
    : file_(file), sources_(sources), limits_(limits) {}

Location Evaluator::loc(TSNode n, const SyntaxTree* tree) const {
  return loc(ts_node_start_point(n), tree);
}

Location Evaluator::loc(TSPoint p, const SyntaxTree* tree) const {
  Location l;
  l.file = tree ? tree->file_id : file_.id;
  unsigned line0 = tree ? tree->line0 : 0, col0 = tree ? tree->column0 : 0;
  l.line = line0 + p.row + 1;
  l.column = (p.row == 0 ? col0 : 0) + p.column + 1;
  return l;
}

Provenance Evaluator::prov(TSNode n, const Ctx& ctx) const {
  return Provenance{loc(n, ctx.tree), Frontend::Bash, ctx.cond};
}

void Evaluator::abort_budget(const std::string& what, Location at) {
  // Hit inside a sourced library, the place is the library's: the message names the script
  // whose rendering stopped (thirty test scripts source one library).
  const std::string script = at.file == file_.id ? "the script" : "`" + file_.path + "`";
  throw RenderAbort{Problem{ProblemKind::BudgetExceeded,
                            fmt::format("bash evaluation budget exceeded ({}); the rest of {} "
                                        "was not rendered",
                                        what, script),
                            at}};
}

std::string Evaluator::script_too_large(std::size_t bytes) const {
  return fmt::format("a script of {} bytes, past {} MiB", bytes, limits_.max_script_bytes >> 20);
}

Evaluator::Nest::Nest(Evaluator& e, TSNode n, const Ctx& ctx) : e_(e) {
  if (e.nesting_ >= e.limits_.max_nesting) {
    // Thrown before the level is counted: ~Nest does not run for a constructor that throws.
    e.abort_budget(fmt::format("syntax nested more than {} levels deep", e.limits_.max_nesting),
                   e.loc(n, ctx.tree));
  }
  ++e.nesting_;
}

void Evaluator::step(TSNode n, const Ctx& ctx) {
  if (++steps_ > limits_.max_steps) {
    abort_budget(fmt::format("more than {} evaluation steps", limits_.max_steps), loc(n, ctx.tree));
  }
  if (steps_ % kStepsPerRunCheck == 0) {
    if (auto why = run_budget_exceeded()) abort_budget(*why, loc(n, ctx.tree));
  }
}

void Evaluator::charge_bytes(std::size_t n, Location at) {
  bytes_ += n;
  if (n > limits_.max_value_bytes) {
    abort_budget(fmt::format("a word longer than {} bytes", limits_.max_value_bytes), at);
  }
  if (bytes_ > limits_.max_total_bytes) {
    abort_budget(fmt::format("more than {} bytes of expansions", limits_.max_total_bytes), at);
  }
}

std::string Evaluator::script_dir() const {
  auto slash = file_.path.rfind('/');
  return slash == std::string::npos ? "." : file_.path.substr(0, slash);
}

ScriptRender Evaluator::run() {
  if (file_.bytes.size() > limits_.max_script_bytes) {
    out_.problems.push_back({ProblemKind::BudgetExceeded,
                             fmt::format("bash evaluation budget exceeded ({}); the script was "
                                         "not rendered",
                                         script_too_large(file_.bytes.size())),
                             Location{file_.id, 1, 1}});
    return std::move(out_);
  }
  auto tree = parse_bash_recovering(file_.bytes);
  tree->file_id = file_.id;
  const SyntaxTree* t = tree.get();
  trees_.push_back(std::move(tree));
  report_syntax(*t, "");
  // The shebang decides sh vs bash semantics (sh runs no EXIT trap on a signal) and `-x`.
  std::string_view head = std::string_view(file_.bytes).substr(0, file_.bytes.find('\n'));
  if (head.rfind("#!", 0) == 0) {
    bool bash_like =
        head.find("bash") != std::string_view::npos || head.find("zsh") != std::string_view::npos;
    posix_sh_ = !bash_like && (head.find("/sh") != std::string_view::npos ||
                               head.find(" sh") != std::string_view::npos ||
                               head.find("dash") != std::string_view::npos);
    auto sp = head.find(" -");
    if (sp != std::string_view::npos) {
      std::string_view flags = head.substr(sp + 2);
      if (flags.find('e') != std::string_view::npos) st_.opts.errexit = true;
      if (flags.find('x') != std::string_view::npos) {
        st_.opts.xtrace = true;
        st_.opts.xtrace_at = Location{file_.id, 1, 1};
      }
    }
  }
  Ctx ctx;
  ctx.tree = t;
  try {
    statements(t->root(), ctx);
  } catch (const RenderAbort& a) {
    out_.problems.push_back(a.problem);
  }
  run_entry_points();
  finish_facts();
  collapse_recursion();
  for (std::uint32_t i = 0; i < out_.invocations.size(); ++i) out_.invocations[i].sequence = i;
  return std::move(out_);
}

void Evaluator::report_syntax(const SyntaxTree& t, const std::string& sourced) {
  std::string where = sourced.empty() ? "the script" : "the sourced file " + sourced;
  for (const Repair& r : t.repairs) {
    out_.problems.push_back({ProblemKind::ParseRecovered,
                             fmt::format("{}; the rest of {} was analysed", r.what, where),
                             loc(TSPoint{r.row, r.column}, &t)});
  }
  TSNode err = first_error(t.root());
  if (ts_node_is_null(err)) return;
  Location at = loc(err, &t);
  if (!sourced.empty()) {
    out_.problems.push_back(
        {ProblemKind::ParseError, fmt::format("tree-sitter-bash cannot parse {} here", where), at});
    return;
  }
  std::string_view text = t.shown(err);
  std::string near(text.substr(0, std::min<size_t>(text.size(), 30)));
  std::replace(near.begin(), near.end(), '\n', ' ');
  out_.problems.push_back(
      {ProblemKind::ParseError,
       ts_node_is_missing(err)
           ? fmt::format("tree-sitter-bash cannot parse the script here (a missing `{}`); the "
                         "rest of the script was still rendered where it parsed",
                         ts_node_type(err))
           : fmt::format("tree-sitter-bash cannot parse the script near `{}`; the rest of the "
                         "script was still rendered where it parsed",
                         near),
       at});
}

// Runs the statements among `parent`'s named children, honouring a trailing `&` (written, or
// blanked by a parse repair after a here-document's start).
void Evaluator::statements(TSNode parent, Ctx& ctx) {
  uint32_t count = ts_node_child_count(parent);
  // The last statement of a returned body (a `-c` text) returns its status.
  uint32_t last = count;
  for (uint32_t i = 0; i < count; ++i) {
    TSNode n = ts_node_child(parent, i);
    K k = sym(n);
    if (ts_node_is_named(n) && k != K::comment && k != K::heredoc_body && k != K::variable_name &&
        k != K::word)
      last = i;
  }
  for (uint32_t i = 0; i < count; ++i) {
    if (st_.dead || st_.returning || st_.breaking > 0) return;
    TSNode n = ts_node_child(parent, i);
    if (!ts_node_is_named(n)) continue;
    K k = sym(n);
    if (k == K::comment || k == K::heredoc_body || k == K::variable_name || k == K::word) continue;
    Ctx c = ctx;
    c.status_returned = ctx.status_returned && i == last;
    if (ctx.status_returned && i != last) {
      c.status = StatusUse::Unchecked;
      c.caller_errexit.reset();
    }
    // `cmd &` puts the `&` after the statement as an anonymous sibling.
    if ((i + 1 < count && !ts_node_is_named(ts_node_child(parent, i + 1)) &&
         is(ts_node_child(parent, i + 1), K::amp)) ||
        ctx.tree->background_at(ts_node_start_byte(n))) {
      c.background = true;
      c.errexit_suppressed = true;
    }
    // A following statement that reads `$?` checks this one's status.
    for (uint32_t j = i + 1; j < count; ++j) {
      TSNode nx = ts_node_child(parent, j);
      if (!ts_node_is_named(nx)) continue;
      if (is(nx, K::comment)) continue;
      if (reads_status(nx, ctx.tree)) c.status = StatusUse::StatusReadNext;
      break;
    }
    statement(n, c);
  }
}

// A statement with redirects: a command, or a compound statement whose commands they apply to;
// `|| cmd` and `| cmd` tree-sitter attaches to a heredoc.
void Evaluator::redirected_statement(TSNode n, Ctx& ctx) {
  TSNode body = field(n, F::body);
  std::vector<TSNode> redirects;
  TSNode tail_op{}, tail_right{}, tail_pipe{};
  for (TSNode c : named_children(n)) {
    if (ts_node_eq(c, body)) continue;
    redirects.push_back(c);
    // tree-sitter-bash 0.23 attaches `|| cmd` / `| cmd` that follow a heredoc start to the
    // heredoc redirect itself: recover them as the list / pipeline they are.
    if (is(c, K::heredoc_redirect)) {
      for (TSNode h : children(c)) {
        if (is(h, K::pipeline)) tail_pipe = h;
      }
      TSNode r = field(c, F::right);
      if (!ts_node_is_null(r)) {
        tail_right = r;
        for (TSNode h : children(c)) {
          K hk = sym(h);
          if (!ts_node_is_named(h) && (hk == K::or_or || hk == K::and_and)) tail_op = h;
        }
      }
    }
  }
  if (ts_node_is_null(body)) return;
  Ctx c = ctx;
  if (!ts_node_is_null(tail_right)) {
    bool is_or = is(tail_op, K::or_or);
    c.errexit_suppressed = true;
    if (is_or) {
      c.status = status_after_or(tail_right, ctx.tree);
      c.status_at = loc(tail_op, ctx.tree);
    }
  }
  if (!ts_node_is_null(tail_pipe)) c.stdout_piped = true;
  if (is(body, K::command)) {
    command(body, c, redirects);
  } else {
    // A compound statement with redirects: the redirects apply to every command inside.
    if (!read_loop(body, redirects, c)) statement(body, c);
  }
  if (!ts_node_is_null(tail_pipe)) {
    Ctx pc = ctx;
    for (TSNode s : named_children(tail_pipe)) statement(s, pc);
  }
  if (!ts_node_is_null(tail_right)) {
    // The right side runs only when the left failed (||) or succeeded (&&): conditional.
    Ctx rc = ctx;
    rc.cond =
        join(ctx.cond,
             Condition::when(outcome_atom(ctx.tree->slice(body), is(tail_op, K::or_or)), false));
    State saved = st_;
    statement(tail_right, rc);
    if (is(tail_op, K::or_or)) {
      State after = st_;
      st_ = merge_states(std::move(saved), std::move(after), {}, {}, true);
    }
  }
}

// `left && right` / `left || right`: the right side runs on a path of its own.
void Evaluator::list_statement(TSNode n, Ctx& ctx) {
  std::vector<TSNode> kids = children(n);
  // list: left op right (left may itself be a list).
  TSNode left{}, right{}, op{};
  for (TSNode c : kids) {
    if (ts_node_is_named(c)) {
      if (ts_node_is_null(left))
        left = c;
      else
        right = c;
    } else if (is(c, K::and_and) || is(c, K::or_or)) {
      op = c;
    }
  }
  bool is_or = is(op, K::or_or);
  Ctx lc = ctx;
  // errexit does not apply left of && / ||; but left of a returned `&&`, a failure is the
  // list's, so the body's, and the caller judges it as it judges the body's status.
  if (is_or || !ctx.status_returned) {
    lc.errexit_suppressed = true;
    lc.status_returned = false;
    lc.caller_errexit.reset();
  }
  if (is_or) {
    lc.status = status_after_or(right, ctx.tree);
    lc.status_at = loc(op, ctx.tree);
  }
  // `[[ $x =~ re ]] || exit` validates x for the rest of the script.
  Truth t;
  bool is_test = is(left, K::test_command) || is(left, K::negated_command);
  if (is_test)
    t = condition(left, lc);
  else
    statement(left, lc);
  if (st_.dead) return;
  if (is_test && is_or && node_exits(right, ctx.tree)) {
    if (regex_test(left, ctx.tree)) {
      // Every variable tested with a regex is validated once the failure path exits.
      std::vector<std::string> vars;
      expanded_variables(left, ctx.tree, vars);
      for (const auto& v : vars) mark_validated(v);
    }
  }
  if (is_test && t.known) {
    // Decided: the right side runs only when && sees true / || sees false.
    if (*t.known == !is_or) statement(right, ctx);
    return;
  }
  Ctx rc = ctx;
  if (!is_test) {
    rc.cond = join(ctx.cond, Condition::when(outcome_atom(ctx.tree->slice(left), is_or), false));
  } else if (!t.text.empty()) {
    bool runs_when = !is_or;  // && runs right when true
    bool def = t.default_value.has_value() && (*t.default_value == runs_when);
    rc.cond =
        join(ctx.cond, Condition::when(atom(t, runs_when), t.default_value.has_value() && !def));
    // Decided the other way on one other path of a value it tests: the right side runs there.
    if (t.other_path && !def) rc.cond = join(ctx.cond, *t.other_path);
  }
  State saved = st_;
  if (is_test && t.other_path && !(t.default_value && *t.default_value == !is_or))
    narrow_to_path(t);
  statement(right, rc);
  st_ = merge_states(std::move(st_), std::move(saved), rc.cond, ctx.cond, false);
}

// `a | b | c`: each stage in a subshell of its own.
void Evaluator::pipeline_statement(TSNode n, Ctx& ctx) {
  std::vector<TSNode> stages;
  for (TSNode c : named_children(n)) stages.push_back(c);
  for (size_t i = 0; i < stages.size(); ++i) {
    Ctx c = ctx;
    c.in_pipeline_not_last = i + 1 < stages.size();
    c.stdout_piped = c.in_pipeline_not_last;
    if (c.in_pipeline_not_last && !st_.opts.pipefail) c.status = StatusUse::PipedWithoutPipefail;
    if (!c.in_pipeline_not_last) c.pipe_host_network = host_network_source(stages[0], ctx.tree);
    State saved = st_;
    statement(stages[i], c);
    // Every stage but the last runs in a subshell (and the last too, without lastpipe).
    bool keep_dead = st_.dead && i + 1 == stages.size();
    auto traps = st_.traps;
    st_ = saved;
    if (keep_dead) st_.dead = false;
  }
  note_fetch_pipes(n, ctx);
}

// `local`, `export`, `declare`, `typeset`, `readonly` and their flags.
void Evaluator::declaration(TSNode n, Ctx& ctx) {
  // The keyword token (`local`, `export`, `declare`...) as written.
  std::string_view head = ctx.tree->slice(ts_node_child(n, 0));
  bool local = head == "local";
  bool exported = head == "export";
  bool readonly = head == "readonly";
  bool arr = false, assoc = false, nameref = false;
  for (TSNode c : named_children(n)) {
    if (is(c, K::word)) {
      std::string_view f = ctx.tree->slice(c);
      if (f.rfind('-', 0) == 0) {
        if (f.find('n') != std::string_view::npos) nameref = true;
        if (f.find('a') != std::string_view::npos) arr = true;
        if (f.find('A') != std::string_view::npos) assoc = true;
        if (f.find('x') != std::string_view::npos) exported = true;
        if (f.find('r') != std::string_view::npos) readonly = true;
        if (f.find('g') != std::string_view::npos) local = false;
      }
    }
  }
  if ((head == "declare" || head == "typeset") && !st_.frames.empty()) {
    bool global = false;
    for (TSNode c : named_children(n))
      global = global || (is(c, K::word) && ctx.tree->slice(c).find('g') != std::string_view::npos);
    local = !global;
  }
  for (TSNode c : named_children(n)) {
    // A name a parse repair read as x's: what it declares is not known, nothing is declared.
    if (ctx.tree->touches_repair(c)) continue;
    if (is(c, K::variable_assignment) && nameref) {
      declare_nameref(c, ctx);
    } else if (is(c, K::variable_assignment)) {
      assign(c, ctx, local, exported, readonly, arr, assoc);
    } else if (is(c, K::variable_name)) {
      std::string nm(ctx.tree->slice(c));
      Var* existing = local ? nullptr : lookup_mut(nm);
      if (existing == nullptr) {
        Var& v = assign_slot(nm, local);
        if (arr || assoc) {
          v.array = true;
          v.assoc = assoc;
          v.elems().clear();
        } else if (v.elems().empty())
          v.elems().push_back(EWord{});
        v.exported = v.exported || exported;
        v.readonly = v.readonly || readonly;
      } else {
        existing->exported = existing->exported || exported;
        existing->readonly = existing->readonly || readonly;
        existing->serial = ++assignments_;  // changed: not the value the other path has
      }
    }
  }
}

// `declare -n ref=flags` (or `local -n arr=$1`): `ref` names `flags` from here on, when the
// name it is given is known. Scopes are not told apart: a nameref is rare, and reading through
// it as the variable it names is what bash does.
void Evaluator::declare_nameref(TSNode assignment, Ctx& ctx) {
  std::string name(ctx.tree->slice(field(assignment, F::name)));
  Value target = joined_value(field(assignment, F::value), ctx);
  if (target.alts.size() != 1 || target.alts[0].elems.size() != 1) return;
  const EWord& w = target.alts[0].elems[0];
  if (w.w.symbolic || w.w.text.empty() || w.w.text == name) return;
  namerefs_[name] = w.w.text;
}

void Evaluator::statement(TSNode n, Ctx& ctx) {
  if (ts_node_is_null(n) || st_.dead) return;
  step(n, ctx);
  Nest nest(*this, n, ctx);
  K k = sym(n);
  if (k == K::command) {
    command(n, ctx, {});
  } else if (k == K::redirected_statement) {
    redirected_statement(n, ctx);
  } else if (k == K::list) {
    list_statement(n, ctx);
  } else if (k == K::pipeline) {
    pipeline_statement(n, ctx);
  } else if (k == K::negated_command) {
    Ctx c = ctx;
    c.errexit_suppressed = true;
    if (c.status == StatusUse::Unchecked) c.status = StatusUse::Negated;
    for (TSNode s : named_children(n)) statement(s, c);
  } else if (k == K::subshell) {
    State saved = st_;
    statements(n, ctx);
    bool dead = st_.dead;
    st_ = saved;
    st_.dead = dead;  // `( ... exit )` ends only the subshell, but errexit makes it fatal
    st_.dead = false;
  } else if (k == K::compound_statement || k == K::do_group) {
    statements(n, ctx);
  } else if (k == K::if_statement) {
    if_statement(n, ctx);
  } else if (k == K::case_statement) {
    case_statement(n, ctx);
  } else if (k == K::for_statement) {
    for_statement(n, ctx);
  } else if (k == K::c_style_for_statement || k == K::while_statement) {
    loop_statement(n, ctx);
  } else if (k == K::function_definition) {
    TSNode name = field(n, F::name);
    TSNode body = field(n, F::body);
    if (!ts_node_is_null(name) && !ts_node_is_null(body)) {
      std::string fname(ctx.tree->slice(name));
      st_.functions.mut()[fname] = {body, ctx.tree};
      note_definition(fname, ctx.tree);
    }
  } else if (k == K::declaration_command) {
    declaration(n, ctx);
  } else if (k == K::variable_assignment) {
    assign(n, ctx, false, false, false, false, false);
  } else if (k == K::variable_assignments) {
    for (TSNode c : named_children(n))
      if (is(c, K::variable_assignment)) assign(c, ctx, false, false, false, false, false);
  } else if (k == K::unset_command) {
    for (TSNode c : named_children(n)) {
      std::string nm(ctx.tree->slice(c));
      if (nm.rfind('-', 0) == 0) continue;
      for (auto it = st_.frames.rbegin(); it != st_.frames.rend(); ++it) {
        if (it->get().count(nm) != 0 && it->mut().erase(nm)) return;
      }
      if (st_.globals.get().count(nm) != 0) st_.globals.mut().erase(nm);
      if (st_.functions.get().count(nm) != 0) st_.functions.mut().erase(nm);
    }
  } else if (k == K::test_command) {
    Ctx c = ctx;
    condition(n, c);
  } else {
    // Other nodes (arithmetic commands, unsupported forms): evaluate what they contain.
    for (TSNode c : named_children(n)) {
      K ck = sym(c);
      if (ck == K::command || ck == K::list || ck == K::pipeline || ck == K::redirected_statement ||
          ck == K::compound_statement || ck == K::subshell || ck == K::if_statement) {
        statement(c, ctx);
      }
    }
  }
}

}  // namespace sbr::bash
