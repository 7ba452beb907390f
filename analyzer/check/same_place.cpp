#include "analyzer/check/same_place.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <string_view>
#include <tuple>

#include "analyzer/check/group.h"

namespace sbr {
namespace {

using Term = std::vector<CondAtom>;

// A condition's atoms; one built from text alone is one atom (as analyzer/model/condition.cpp
// reads it).
Term term_of(const Condition& c) {
  if (!c.atoms.empty() || c.always()) return c.atoms;
  std::string t = c.text.rfind("when ", 0) == 0 ? c.text.substr(5) : c.text;
  return {CondAtom{t, "not (" + t + ")", "", "", ""}};
}

bool same_cond_atom(const CondAtom& a, const CondAtom& b) {
  return a.shown == b.shown && a.subject == b.subject;
}

bool negates(const CondAtom& a, const CondAtom& b) {
  return a.subject == b.subject && ((!a.negation.empty() && a.negation == b.shown) ||
                                    (!b.negation.empty() && b.negation == a.shown));
}

bool holds_atom(const Term& t, const CondAtom& a) {
  return std::any_of(t.begin(), t.end(), [&](const CondAtom& x) { return same_cond_atom(x, a); });
}

// Every atom of `small` is in `big` except `skip` (an index into `small`, or none).
bool within(const Term& small, const Term& big, std::size_t skip) {
  for (std::size_t i = 0; i < small.size(); ++i) {
    if (i != skip && !holds_atom(big, small[i])) return false;
  }
  return true;
}

// Drops terms that another term implies (`A and B` when `A` is there).
bool absorb(std::vector<Term>& terms) {
  for (std::size_t i = 0; i < terms.size(); ++i) {
    for (std::size_t j = 0; j < terms.size(); ++j) {
      if (i == j || !within(terms[i], terms[j], terms[i].size())) continue;
      terms.erase(terms.begin() + static_cast<std::ptrdiff_t>(j));
      return true;
    }
  }
  return false;
}

// `X and a` or `X and not a and Y` is `X and a` or `X and Y`.
bool resolve(std::vector<Term>& terms) {
  for (const Term& t : terms) {
    for (std::size_t a = 0; a < t.size(); ++a) {
      for (Term& u : terms) {
        auto b =
            std::find_if(u.begin(), u.end(), [&](const CondAtom& x) { return negates(x, t[a]); });
        if (b == u.end()) continue;
        Term rest = u;
        rest.erase(rest.begin() + (b - u.begin()));
        if (!within(t, rest, a)) continue;
        u = std::move(rest);
        return true;
      }
    }
  }
  return false;
}

Condition condition_of(const Term& t, bool needs_switch) {
  Condition c;
  for (const CondAtom& a : t) c = conjoin(c, Condition::when(a, needs_switch));
  c.needs_switch = needs_switch;
  return c;
}

}  // namespace

std::string condition_note(const Condition& c) {
  if (c.always()) return "";
  return fmt::format(" [only {}{}]", c.text, c.needs_switch ? ", a non-default switch" : "");
}

Condition disjoin(const std::vector<Condition>& conditions) {
  std::vector<Term> terms;
  bool needs_switch = true;
  for (const Condition& c : conditions) {
    if (c.always()) return {};
    terms.push_back(term_of(c));
    needs_switch = needs_switch && c.needs_switch;
  }
  // Each step removes a term or an atom, so the loop ends; the bound keeps a pathological
  // input from costing more than a few hundred passes.
  for (int step = 0; step < 256 && (absorb(terms) || resolve(terms)); ++step) {
    if (std::any_of(terms.begin(), terms.end(), [](const Term& t) { return t.empty(); })) return {};
  }
  if (terms.empty()) return {};
  if (terms.size() == 1) return condition_of(terms.front(), needs_switch);
  Condition out;
  for (const Term& t : terms) {
    out.text += (out.text.empty() ? "" : ", or ") + condition_of(t, needs_switch).text;
  }
  out.needs_switch = needs_switch;
  return out;
}

namespace {

void add_related_once(Finding& into, const std::vector<Related>& more) {
  for (const Related& r : more) {
    if (r.at == into.at) continue;  // the primary location says it already
    bool seen = std::any_of(into.related.begin(), into.related.end(),
                            [&](const Related& x) { return x.at == r.at; });
    if (!seen) into.related.push_back(r);
  }
}

// The message without its condition note, so another condition can replace it.
std::string without_note(std::string message, const Condition& c) {
  std::string note = condition_note(c);
  if (!note.empty() && message.size() >= note.size() &&
      message.compare(message.size() - note.size(), note.size(), note) == 0) {
    message.resize(message.size() - note.size());
  }
  return message;
}

struct PlaceGroup {
  std::vector<std::uint32_t> members;  // finding indices, in order
};

// The findings' groups of one rule, place and acceptance, in the findings' order.
std::vector<PlaceGroup> place_groups(const std::vector<Finding>& findings) {
  using Key = std::tuple<std::string_view, FileId, std::uint32_t, std::uint32_t, std::string_view>;
  std::map<Key, std::size_t> index;
  std::vector<PlaceGroup> groups;
  for (std::uint32_t i = 0; i < findings.size(); ++i) {
    const Finding& f = findings[i];
    if (!f.at.valid()) continue;
    Key k{f.rule_id.str(), f.at.file, f.at.line, f.at.column, f.accepted_reason};
    auto [it, fresh] = index.emplace(k, groups.size());
    if (fresh) groups.emplace_back();
    groups[it->second].members.push_back(i);
  }
  return groups;
}

// Folds `m` into `into`: another workload's copy of the fact, the fact on another path, or
// another fact at the same place.
void fold_member(Finding& into, Finding& m, std::vector<Condition>& paths,
                 std::vector<std::string>& labels) {
  add_related_once(into, m.related);
  if (m.fact_path != into.fact_path) {
    into.reasons.push_back({m.rule_id, m.message.str(), m.severity, m.invariant, m.fingerprint});
    for (Reason& r : m.reasons) into.reasons.push_back(std::move(r));
    for (SharedWith& s : m.shared_with) into.shared_with.push_back(std::move(s));
    return;
  }
  paths.push_back(m.condition());
  if (m.subject == into.subject) return;
  bool listed = std::any_of(into.shared_with.begin(), into.shared_with.end(),
                            [&](const SharedWith& s) { return s.subject == m.subject.view(); });
  if (listed) return;
  into.shared_with.push_back({m.subject, m.label, m.fingerprint});
  std::string label = m.label.empty() ? std::string(m.subject) : std::string(m.label);
  if (std::find(labels.begin(), labels.end(), label) == labels.end()) labels.push_back(label);
}

// The primary's message and condition after its members' paths were added.
void widen_condition(Finding& f, const std::vector<Condition>& paths) {
  if (paths.size() < 2) return;
  Condition merged = disjoin(paths);
  if (merged == f.condition()) return;
  std::string note = condition_note(merged);
  f.message = without_note(f.message.str(), f.condition()) + note;
  for (Reason& r : f.reasons) r.message = without_note(r.message, f.condition()) + note;
  f.set_condition(std::move(merged));
}

void merge_group(std::vector<Finding>& findings, const PlaceGroup& g, std::vector<bool>& drop) {
  std::uint32_t primary = g.members.front();
  for (std::uint32_t i : g.members) {
    if (findings[i].severity > findings[primary].severity) primary = i;
  }
  Finding& into = findings[primary];
  std::vector<Condition> paths{into.condition()};
  std::string own = into.label.empty() ? std::string(into.subject) : std::string(into.label);
  std::vector<std::string> labels{own};
  for (std::uint32_t i : g.members) {
    if (i == primary) continue;
    fold_member(into, findings[i], paths, labels);
    drop[i] = true;
  }
  widen_condition(into, paths);
  if (labels.size() > 1) into.message = name_workloads(into.message.str(), own, labels);
}

}  // namespace

void merge_same_place(std::vector<Finding>& findings) {
  std::vector<bool> drop(findings.size(), false);
  for (const PlaceGroup& g : place_groups(findings)) {
    if (g.members.size() > 1) merge_group(findings, g, drop);
  }
  erase_marked(findings, drop);
}

}  // namespace sbr
