// Control flow of the bash partial evaluator: if/elif/else and case (loops: loops.cpp).
// Undecided branches are all rendered and their states merged (see merge_states).
#include <fmt/format.h>

#include <algorithm>
#include <functional>

#include "analyzer/render/bash/evaluator.h"
#include "analyzer/render/bash/observe.h"
#include "analyzer/render/bash/path_merge.h"
#include "analyzer/render/bash/platform_tests.h"
#include "analyzer/support/strings.h"

namespace sbr::bash {

namespace {

// The platform every pattern of a case item names ("Darwin|darwin*"), or "" (`*`, mixed).
std::string patterns_platform(const std::vector<std::string>& pats) {
  std::string found;
  for (const std::string& p : pats) {
    std::string one = pattern_platform(p);
    if (one.empty() || (!found.empty() && one != found)) return "";
    found = one;
  }
  return found;
}

// An `if` or `elif` clause: its condition (the first statement before `then`) and its body.
// For the `if` itself, the elif and else clauses go to `rest`.
TSNode split_clause(TSNode n, std::vector<TSNode>& body, std::vector<TSNode>* rest) {
  TSNode cond{};
  bool in_then = false;
  for (TSNode c : children(n)) {
    K ck = sym(c);
    if (ck == K::kw_then) {
      in_then = true;
      continue;
    }
    if (rest && (ck == K::elif_clause || ck == K::else_clause)) {
      rest->push_back(c);
      in_then = false;
      continue;
    }
    if (!ts_node_is_named(c) || ck == K::comment) continue;
    if (!in_then) {
      if (ts_node_is_null(cond)) cond = c;
    } else
      body.push_back(c);
  }
  return cond;
}

}  // namespace

void Evaluator::if_statement(TSNode n, Ctx& ctx) {
  // if C; then A; elif D; then B; else E; fi
  std::vector<TSNode> then_body;
  std::vector<TSNode> rest;  // elif_clause / else_clause
  TSNode cond = split_clause(n, then_body, &rest);
  // Conditions that are several statements (`if a; b; then`) are rare: the last decides.
  if_branch(cond, then_body, rest, 0, ctx);
}

// One `if`/`elif` clause and what follows it (rest[rest_i...]). `ctx` is the if statement's
// own, which an elif runs under with its path condition set.
void Evaluator::if_branch(TSNode cnd, const std::vector<TSNode>& body,
                          const std::vector<TSNode>& rest, size_t rest_i, Ctx& ctx) {
  Ctx cc = ctx;
  cc.errexit_suppressed = true;
  cc.status = StatusUse::Condition;
  // A security step as the whole condition: fail-open unless its failure branch exits.
  bool negated = is(cnd, K::negated_command);
  auto negated_kids = negated ? named_children(cnd) : std::vector<TSNode>{};
  TSNode inner = negated_kids.empty() ? cnd : negated_kids.back();
  std::optional<StepKind> security;
  if (is(inner, K::command) || is(inner, K::redirected_statement))
    security = node_security_step(inner, ctx.tree);
  Truth t = condition(cnd, cc);
  TSNode else_part = rest_i < rest.size() ? rest[rest_i] : TSNode{};
  validate_from_if(cnd, body, else_part, ctx.tree);
  if (security) note_condition_step(*security, inner, negated, body, else_part, ctx);
  if (t.known) {
    if (*t.known) {
      Ctx bc = ctx;
      if_body(body, bc);
    } else {
      Ctx ec = ctx;
      else_branch(rest, rest_i, ec, ctx);
    }
    return;
  }
  bool def_then = t.default_value.value_or(true);
  bool has_default = t.default_value.has_value();
  Ctx tc = ctx, ec = ctx;
  Condition then_c = Condition::when(atom(t, true), has_default && !def_then);
  Condition else_c = Condition::when(atom(t, false), has_default && def_then);
  // The branch the default value does not take runs on the path that gives the other value.
  if (t.other_path) (def_then ? else_c : then_c) = *t.other_path;
  tc.cond = join(ctx.cond, then_c);
  ec.cond = join(ctx.cond, else_c);
  State before = st_;
  if (!def_then) narrow_to_path(t);
  if_body(body, tc);
  State s_then = st_;
  st_ = before;
  if (def_then) narrow_to_path(t);
  else_branch(rest, rest_i, ec, ctx);
  State s_else = st_;
  bool then_default = !has_default || def_then;
  st_ = merge_states(std::move(s_then), std::move(s_else), tc.cond, ec.cond, then_default);
}

// A security step that is the whole condition, with which branch runs when it fails.
void Evaluator::note_condition_step(StepKind kind, TSNode inner, bool negated,
                                    const std::vector<TSNode>& body, TSNode else_part,
                                    const Ctx& ctx) {
  bool fail_branch_exits = false;
  if (negated) {
    for (TSNode s : body) fail_branch_exits = fail_branch_exits || node_exits(s, ctx.tree);
  } else if (!ts_node_is_null(else_part)) {
    fail_branch_exits = node_exits(else_part, ctx.tree);
  }
  SecurityStep step;
  step.kind = kind;
  step.command = shorten(ctx.tree->slice(inner), 63);
  for (const std::string& w : written_words(statement_command(inner), ctx.tree))
    step.line += (step.line.empty() ? "" : " ") + w;
  step.status = StatusUse::Condition;
  step.failure_branch_exits = fail_branch_exits;
  step.from = prov(inner, ctx);
  add_step(std::move(step));
}

void Evaluator::if_body(const std::vector<TSNode>& b, Ctx& bc) {
  for (TSNode s : b) {
    if (st_.dead || st_.returning || st_.breaking) break;
    Ctx sc = bc;
    statement(s, sc);
  }
}

// The else part: the next elif, the else clause, or nothing.
void Evaluator::else_branch(const std::vector<TSNode>& rest, size_t rest_i, Ctx& ec, Ctx& ctx) {
  if (rest_i >= rest.size()) return;
  TSNode r = rest[rest_i];
  if (is(r, K::else_clause)) {
    std::vector<TSNode> b;
    for (TSNode c : named_children(r))
      if (!is(c, K::comment)) b.push_back(c);
    if_body(b, ec);
    return;
  }
  std::vector<TSNode> b;
  TSNode ecnd = split_clause(r, b, nullptr);
  // An elif chain recurses once per elif: thousands of them end in a budget problem.
  Nest nest(*this, r, ctx);
  Ctx save = ctx;
  ctx.cond = ec.cond;
  if_branch(ecnd, b, rest, rest_i + 1, ctx);
  ctx = save;
}

namespace {

// The statements of a case item, after its `)`.
std::vector<TSNode> case_body(TSNode it) {
  std::vector<TSNode> b;
  bool after = false;
  for (TSNode c : children(it)) {
    if (!after) {
      if (is(c, K::paren_close)) after = true;
      continue;
    }
    if (ts_node_is_named(c) && !is(c, K::comment)) b.push_back(c);
  }
  return b;
}

}  // namespace

// The patterns of a case item, expanded.
std::vector<std::string> Evaluator::case_patterns(TSNode it, Ctx& ctx) {
  std::vector<std::string> pats;
  for (TSNode c : children(it)) {
    if (!ts_node_is_named(c)) {
      if (is(c, K::paren_close)) break;
      continue;
    }
    pats.push_back(expand_joined(c, ctx).w.text);
  }
  return pats;
}

void Evaluator::case_item_body(TSNode it, Ctx& ctx) {
  for (TSNode s : case_body(it)) {
    if (st_.dead || st_.returning || st_.breaking) break;
    statement(s, ctx);
  }
}

void Evaluator::case_statement(TSNode n, Ctx& ctx) {
  CaseStatement cs;
  cs.value = field(n, F::value);
  cs.subject = joined_value(cs.value, ctx);
  cs.v = cs.subject.words().empty() ? EWord{} : cs.subject.words().front();
  {
    std::vector<std::string> vars;
    expanded_variables(cs.value, ctx.tree, vars);
    if (!vars.empty()) cs.var = vars.front();
  }
  for (TSNode c : named_children(n))
    if (is(c, K::case_item)) cs.items.push_back(c);
  bool any_exits = false;
  for (TSNode it : cs.items) any_exits = any_exits || node_exits(it, ctx.tree);
  // Escape hatches parsed from arguments: `--insecure*) ...` that says nothing.
  for (TSNode it : cs.items) {
    for (TSNode pv : named_children(it)) {
      if (ts_node_is_null(field(it, F::value))) break;
      std::string_view pt = ctx.tree->slice(pv);
      if (pt.rfind("--", 0) != 0 && pt.rfind("\"--", 0) != 0) continue;
      observed().option_branches.push_back(
          OptionBranch{std::string(pt), node_warns(it, ctx.tree), prov(pv, ctx)});
      break;
    }
  }
  if (!cs.v.w.symbolic)
    case_known_value(cs, ctx);
  else
    case_unknown_value(cs, ctx);
  if (any_exits && !cs.var.empty()) mark_validated(cs.var);
}

// A known value takes one item; another path's value of the subject (`MODE=unsafe` set by an
// option) that takes another item runs that item on that path. An unknown value there is not
// followed.
void Evaluator::case_known_value(const CaseStatement& cs, Ctx& ctx) {
  // The item a concrete value takes (items.size(): none).
  auto item_for = [&](const std::string& text) {
    for (std::size_t i = 0; i < cs.items.size(); ++i)
      for (const auto& p : case_patterns(cs.items[i], ctx))
        if (glob_match(p, text)) return i;
    return cs.items.size();
  };
  auto run_item = [&](std::size_t i, Ctx& c) {
    if (i < cs.items.size()) case_item_body(cs.items[i], c);
  };
  const std::size_t taken = item_for(cs.v.w.text);
  std::vector<std::pair<std::size_t, Condition>> others;
  for (std::size_t ai = 1; ai < cs.subject.size(); ++ai) {
    const Alt& a = cs.subject.alts[ai];
    if (a.elems.empty() || a.elems.front().w.symbolic || ctx.cond.contradicts(a.cond)) continue;
    std::size_t i = item_for(a.elems.front().w.text);
    if (i != taken) others.emplace_back(i, a.cond);
  }
  if (others.empty()) {
    run_item(taken, ctx);
    return;
  }
  State before = st_;
  PathMerge merge;
  run_item(taken, ctx);
  const bool dead = st_.dead;
  merge.start(dead ? before : std::move(st_), ctx.cond, !dead);
  for (auto& [i, c] : others) {
    st_ = before;
    Ctx ic = ctx;
    c.needs_switch = true;
    ic.cond = join(ctx.cond, c);
    Truth narrowed;
    narrowed.other_path = c;
    if (!cs.var.empty()) narrowed.narrow = {cs.var};
    narrow_to_path(narrowed);
    run_item(i, ic);
    merge.add(std::move(st_), ic.cond);
  }
  st_ = merge.finish();
}

// Unknown value: every item is a path; the one the default value takes is the default.
void Evaluator::case_unknown_value(const CaseStatement& cs, Ctx& ctx) {
  const std::vector<TSNode>& items = cs.items;
  const EWord& v = cs.v;
  std::vector<bool> item_default(items.size(), false);
  std::optional<std::size_t> default_item;
  bool catch_all = false;
  for (std::size_t i = 0; i < items.size(); ++i) {
    auto pats = case_patterns(items[i], ctx);
    for (const auto& p : pats) catch_all = catch_all || p == "*";
    if (!v.default_known || default_item) continue;
    for (const auto& p : pats) item_default[i] = item_default[i] || glob_match(p, v.w.text);
    if (item_default[i]) default_item = i;
  }
  const std::string label = cs.var.empty() ? std::string(ctx.tree->slice(cs.value)) : cs.var;
  const std::string var_subject = cs.var.empty() ? "" : subject_of(cs.var);
  const bool platform_test = names_platform(label);
  std::vector<std::string> platforms_before;
  State before = st_;
  PathMerge merge;
  // No item is the default path: the base is the path where no item matched, or (with a
  // catch-all) a stand-in holding the values from before the `case`.
  if (!default_item) merge.start(before, ctx.cond, !catch_all);
  for (std::size_t i = 0; i < items.size(); ++i) {
    TSNode it = items[i];
    auto pats = case_patterns(it, ctx);
    std::string pj;
    for (size_t pi = 0; pi < pats.size(); ++pi)
      pj += (pi ? "|" : "") + (pats[pi].empty() ? "''" : pats[pi]);
    Ctx ic = ctx;
    CondAtom item = case_atom(label, pj, pats, var_subject, v);
    bool switched = v.default_known && !item_default[i];
    Condition earlier;    // a later item runs only where the platforms before it did not match
    if (platform_test) {  // `case "$(uname -s)" in Darwin)`: a platform's path, not a switch
      item.platform = patterns_platform(pats);
      switched = false;
      for (const std::string& p : platforms_before) {
        if (p == item.platform) continue;
        earlier = join(earlier, Condition::when({label + " is not " + p, label + " is " + p,
                                                 var_subject, "", negate_platform(p)},
                                                false));
      }
      if (!item.platform.empty()) platforms_before.push_back(item.platform);
    }
    ic.cond = join(join(ctx.cond, earlier), Condition::when(std::move(item), switched));
    st_ = before;
    case_item_body(it, ic);
    if (default_item && i == *default_item) {
      // The default path: its values are the default words, every other item's are
      // alternatives. When it ends the script (`*) usage; exit 2 ;;`), the variables keep
      // the values they had before the `case` as their default words.
      const bool dead = st_.dead;
      merge.start(dead ? before : std::move(st_), dead ? ctx.cond : ic.cond, !dead);
    } else {
      merge.add(std::move(st_), ic.cond);
    }
  }
  // The path where no pattern matched, unless an item matches everything (`*)`).
  if (!catch_all && default_item) merge.add(before, ctx.cond);
  st_ = merge.finish();
}

}  // namespace sbr::bash
