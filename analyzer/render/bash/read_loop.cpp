// `while read -r line; do ...; done < <(flags)` (or a heredoc, a herestring): when the loop's
// input is known, the loop runs once per line, `read` giving each line to its variables as
// bash does. An unknown input keeps the one symbolic iteration of loop_statement.
#include <fmt/format.h>

#include <string>
#include <vector>

#include "analyzer/render/bash/evaluator.h"
#include "analyzer/render/bash/fields.h"
#include "analyzer/render/bash/observe.h"

namespace sbr::bash {
namespace {

bool known(const std::vector<EWord>& input) {
  if (input.empty()) return false;
  for (const EWord& w : input)
    if (w.w.symbolic) return false;
  return true;
}

}  // namespace

bool Evaluator::read_loop(TSNode loop, const std::vector<TSNode>& redirects, Ctx& ctx) {
  if (!is(loop, K::while_statement)) return false;
  TSNode cmd = statement_command(field(loop, F::condition));
  auto words = written_words(cmd, ctx.tree);
  if (words.empty() || words[0] != "read") return false;
  CommandWords in;
  redirect_words(in, redirects, ctx);
  Value input = in.stdin_value;
  if (auto it = substituted_files_.find(in.stdin_file);
      in.stdin_words.empty() && it != substituted_files_.end())
    input = it->second;
  if (!known(input.words())) return false;
  // The default path's input runs the loop in this state; each other path's input (known)
  // runs it from the state before, on that path, and the two states meet after the loop.
  const State before = st_;
  read_loop_lines(loop, input.words(), ctx);
  for (std::size_t k = 1; k < input.size(); ++k) {
    const Alt& alt = input.alts[k];
    if (!known(alt.elems) || ctx.cond.contradicts(alt.cond)) continue;
    State after = std::move(st_);
    st_ = before;
    Ctx kc = ctx;
    kc.cond = join(ctx.cond, alt.cond);
    read_loop_lines(loop, alt.elems, kc);
    // What the default input's iterations added holds where this input's path does not (one
    // test's negation, when it is one).
    Condition others = ctx.cond;
    if (alt.cond.atoms.size() == 1) {
      const CondAtom& a = alt.cond.atoms.front();
      others = join(ctx.cond, Condition::when({a.negation, a.shown, a.subject, "", ""}, false));
    }
    st_ = merge_states(std::move(after), std::move(st_), others, kc.cond, true);
  }
  return true;
}

// One path's input, a line per iteration, `read` giving each line to its variables.
void Evaluator::read_loop_lines(TSNode loop, const std::vector<EWord>& input, Ctx& ctx) {
  TSNode cmd = statement_command(field(loop, F::condition));
  TSNode body = field(loop, F::body);
  std::uint32_t iter = 0;
  for (const EWord& line : split_lines(input)) {
    if (++iter > limits_.max_loop_iterations) {
      cut_path(fmt::format("input of more than {} lines: the loop was rendered no further",
                           limits_.max_loop_iterations),
               loc(loop, ctx.tree));
      break;
    }
    Ctx cc = ctx;
    cc.errexit_suppressed = true;
    cc.status = StatusUse::Condition;
    std::optional<CommandWords> rw = command_words(cmd, cc, {});
    if (!rw) return;
    rw->stdin_words = {line};
    rw->stdin_value = Value({line});
    std::vector<EWord> argv = std::move(argv_variants(*rw, cc).front().argv);  // the default
    run_words(std::move(argv), std::move(*rw), cmd, cc);
    statement(body, ctx);
    if (st_.breaking > 0) {
      --st_.breaking;
      break;
    }
    if (st_.dead || st_.returning) break;
  }
}

}  // namespace sbr::bash
