// Paths through a script: conditions joined along a path, and the shell state after an
// if/case/&& where both branches may have run (values merged, each tagged with its branch).
#include <fmt/format.h>

#include <algorithm>

#include "analyzer/render/bash/evaluator.h"
#include "analyzer/render/bash/paths_widen.h"
#include "analyzer/support/strings.h"

namespace sbr::bash {

// "when A and B" + "when B and C" = "when A and B and C": a path condition is a set of atoms.
Condition join(const Condition& outer, const Condition& inner) {
  return conjoin(outer, inner);
}

namespace {

bool same_word(const EWord& a, const EWord& b) {
  return a.w.text == b.w.text && a.w.symbolic == b.w.symbolic && a.w.from.at == b.w.from.at;
}

bool same_text(const EWord& a, const EWord& b) {
  return a.w.text == b.w.text && !a.w.symbolic && !b.w.symbolic && !a.w.tainted && !b.w.tainted;
}

bool same_elems(const std::vector<EWord>& a, const std::vector<EWord>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!same_word(a[i], b[i])) return false;
  }
  return true;
}

bool is_option_word(const EWord& w) {
  return !w.w.symbolic && w.w.text.size() > 1 && w.w.text[0] == '-' &&
         w.w.text.find('=') == std::string::npos;
}

// A word that reads as a program's name (`podman`, `/usr/bin/docker`), not an option or value.
bool program_word(const EWord& w) {
  const std::string& t = w.w.text;
  return !w.w.symbolic && !t.empty() && t[0] != '-' && t.find_first_of("=:, ") == std::string::npos;
}

void tag(std::vector<EWord>& ws, const Condition& c) {
  for (auto& w : ws) w.w.from.set_condition(join(c, w.w.from.condition()));
}

// An associative array after two paths meet keeps its keys (a table of handlers, a profile of
// options): the default path's elements, each key only the other path set added under its
// condition, and the other path's elements as an alternative when a key's element differs.
Var merge_assoc(const Var* def, const Var* other, const Condition& cdef, const Condition& cother) {
  if (def == nullptr || other == nullptr) {
    Var out = def ? *def : *other;
    out.serial = 0;
    tag(out.elems(), def ? cdef : cother);
    return out;
  }
  Var out = *def;
  out.serial = 0;
  std::vector<EWord> there = def->elems();  // the array on the other path
  bool differs = false;
  for (std::size_t j = 0; j < other->keys.size() && j < other->elems().size(); ++j) {
    auto it = std::find(out.keys.begin(), out.keys.end(), other->keys[j]);
    if (it == out.keys.end()) {
      out.keys.push_back(other->keys[j]);
      out.elems().push_back(other->elems()[j]);
      EWord& added = out.elems().back();
      added.w.from.set_condition(join(cother, added.w.from.condition()));
      there.push_back(other->elems()[j]);
      continue;
    }
    const auto i = static_cast<std::size_t>(it - out.keys.begin());
    if (i < there.size() && !same_word(there[i], other->elems()[j])) {
      there[i] = other->elems()[j];
      differs = true;
    }
  }
  if (differs && out.value.size() < kMaxValueAlts) out.value.alts.push_back(Alt{there, cother});
  return out;
}

// Variables after two paths meet: arrays keep the elements of both paths, each tagged with
// the condition of the path that added it (the compact form of a value, in its default
// alternative); scalars keep the default path's value and add the other path's alternatives.
// `a_tagged`: a's array elements already carry the conditions of the paths that added them (a
// state accumulated over several `case` items), so they are not tagged again with `ca`.
Var merge_var(const std::string& name, const Var* a, const Var* b, const Condition& ca,
              const Condition& cb, bool a_default, bool a_tagged) {
  const Var* def = a_default ? a : b;
  const Var* other = a_default ? b : a;
  const Condition& cother = a_default ? cb : ca;
  const Condition& cdef = a_default ? ca : cb;
  Var out;
  if (def == nullptr && other == nullptr) return out;
  const bool same_default =
      def != nullptr && other != nullptr && same_elems(def->elems(), other->elems());
  bool array = (def && def->array) || (other && other->array);
  if (same_default && (array || other->value.size() == 1)) return *def;
  if (array && ((def && def->assoc) || (other && other->assoc)))
    return merge_assoc(def, other, cdef, cother);
  if (array) {
    out = def ? *def : *other;
    out.serial = 0;
    std::vector<EWord> ea = def ? def->elems() : std::vector<EWord>{};
    std::vector<EWord> eb = other ? other->elems() : std::vector<EWord>{};
    // The words both paths start with, by text: `cmd=(docker)` and, in a branch,
    // `cmd=(docker --context "$ctx")` both start with `docker`, written twice; tagging each
    // `docker` with its branch would leave the command with no certain first word.
    size_t p = 0;
    while (p < ea.size() && p < eb.size() && (same_word(ea[p], eb[p]) || same_text(ea[p], eb[p])))
      ++p;
    // An option and its value stay together on each path: a function run once per argument
    // list (`NET_ARGS=(--network "$1")`) gives both paths the same `--network` word, and
    // `--network none host` would read as a network and an image.
    if (p > 0 && p < ea.size() && p < eb.size() && is_option_word(ea[p - 1]) &&
        !is_option_word(ea[p]) && !is_option_word(eb[p]))
      --p;
    // Two different commands (`cmd=(podman)` / `cmd=(docker)`): one value per path, since
    // the words of both in one list would make the second program the first one's argument.
    if (p == 0 && def && other && !ea.empty() && !eb.empty() && program_word(ea[0]) &&
        program_word(eb[0]) && def->value.size() == 1 && other->value.size() == 1) {
      out.value.alts.push_back(Alt{eb, cother});
      return out;
    }
    std::vector<EWord> elems(ea.begin(), ea.begin() + static_cast<long>(p));
    std::vector<EWord> ra(ea.begin() + static_cast<long>(p), ea.end());
    std::vector<EWord> rb(eb.begin() + static_cast<long>(p), eb.end());
    if (!(a_tagged && a_default)) tag(ra, cdef);
    if (!(a_tagged && !a_default)) tag(rb, cother);
    elems.insert(elems.end(), ra.begin(), ra.end());
    elems.insert(elems.end(), rb.begin(), rb.end());
    out.value.reset(std::move(elems));
    out.keys.clear();
    return out;
  }
  if (def != nullptr) {
    out = *def;
  } else {
    out.value.reset({EWord{}});  // unset on the default path
  }
  out.serial = 0;  // a value per path, not one value
  if (other != nullptr) {
    // The other path's value: its default words under its condition, then its own
    // alternatives, each under both conditions (none that no path has).
    // (Its default words are not repeated when they are the default path's.)
    for (std::size_t i = same_default ? 1 : 0; i < other->value.size(); ++i) {
      const Alt& alt = other->value.alts[i];
      if (i > 0 && cother.contradicts(alt.cond)) continue;
      out.value.alts.push_back(Alt{alt.elems, i == 0 ? cother : join(cother, alt.cond)});
    }
  }
  widen(out.value, name);
  return out;
}

// The merge would leave the default path's variable as it is (what merge_var returns, found
// without copying it): both paths hold the same words, or the default's scalar already holds
// the most alternatives a value keeps, is already a value per path (serial 0), and either
// stands for the rest already (widened: an unknown value, or every piece the values past the
// bound appended, which holds what the other path appends) or the other path brings no value
// it lacks (merge_var would cut them off). In a 200-item option `case`, every
// variable an earlier item set is in one of these cases for every later item, so each item
// costs one compare per such variable instead of a copy of its words and conditions.
bool merge_keeps_default(const Var* a, const Var* b, bool a_default) {
  const Var* def = a_default ? a : b;
  const Var* other = a_default ? b : a;
  if (def == nullptr || other == nullptr) return false;
  if (same_elems(def->elems(), other->elems()) &&
      (def->array || other->array || other->value.size() == 1))
    return true;
  if (def->array || other->array) return false;
  if (def->serial != 0 || def->value.size() != kMaxValueAlts) return false;
  if (widened(def->value.alts.back())) return widening_covers(def->value, other->value);
  // Full of known values: the merge keeps them when the other path brings no new one.
  return std::all_of(other->value.alts.begin(), other->value.alts.end(), [&](const Alt& o) {
    return std::any_of(def->value.alts.begin(), def->value.alts.end(),
                       [&](const Alt& d) { return same_texts(o.elems, d.elems); });
  });
}

// Merges `b` into `a` in place. A variable both paths still share, or with the same
// assignment serial on both, holds the same value and is left as it is: an option-parsing
// `case` with 200 items changes one variable per item, and merging must not copy the other 199
// each time. Both maps are sorted by name, so they are walked side by side (no lookup per
// variable).
void merge_map_into(Cow<VarMap>& a_map, const Cow<VarMap>& b_map, const Condition& ca,
                    const Condition& cb, bool a_default, bool a_tagged) {
  if (a_map.same(b_map)) return;  // neither path changed a variable of this scope
  const VarMap& a = a_map.get();
  const VarMap& b = b_map.get();
  std::vector<std::pair<std::string, Var>> changed;
  std::vector<std::pair<std::string, Cow<Var>>> taken;  // b's variable, shared as it is
  auto ia = a.begin();
  auto ib = b.begin();
  while (ia != a.end() || ib != b.end()) {
    if (ib == b.end() || (ia != a.end() && ia->first < ib->first)) {
      changed.emplace_back(
          ia->first, merge_var(ia->first, &ia->second.get(), nullptr, ca, cb, a_default, a_tagged));
      ++ia;
      continue;
    }
    if (ia == a.end() || ib->first < ia->first) {
      changed.emplace_back(
          ib->first, merge_var(ib->first, nullptr, &ib->second.get(), ca, cb, a_default, a_tagged));
      ++ib;
      continue;
    }
    const Var& va = ia->second.get();
    const Var& vb = ib->second.get();
    const bool same = ia->second.same(ib->second) || (va.serial != 0 && va.serial == vb.serial);
    if (!same && merge_keeps_default(&va, &vb, a_default)) {
      if (!a_default) taken.emplace_back(ib->first, ib->second);
    } else if (!same) {
      changed.emplace_back(ia->first, merge_var(ia->first, &va, &vb, ca, cb, a_default, a_tagged));
    }
    ++ia;
    ++ib;
  }
  if (changed.empty() && taken.empty()) return;
  VarMap& out = a_map.mut();
  for (auto& [k, v] : changed) out[k].mut() = std::move(v);
  for (const auto& [k, v] : taken) out[k] = v;
}

}  // namespace

std::string short_text(std::string_view s) {
  std::string t = shorten(s, 63);
  std::replace(t.begin(), t.end(), '\n', ' ');
  return t;
}

State merge_states(State a, State b, const Condition& ca, const Condition& cb, bool a_default,
                   bool a_tagged) {
  if (a.dead && !b.dead) return b;
  if (b.dead && !a.dead) return a;
  merge_map_into(a.globals, b.globals, ca, cb, a_default, a_tagged);
  // Every frame, not only the innermost: a function called by another changes its caller's
  // locals (`cmd+=(...)` in a `case` of a helper adds to the caller's `local -a cmd`). A frame
  // neither path changed is shared and costs nothing.
  const bool same_depth = a.frames.size() == b.frames.size();
  if (same_depth) {
    for (std::size_t i = 0; i < a.frames.size(); ++i)
      merge_map_into(a.frames[i], b.frames[i], ca, cb, a_default, a_tagged);
  }
  // Everything but the variables is the default path's; the variables are merged in `a`.
  State& out = a_default ? a : b;
  const State& other = a_default ? b : a;
  const bool errexit = a.opts.errexit && b.opts.errexit;
  const bool xtrace = a.opts.xtrace || b.opts.xtrace;
  const bool umask_strict = a.opts.umask_strict && b.opts.umask_strict;
  const bool dead = a.dead && b.dead;
  const bool returning = a.returning && b.returning;
  const int breaking = std::min(a.breaking, b.breaking);
  const bool may_break = a.may_break || b.may_break || a.breaking != b.breaking;
  const int shifted = a.shifted == b.shifted ? a.shifted : -1;
  if (!a_default) {
    std::swap(b.globals, a.globals);
    if (same_depth)
      for (std::size_t i = 0; i < a.frames.size(); ++i) std::swap(b.frames[i], a.frames[i]);
  }
  if (!out.functions.same(other.functions)) {
    for (const auto& [k, v] : other.functions.get()) {
      if (out.functions.get().count(k) == 0) out.functions.mut().emplace(k, v);
    }
  }
  for (const Trap& t : other.traps) {
    bool seen = std::any_of(out.traps.begin(), out.traps.end(),
                            [&](const Trap& x) { return x.at == t.at; });
    if (!seen) out.traps.push_back(t);
  }
  out.opts.errexit = errexit;
  out.opts.xtrace = xtrace;
  out.opts.umask_strict = umask_strict;
  out.dead = dead;
  out.returning = returning;
  out.breaking = breaking;
  out.may_break = may_break;
  out.shifted = shifted;
  return std::move(out);
}

}  // namespace sbr::bash
