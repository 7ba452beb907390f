// What the launcher leaves behind: started resources matched against the cleanup traps
// (rendered in the script's final state), traps installed too late, EXIT-only traps in sh, and
// secret files written without protection. Runs once the whole script has been rendered.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "analyzer/render/bash/evaluator.h"
#include "analyzer/render/bash/words.h"

namespace sbr::bash {
namespace {

bool mentions_var(std::string_view text, const std::string& var) {
  if (var.empty()) return false;
  for (std::string_view pre : {"$", "${"}) {
    std::string pat = std::string(pre) + var;
    size_t p = text.find(pat);
    while (p != std::string_view::npos) {
      size_t e = p + pat.size();
      if (e >= text.size() ||
          !(std::isalnum(static_cast<unsigned char>(text[e])) || text[e] == '_'))
        return true;
      p = text.find(pat, p + 1);
    }
  }
  return false;
}

}  // namespace

void Evaluator::finish_facts() {
  // What each handler runs, rendered in the final state: `"$ENGINE" rm -f "$NAME-proxy"`
  // becomes `podman rm -f agent-1-proxy`, which is what a started resource is matched against.
  const size_t trap_count = all_traps_.size();
  for (size_t ti = 0; ti < trap_count; ++ti) {
    Trap t = all_traps_[ti];  // a copy: the handler may itself call `trap`
    auto ht = parse_bash(t.handler);
    ht->file_id = t.at.file;
    ht->line0 = t.at.line - 1;
    ht->column0 = t.at.column - 1;
    const SyntaxTree* tp = ht.get();
    trees_.push_back(std::move(ht));
    State saved = st_;
    size_t inv_count = out_.invocations.size(), fact_count = out_.facts.size();
    size_t res_count = resources_.size();
    std::uint32_t saved_steps = steps_;
    st_.dead = false;
    st_.returning = false;
    st_.breaking = 0;
    steps_ = 0;  // the handler gets its own step budget
    try {
      Ctx hc;
      hc.tree = tp;
      statements(tp->root(), hc);
    } catch (const RenderAbort&) {
      // A handler that exceeds a budget adds nothing to what it is known to remove.
    }
    for (size_t i = inv_count; i < out_.invocations.size(); ++i) {
      t.expanded += "\n";
      for (const Word& w : out_.invocations[i].argv) t.expanded += w.text + " ";
    }
    out_.invocations.resize(inv_count);
    out_.facts.resize(fact_count);
    resources_.resize(res_count);
    traps_at_start_.resize(res_count);
    st_ = saved;
    steps_ = saved_steps;
    all_traps_.resize(trap_count);
    all_traps_[ti].expanded = t.expanded;
  }
  // Handlers that call functions defined after the trap.
  for (Trap& t : all_traps_) {
    auto sp = t.handler.find_first_of(" ;\n");
    std::string first = t.handler.substr(0, sp);
    auto f = st_.functions.find(first);
    if (f != st_.functions.end() &&
        t.expanded.find(std::string(f->second.second->slice(f->second.first))) ==
            std::string::npos) {
      t.expanded += "\n" + std::string(f->second.second->slice(f->second.first));
    }
  }
  auto covers = [&](const Trap& t, const Resource& r) {
    const std::string& h = t.expanded;
    bool exit_like = false;
    for (const auto& s : t.signals)
      exit_like = exit_like || in(s, {"EXIT", "INT", "TERM", "HUP", "ERR"});
    if (!exit_like) return false;
    for (const auto& id : r.idents) {
      if (id.empty()) continue;
      if (mentions_var(h, id)) return true;
      if (id.find('/') != std::string::npos || id.size() > 3) {
        if (h.find(id) != std::string::npos) return true;
      }
    }
    bool generic_kill =
        h.find("kill 0") != std::string::npos || h.find("jobs -p") != std::string::npos ||
        h.find("kill %") != std::string::npos || h.find("pkill -P") != std::string::npos;
    if (r.what.rfind("port forwarder", 0) == 0 || r.what.rfind("proxy", 0) == 0)
      return generic_kill;
    if (r.idents.empty()) {
      bool engine = h.find("podman") != std::string::npos ||
                    h.find("docker") != std::string::npos ||
                    h.find("ENGINE") != std::string::npos || h.find("nerdctl") != std::string::npos;
      return engine && (h.find(" rm") != std::string::npos || h.find("stop") != std::string::npos ||
                        h.find("kill") != std::string::npos);
    }
    return false;
  };
  for (size_t i = 0; i < resources_.size(); ++i) {
    const Resource& r = resources_[i];
    const Trap* cover = nullptr;
    for (const Trap& t : all_traps_) {
      if (covers(t, r)) {
        cover = &t;
        break;
      }
    }
    if (cover == nullptr) {
      add_fact(ScriptFactKind::MissingCleanup,
               fmt::format("{} is started but no trap removes it when the script exits or fails",
                           r.what),
               r.from, {}, r.high_stakes);
      continue;
    }
    bool before = std::any_of(traps_at_start_[i].begin(), traps_at_start_[i].end(),
                              [&](const Trap& t) { return t.at == cover->at; });
    if (!before) {
      add_fact(ScriptFactKind::TrapAfterStart,
               fmt::format("{} is started before the trap that removes it is installed: a failure "
                           "in between leaves it behind",
                           r.what),
               r.from, {Related{cover->at, "the trap is installed here"}}, r.high_stakes);
    } else if (posix_sh_) {
      bool signal = false;
      for (const auto& s : cover->signals) signal = signal || in(s, {"INT", "TERM", "HUP"});
      if (!signal) {
        add_fact(ScriptFactKind::MissingCleanup,
                 fmt::format("{} is removed only by an EXIT trap, which sh does not run on INT or "
                             "TERM",
                             r.what),
                 Provenance{cover->at, Frontend::Bash, {}},
                 {Related{r.from.at, "the resource starts here"}}, r.high_stakes);
      }
    }
  }
  for (const Write& w : secret_writes_) {
    if (w.protected_ || chmodded_.count(w.path)) continue;
    add_fact(ScriptFactKind::SecretFileUnprotected,
             fmt::format("{} is written to {} without umask 077 or chmod 600: other users can read "
                         "it",
                         w.secret_var, w.path),
             w.from);
  }
}

ScriptRender render_script(const SourceFile& file, const SourceSet* sources,
                           const RenderLimits& limits) {
  Evaluator e(file, sources, limits);
  return e.run();
}

}  // namespace sbr::bash
