// Values spliced into code: the arguments of eval, `sh -c`, firewall rules (and the rule files
// they read), sed scripts and squid configuration written by the script. Records each spliced
// value that came from outside the script (argument, environment, read, substitution) with its
// source and whether an earlier exiting test validated it; the check judges.
#include <algorithm>
#include <set>

#include "analyzer/render/bash/evaluator.h"
#include "analyzer/render/bash/observe.h"
#include "analyzer/render/bash/words.h"

namespace sbr::bash {
namespace {

// A word whose value came from outside the script, validated since or not.
bool carries_input(const EWord& w) {
  return w.w.tainted || !w.taint_var.empty();
}

struct SinkWords {
  std::optional<SinkKind> sink;
  std::vector<const EWord*> words;
};

void shell_sink(const std::vector<EWord>& argv, const std::vector<EWord>& stdin_words,
                SinkWords& s) {
  for (size_t i = 1; i + 1 < argv.size(); ++i) {
    const std::string& o = argv[i].w.text;
    if (starts(o, "-") && !starts(o, "--") && o.find('c') != std::string::npos) {
      s.sink = SinkKind::ShellCommandString;
      if (carries_input(argv[i + 1])) s.words.push_back(&argv[i + 1]);
      return;
    }
  }
  if (stdin_words.empty()) return;
  s.sink = SinkKind::ShellStdin;
  for (const EWord& w : stdin_words)
    if (carries_input(w)) s.words.push_back(&w);
}

void sed_sink(const std::vector<EWord>& argv, SinkWords& s) {
  s.sink = SinkKind::SedScript;
  bool explicit_script = false;
  for (size_t i = 1; i < argv.size(); ++i) {
    const std::string& o = argv[i].w.text;
    if ((o == "-e" || o == "--expression") && i + 1 < argv.size()) {
      explicit_script = true;
      if (carries_input(argv[i + 1])) s.words.push_back(&argv[i + 1]);
      ++i;
    } else if (starts(o, "--expression=") && carries_input(argv[i])) {
      explicit_script = true;
      s.words.push_back(&argv[i]);
    }
  }
  if (explicit_script) return;
  for (size_t i = 1; i < argv.size(); ++i) {
    if (starts(argv[i].w.text, "-") && !argv[i].w.symbolic) continue;
    if (carries_input(argv[i])) s.words.push_back(&argv[i]);
    break;
  }
}

}  // namespace

void Evaluator::note_splices(const Invocation& inv, const std::vector<EWord>& argv,
                             const std::vector<EWord>& stdin_words, const std::string& write_target,
                             Ctx& ctx) {
  if (argv.empty()) return;
  std::string b = argv[0].w.symbolic ? "" : base_name(argv[0].w.text);
  SinkWords s;
  auto from_args = [&](size_t first) {
    for (size_t i = first; i < argv.size(); ++i)
      if (carries_input(argv[i])) s.words.push_back(&argv[i]);
  };
  auto from_stdin = [&] {
    for (const EWord& w : stdin_words)
      if (carries_input(w)) s.words.push_back(&w);
  };
  if (b == "eval") {
    s.sink = SinkKind::Eval;
    from_args(1);
  } else if (in(b, {"sh", "bash", "dash", "zsh", "ksh"})) {
    shell_sink(argv, stdin_words, s);
  } else if (is_firewall_tool(b)) {
    s.sink = SinkKind::FirewallRule;
    for (size_t i = 1; i < argv.size(); ++i) {
      if ((argv[i].w.text == "-f" || argv[i].w.text == "--file") && i + 1 < argv.size()) {
        auto tf = tainted_files_.find(argv[i + 1].w.text);
        if (tf != tainted_files_.end()) s.words.push_back(&tf->second);
        ++i;
        continue;
      }
      if (carries_input(argv[i])) s.words.push_back(&argv[i]);
    }
    from_stdin();
  } else if (b == "sed") {
    sed_sink(argv, s);
  }
  if (!write_target.empty() && write_target.find("squid") != std::string::npos) {
    s.sink = SinkKind::SquidConfig;
    from_stdin();
    if (b == "echo" || b == "printf") from_args(1);
  }
  if (!s.sink) return;
  // A quoted word of the command line is one argument; stdin and rule files are text.
  auto one_argument = [&](const EWord* w) {
    return w->in_quotes &&
           std::any_of(argv.begin(), argv.end(), [&](const EWord& a) { return &a == w; });
  };
  std::set<std::pair<std::string, bool>> seen;
  for (const EWord* w : s.words) {
    if (!seen.insert({w->taint_var, w->w.tainted}).second) continue;
    Splice sp;
    sp.sink = *s.sink;
    sp.sink_command = b;
    sp.variable = w->taint_var;
    sp.value_origin = w->w.origin;
    sp.source = w->taint_source;
    sp.validated = !w->w.tainted;
    sp.one_argument = one_argument(w);
    sp.entered_at = w->taint_at;
    sp.from =
        Provenance{w->w.from.at.valid() ? w->w.from.at : inv.from.at, Frontend::Bash, ctx.cond};
    observed().splices.push_back(std::move(sp));
  }
}

}  // namespace sbr::bash
