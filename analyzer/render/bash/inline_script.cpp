// Shell text a command runs in place: `bash -c 'CODE' name args...` on the host, and the same
// through `docker|podman exec [OPTIONS] CTR sh -c 'CODE'`, whose commands run in CTR: they are
// recorded behind the exec words, so that a firewall rule the text loads lands in CTR's
// network namespace (gates/gate_collector.cpp) and a `docker run` in it is not the host's.
#include <optional>
#include <set>

#include "analyzer/render/bash/evaluator.h"
#include "analyzer/render/bash/script_commands.h"
#include "analyzer/support/strings.h"

namespace sbr::bash {

namespace {

// `docker|podman|nerdctl exec [OPTIONS] CTR ...`: the index of CTR, when its options are read.
std::optional<std::size_t> exec_container_at(const std::vector<EWord>& cmd,
                                             const std::string& bname) {
  if ((bname != "docker" && bname != "podman" && bname != "nerdctl") || cmd.size() < 4 ||
      cmd[1].w.text != "exec")
    return std::nullopt;
  static const std::set<std::string> kValued = {"-e", "--env",     "-u",         "--user",
                                                "-w", "--workdir", "--env-file", "--detach-keys"};
  for (std::size_t i = 2; i < cmd.size(); ++i) {
    const std::string& o = cmd[i].w.text;
    if (cmd[i].w.symbolic || !starts(o, "-")) return i;
    if (kValued.count(o) != 0) ++i;
  }
  return std::nullopt;
}

}  // namespace

// Text parsed again at its place in the file (an `sh -c` script, a word read on its own), once
// per text and place: a helper that runs the same code for every test keeps one tree. `text`
// starts at `column0` (0-based) of the place's line.
const SyntaxTree* Evaluator::placed_tree(const std::string& text, Location at, unsigned column0) {
  auto key = std::make_tuple(at, column0, text);
  if (auto seen = placed_trees_.find(key); seen != placed_trees_.end()) return seen->second;
  auto t = parse_bash_recovering(text);
  t->file_id = at.file;
  t->line0 = at.line - 1;
  t->column0 = column0;
  trees_.push_back(std::move(t));
  placed_trees_.emplace(std::move(key), trees_.back().get());
  return trees_.back().get();
}

// `bash -c 'CODE' name args...`: the code is parsed and evaluated in place. Through
// `docker exec CTR` (any number of them, peeled in a loop), behind the exec words.
void Evaluator::run_inline_script(const std::vector<EWord>& cmd, const std::string& bname,
                                  Ctx& ctx) {
  if (!exec_container_at(cmd, bname)) {
    run_shell_text(cmd, bname, ctx);
    return;
  }
  std::vector<Word> outer = exec_prefix_;
  std::vector<EWord> run = cmd;  // copied only for an exec: every command comes here
  std::string name = bname;
  while (auto ctr = exec_container_at(run, name)) {
    for (std::size_t i = 0; i <= *ctr; ++i) exec_prefix_.push_back(run[i].w);
    run.erase(run.begin(), run.begin() + static_cast<long>(*ctr) + 1);
    if (run.empty() || run[0].w.symbolic) break;
    name = base_name(run[0].w.text);
  }
  run_shell_text(run, name, ctx);
  exec_prefix_ = std::move(outer);
}

void Evaluator::run_shell_text(const std::vector<EWord>& cmd, const std::string& bname, Ctx& ctx) {
  std::vector<std::string_view> words;
  words.reserve(cmd.size());
  for (const EWord& w : cmd) words.emplace_back(w.w.symbolic ? std::string_view() : w.w.text);
  auto text = shell_text_at(words);
  if (!text) return;
  const EWord& code = cmd[*text];
  if (code.w.symbolic) return;
  Location at = code.w.from.at;
  if (!inline_run_allowed(at)) return;
  const SyntaxTree* tp = placed_tree(code.w.text, at, at.column);  // after the opening quote
  State saved = st_;
  st_.positional.assign(cmd.begin() + static_cast<long>(std::min(cmd.size(), *text + 2)),
                        cmd.end());
  st_.positional_unknown = false;
  // A new shell: only its own options (`sh -ec`, `bash -e -u -c`), not the caller's `set -e`.
  st_.opts.errexit = st_.opts.nounset = st_.opts.pipefail = false;
  for (std::size_t j = 1; j < *text; ++j) {
    if (starts(words[j], "--")) continue;
    st_.opts.errexit = st_.opts.errexit || words[j].find('e') != std::string_view::npos;
    st_.opts.nounset = st_.opts.nounset || words[j].find('u') != std::string_view::npos;
  }
  Ctx sc = ctx;
  sc.tree = tp;
  sc.status_returned = true;  // the text's last statement is the command's status
  sc.caller_errexit = saved.opts.errexit;
  ++depth_;
  if (depth_ > static_cast<int>(limits_.max_call_depth))
    abort_budget("`sh -c` nested too deeply", at);
  call_path_.push_back(bname + " -c");
  statements(tp->root(), sc);
  call_path_.pop_back();
  --depth_;
  st_ = saved;
}

}  // namespace sbr::bash
