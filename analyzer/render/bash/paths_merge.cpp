// Paths through a script: conditions joined along a path, and the shell state after an
// if/case/&& where both branches may have run (values merged, each tagged with its branch).
#include <fmt/format.h>

#include <algorithm>

#include "analyzer/render/bash/evaluator.h"

namespace sbr::bash {

// "when A and B" + "when B and C" = "when A and B and C": a path condition is a set of parts.
Condition join(const Condition& outer, const Condition& inner) {
  if (outer.always()) return inner;
  if (inner.always()) return outer;
  auto parts = [](const std::string& t) {
    std::vector<std::string> out;
    std::string s = t.rfind("when ", 0) == 0 ? t.substr(5) : t;
    size_t p = 0;
    for (;;) {
      size_t e = s.find(" and ", p);
      out.push_back(s.substr(p, e == std::string::npos ? std::string::npos : e - p));
      if (e == std::string::npos) break;
      p = e + 5;
    }
    return out;
  };
  auto a = parts(outer.text);
  for (const auto& x : parts(inner.text)) {
    if (std::find(a.begin(), a.end(), x) == a.end()) a.push_back(x);
  }
  std::string text = "when ";
  for (size_t i = 0; i < a.size(); ++i) text += (i ? " and " : "") + a[i];
  return Condition{text, outer.needs_switch || inner.needs_switch};
}

namespace {

bool same_word(const EWord& a, const EWord& b) {
  return a.w.text == b.w.text && a.w.symbolic == b.w.symbolic && a.w.from.at == b.w.from.at;
}

bool same_elems(const std::vector<EWord>& a, const std::vector<EWord>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!same_word(a[i], b[i])) return false;
  }
  return true;
}

void tag(std::vector<EWord>& ws, const Condition& c) {
  for (auto& w : ws) w.w.from.condition = join(c, w.w.from.condition);
}

// Variables after two paths meet: arrays keep the elements of both paths, each tagged with
// the condition of the path that added it; scalars keep the default path's value and the other
// as an alternative.
Var merge_var(const Var* a, const Var* b, const Condition& ca, const Condition& cb,
              bool a_default) {
  const Var* def = a_default ? a : b;
  const Var* other = a_default ? b : a;
  const Condition& cother = a_default ? cb : ca;
  const Condition& cdef = a_default ? ca : cb;
  Var out;
  if (def == nullptr && other == nullptr) return out;
  if (def != nullptr && other != nullptr && same_elems(def->elems, other->elems)) return *def;
  bool array = (def && def->array) || (other && other->array);
  if (array) {
    out = def ? *def : *other;
    out.elems.clear();
    out.alts.clear();
    std::vector<EWord> ea = def ? def->elems : std::vector<EWord>{};
    std::vector<EWord> eb = other ? other->elems : std::vector<EWord>{};
    size_t p = 0;
    while (p < ea.size() && p < eb.size() && same_word(ea[p], eb[p])) ++p;
    out.elems.assign(ea.begin(), ea.begin() + static_cast<long>(p));
    std::vector<EWord> ra(ea.begin() + static_cast<long>(p), ea.end());
    std::vector<EWord> rb(eb.begin() + static_cast<long>(p), eb.end());
    tag(ra, cdef);
    tag(rb, cother);
    out.elems.insert(out.elems.end(), ra.begin(), ra.end());
    out.elems.insert(out.elems.end(), rb.begin(), rb.end());
    out.keys.clear();
    return out;
  }
  if (def != nullptr) {
    out = *def;
  } else {
    out.elems.push_back(EWord{});  // unset on the default path
  }
  if (other != nullptr) {
    out.alts.push_back(Alt{other->elems, cother});
    for (const Alt& alt : other->alts) out.alts.push_back(Alt{alt.elems, join(cother, alt.cond)});
  }
  if (out.alts.size() > 4) out.alts.resize(4);
  return out;
}

std::map<std::string, Var> merge_map(const std::map<std::string, Var>& a,
                                     const std::map<std::string, Var>& b, const Condition& ca,
                                     const Condition& cb, bool a_default) {
  std::map<std::string, Var> out;
  std::set<std::string> names;
  for (auto& [k, _] : a) names.insert(k);
  for (auto& [k, _] : b) names.insert(k);
  for (const auto& k : names) {
    auto ia = a.find(k);
    auto ib = b.find(k);
    out[k] = merge_var(ia == a.end() ? nullptr : &ia->second, ib == b.end() ? nullptr : &ib->second,
                       ca, cb, a_default);
  }
  return out;
}

}  // namespace

std::string short_text(std::string_view s) {
  std::string t(s.substr(0, std::min<size_t>(s.size(), 60)));
  std::replace(t.begin(), t.end(), '\n', ' ');
  return s.size() > 60 ? t + "..." : t;
}

State merge_states(State a, State b, const Condition& ca, const Condition& cb, bool a_default) {
  if (a.dead && !b.dead) return b;
  if (b.dead && !a.dead) return a;
  State out = a_default ? a : b;
  out.globals = merge_map(a.globals, b.globals, ca, cb, a_default);
  if (a.frames.size() == b.frames.size() && !a.frames.empty()) {
    out.frames.back() = merge_map(a.frames.back(), b.frames.back(), ca, cb, a_default);
  }
  const State& other = a_default ? b : a;
  for (auto& [k, v] : other.functions) out.functions.emplace(k, v);
  for (const Trap& t : other.traps) {
    bool seen = std::any_of(out.traps.begin(), out.traps.end(),
                            [&](const Trap& x) { return x.at == t.at; });
    if (!seen) out.traps.push_back(t);
  }
  out.opts.errexit = a.opts.errexit && b.opts.errexit;
  out.opts.xtrace = a.opts.xtrace || b.opts.xtrace;
  out.opts.umask_strict = a.opts.umask_strict && b.opts.umask_strict;
  out.dead = a.dead && b.dead;
  out.returning = a.returning && b.returning;
  out.breaking = std::min(a.breaking, b.breaking);
  out.may_break = a.may_break || b.may_break || a.breaking != b.breaking;
  return out;
}

}  // namespace sbr::bash
