// What the launcher leaves behind, observed once the whole script has been rendered: the traps
// installed, each started resource with the first trap whose handler (rendered in the script's
// final state) removes it and whether that trap was in force at the start, and the secret files
// written with how they were protected. The checks judge what is missing or late.
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
  // Every file the evaluation read, before trap handlers add their own trees below.
  for (const auto& t : trees_) note_guards(t->root(), t.get());
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
    size_t inv_count = out_.invocations.size();
    ScriptObservations saved_obs = out_.observed;
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
    out_.observed = std::move(saved_obs);
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
    const auto* f = function(first);
    if (f != nullptr &&
        t.expanded.find(std::string(f->second->slice(f->first))) == std::string::npos)
      t.expanded += "\n" + std::string(f->second->slice(f->first));
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
    if (r.start.kind == ResourceKind::PortForwarder || r.start.kind == ResourceKind::Proxy)
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
  ScriptObservations& obs = observed();
  obs.posix_sh = posix_sh_;
  for (const Trap& t : all_traps_) obs.traps.push_back(TrapInstall{t.signals, t.handler, t.at});
  for (size_t i = 0; i < resources_.size(); ++i) {
    ResourceStart r = resources_[i].start;
    for (size_t ti = 0; ti < all_traps_.size() && !r.cleanup_trap; ++ti) {
      if (!covers(all_traps_[ti], resources_[i])) continue;
      r.cleanup_trap = ti;
      r.cleanup_installed_before =
          std::any_of(traps_at_start_[i].begin(), traps_at_start_[i].end(),
                      [&](const Trap& t) { return t.at == all_traps_[ti].at; });
    }
    obs.resources.push_back(std::move(r));
  }
  for (const Write& w : secret_writes_) {
    obs.secret_files.push_back(SecretFileWrite{w.path, w.path_shown, w.secret_var, w.protected_,
                                               chmodded_.count(w.path) > 0, w.from});
  }
}

ScriptRender render_script(const SourceFile& file, const SourceSet* sources,
                           const RenderLimits& limits) {
  Evaluator e(file, sources, limits);
  return e.run();
}

}  // namespace sbr::bash
