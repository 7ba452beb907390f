// Loops of the bash partial evaluator: `for` over words, `while`/`until` and the C-style
// `for ((...))`. A loop whose bound is unknown runs its body once, as a path of its own.
#include <fmt/format.h>

#include <algorithm>

#include "analyzer/render/bash/evaluator.h"
#include "analyzer/render/bash/observe.h"
#include "analyzer/support/strings.h"

namespace sbr::bash {

namespace {

// After one pass of a loop's body: whether the loop ends there (a `break`, of which it takes one
// level; a return; a dead path). A `break` that may or may not be taken on values the script does
// not fix ends it too: one more iteration would only repeat the same symbolic commands.
bool loop_stops(State& st) {
  if (st.may_break) {
    st.may_break = false;
    return true;
  }
  if (st.breaking > 0) {
    --st.breaking;
    return true;
  }
  return st.dead || st.returning;
}

}  // namespace

void Evaluator::for_statement(TSNode n, Ctx& ctx) {
  st_.may_break = false;
  TSNode var = field(n, F::variable);
  TSNode body = field(n, F::body);
  std::string name(ctx.tree->slice(var));
  std::vector<EWord> list;
  bool has_in = false;
  for (TSNode c : children(n)) {
    if (is(c, K::kw_in)) has_in = true;
  }
  if (has_in) {
    // The words between `in` and the body (field lookup by index is unreliable in the
    // runtime this builds against).
    bool after_in = false;
    for (TSNode c : children(n)) {
      if (!ts_node_is_named(c)) {
        if (is(c, K::kw_in)) after_in = true;
        continue;
      }
      if (!after_in || ts_node_eq(c, body) || is(c, K::comment)) continue;
      Value ws = expand_word(c, ctx);
      list.insert(list.end(), ws.words().begin(), ws.words().end());
    }
  } else if (!st_.positional_unknown) {
    list = st_.positional;
  } else {
    EWord w;
    w.w.symbolic = true;
    w.w.origin = "script arguments";
    w.w.tainted = true;
    w.taint_var = "arguments";
    w.taint_at = loc(n, ctx.tree);
    w.taint_source = ValueSource::Argument;
    w.default_known = false;
    list.push_back(w);
  }
  if (list.size() > limits_.max_loop_iterations) {
    cut_path(fmt::format("for loop over {} values: only the first {} were rendered", list.size(),
                         limits_.max_loop_iterations),
             loc(n, ctx.tree));
    list.resize(limits_.max_loop_iterations);
  }
  for (const EWord& item : list) {
    Var& slot = assign_slot(name, false);
    slot = Var{};
    slot.elems().push_back(item);
    Ctx bc = ctx;
    if (item.w.symbolic)
      bc.cond = join(
          ctx.cond,
          Condition::when({"for each " + name + " in " + item.w.origin, "", "", "", ""}, false));
    statement(body, bc);
    if (loop_stops(st_)) break;
  }
}

void Evaluator::loop_statement(TSNode n, Ctx& ctx) {
  st_.may_break = false;
  bool is_while = is(n, K::while_statement);
  bool until = is_while && ts_node_child_count(n) > 0 && is(ts_node_child(n, 0), K::kw_until);
  TSNode body = field(n, F::body);
  if (!is_while) {
    TSNode init = field(n, F::initializer);
    if (!ts_node_is_null(init)) arith(init, ctx);
  }
  TSNode cnd = field(n, F::condition);
  std::uint32_t iter = 0;
  for (;;) {
    Truth t;
    if (!ts_node_is_null(cnd)) {
      Ctx cc = ctx;
      cc.errexit_suppressed = true;
      cc.status = StatusUse::Condition;
      if (is_while) {
        t = condition(cnd, cc);
      } else {
        auto v = arith(cnd, cc);
        if (v) t.known = *v != 0;
        t.text = std::string(ctx.tree->slice(cnd));
      }
      if (until && t.known) t.known = !*t.known;
    } else {
      t.known = true;
    }
    if (t.known && !*t.known) break;
    if (!t.known) {
      // Unknown bound (`while read`, a retry loop): the body once, as a conditional path.
      Ctx bc = ctx;
      bc.cond =
          join(ctx.cond, t.text.empty() ? Condition::when({"the loop runs", "", "", "", ""}, false)
                                        : Condition::when(atom(t, true), false));
      State before = st_;
      statement(body, bc);
      st_.breaking = 0;
      st_ = merge_states(std::move(st_), std::move(before), bc.cond, ctx.cond, false);
      break;
    }
    std::string_view ctext = ts_node_is_null(cnd) ? std::string_view{} : ctx.tree->slice(cnd);
    bool constant = ctext == "true" || ctext == ":" || ctext == "(( 1 ))" || ctext == "((1))" ||
                    ctext == "[ 1 ]" || (!is_while && ts_node_is_null(cnd));
    if (iter == 0 && constant && !node_exits(body, ctx.tree) &&
        !runs_command(body, ctx.tree, "break")) {
      // An endless loop (a watchdog, a restart loop): its body once, and say so.
      cut_path("loop without an exit: one iteration rendered", loc(n, ctx.tree));
      statement(body, ctx);
      st_.breaking = 0;
      break;
    }
    if (++iter > limits_.max_loop_iterations) {
      cut_path(fmt::format("loop still running after {} iterations: rendered no further",
                           limits_.max_loop_iterations),
               loc(n, ctx.tree));
      break;
    }
    statement(body, ctx);
    if (loop_stops(st_)) break;
    if (!is_while) {
      TSNode upd = field(n, F::update);
      if (!ts_node_is_null(upd)) arith(upd, ctx);
    }
  }
}

}  // namespace sbr::bash
