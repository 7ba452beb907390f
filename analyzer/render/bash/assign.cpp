// Variables: scopes (function locals shadow globals), assignments of scalars, indexed and
// associative arrays, `+=`, and the taint of values assigned in configuration files.
#include <fmt/format.h>

#include <algorithm>

#include "analyzer/render/bash/evaluator.h"
#include "analyzer/render/bash/fields.h"
#include "analyzer/support/secrets.h"

namespace sbr::bash {

Var* Evaluator::lookup(const std::string& name) {
  for (auto it = st_.frames.rbegin(); it != st_.frames.rend(); ++it) {
    auto f = it->find(name);
    if (f != it->end()) return &f->second;
  }
  auto g = st_.globals.find(name);
  return g == st_.globals.end() ? nullptr : &g->second;
}

Var& Evaluator::assign_slot(const std::string& name, bool local) {
  Var* slot = nullptr;
  if (local && !st_.frames.empty()) slot = &st_.frames.back()[name];
  for (auto it = st_.frames.rbegin(); slot == nullptr && it != st_.frames.rend(); ++it) {
    auto f = it->find(name);
    if (f != it->end()) slot = &f->second;
  }
  if (slot == nullptr) slot = &st_.globals[name];
  slot->serial = ++assignments_;
  return *slot;
}

void Evaluator::assign(TSNode n, Ctx& ctx, bool local, bool exported, bool readonly,
                       bool force_array, bool force_assoc) {
  TSNode name_node = field(n, F::name);
  TSNode value = field(n, F::value);
  std::string name;
  TSNode index{};
  if (is(name_node, K::subscript)) {
    name = std::string(ctx.tree->slice(field(name_node, F::name)));
    index = field(name_node, F::index);
  } else {
    name = std::string(ctx.tree->slice(name_node));
  }
  bool append = false;
  for (TSNode c : children(n)) {
    if (!ts_node_is_named(c) && is(c, K::plus_eq)) append = true;
  }
  Var* existing = lookup(name);
  if (existing && existing->readonly) return;
  Location at = loc(n, ctx.tree);
  auto mark_config = [&](std::vector<EWord>& ws) {
    if (!ctx.tree->config_file) return;
    for (EWord& w : ws) {
      w.w.tainted = true;
      w.taint_var = name;
      w.taint_at = at;
      w.taint_source = ValueSource::ConfigFile;
      if (!w.w.symbolic) w.w.origin = fmt::format("config file {} ({})", path_of(ctx.tree), name);
    }
  };
  (void)mark_config;
  Ctx vc = ctx;
  vc.assign_target = name;
  if (is(value, K::array)) {
    std::vector<EWord> elems;
    std::vector<std::string> keys;
    bool assoc = force_assoc || (existing && existing->assoc);
    for (TSNode c : named_children(value)) {
      if (is(c, K::comment)) continue;
      std::string_view t = ctx.tree->slice(c);
      if (assoc && t.rfind('[', 0) == 0 && t.find("]=") != std::string_view::npos) {
        keys.emplace_back(t.substr(1, t.find("]=") - 1));
        // The value is everything after `]=`: literal text here, expansions after.
        EWord v = literal("");
        bool after = false;
        for (TSNode p : named_children(c)) {
          std::string_view pt = ctx.tree->slice(p);
          if (!after) {
            auto eq = pt.find('=');
            if (eq != std::string_view::npos) {
              after = true;
              v.w.text += std::string(pt.substr(eq + 1));
            }
            continue;
          }
          EWord pe = expand_joined(p, ctx);
          v.w.text += pe.w.text;
          v.w.symbolic = v.w.symbolic || pe.w.symbolic;
          v.w.tainted = v.w.tainted || pe.w.tainted;
        }
        v.w.from = prov(c, ctx);
        v.keep_from = true;
        mark_site(v, StepRole::Element, name);
        elems.push_back(v);
        continue;
      }
      for (EWord w : expand_word(c, ctx)) {
        if (!w.keep_from) w.keep_from = true;
        // An element copied from another array ("${base[@]}") keeps its first site.
        if (!w.site_role) mark_site(w, StepRole::Element, name);
        elems.push_back(w);
      }
    }
    mark_config(elems);
    Var& slot = assign_slot(name, local);
    if (!append) {
      slot.elems.clear();
      slot.keys.clear();
    }
    slot.array = true;
    slot.assoc = assoc;
    slot.alts.clear();
    slot.elems.insert(slot.elems.end(), elems.begin(), elems.end());
    if (assoc) slot.keys.insert(slot.keys.end(), keys.begin(), keys.end());
    slot.exported = slot.exported || exported;
    slot.readonly = slot.readonly || readonly;
    return;
  }
  EWord v = ts_node_is_null(value) ? literal("") : expand_joined(value, vc);
  {
    // The value's earlier steps (`X=$Y`: where Y was assigned) stay behind this assignment.
    Provenance site = prov(ts_node_is_null(value) ? n : value, ctx);
    if (v.site_role && v.w.from.at.valid() && v.w.from.at != site.at) {
      v.w.from.via.insert(v.w.from.via.begin(), Step{*v.site_role, v.w.from.at, v.site_note});
    }
    site.via = std::move(v.w.from.via);
    if (site.via.size() > kMaxSteps) site.via.resize(kMaxSteps);
    v.w.from = std::move(site);
    mark_site(v, StepRole::Assigned, name);
  }
  // A scalar is reported where it is used; only array elements keep their own site.
  v.keep_from = false;
  // `set -x` prints the assignment: a secret only when the value comes from somewhere secret
  // (the environment, a file, a command, another secret). A literal in the script is already
  // in the repository (SB4002/SB4003 judge literals), and an empty or placeholder one holds
  // nothing.
  const bool secret_value = v.w.symbolic || !v.secret_var.empty();
  if (secrets::is_secret_name(name) && v.secret_var.empty()) v.secret_var = name;
  {
    std::vector<EWord> one{v};
    mark_config(one);
    v = one[0];
  }
  if (st_.opts.xtrace && secrets::is_secret_name(name) && secret_value)
    observed().traced_secrets.push_back(TracedSecret{name, true, st_.opts.xtrace_at, prov(n, ctx)});
  // `pid=$!` names the process just started in the background, for its cleanup.
  if (!ts_node_is_null(value) && ctx.tree->slice(value) == "$!" && last_background_ >= 0) {
    resources_[static_cast<size_t>(last_background_)].idents.push_back(name);
  }
  Var& slot = assign_slot(name, local);
  if (!ts_node_is_null(index)) {
    slot.array = true;
    slot.alts.clear();
    if (slot.assoc || force_assoc) {
      EWord key = expand_joined(index, ctx);
      auto it = std::find(slot.keys.begin(), slot.keys.end(), key.w.text);
      if (it != slot.keys.end())
        slot.elems[static_cast<size_t>(it - slot.keys.begin())] = v;
      else {
        slot.keys.push_back(key.w.text);
        slot.elems.push_back(v);
      }
    } else {
      auto iv = arith(index, ctx);
      size_t i = iv && *iv >= 0 ? static_cast<size_t>(*iv) : slot.elems.size();
      if (i > 4096) i = slot.elems.size();
      if (slot.elems.size() <= i) slot.elems.resize(i + 1);
      slot.elems[i] = v;
    }
    return;
  }
  if (append && !slot.elems.empty() && !slot.array) {
    concat_into(slot.elems[0], v);
    slot.elems[0].keep_from = true;
  } else if (append && slot.array) {
    slot.elems.push_back(v);
  } else if (slot.array) {
    if (slot.elems.empty())
      slot.elems.push_back(v);
    else
      slot.elems[0] = v;
  } else {
    slot.elems = {v};
    slot.array = force_array || force_assoc;
    slot.assoc = force_assoc;
  }
  slot.alts.clear();
  slot.from_mktemp = v.temp_file;
  slot.exported = slot.exported || exported;
  slot.readonly = slot.readonly || readonly;
}

}  // namespace sbr::bash
