// Path conditions as conjunctions of atoms. The text is only for display; joining, implication
// and contradiction work on the atoms, so an atom whose own text says "A and B" (one test of
// `[[ a && b ]]`) stays one atom.
#include <algorithm>

#include "analyzer/model/provenance.h"

namespace sbr {
namespace {

// A condition built from text alone ("when X") is one atom.
std::vector<CondAtom> atoms_of(const Condition& c) {
  if (!c.atoms.empty() || c.always()) return c.atoms;
  std::string t = c.text.rfind("when ", 0) == 0 ? c.text.substr(5) : c.text;
  return {CondAtom{t, "not (" + t + ")", "", "", ""}};
}

// "when A and B"; a lone "for each x in ..." reads without "when".
std::string render(const std::vector<CondAtom>& atoms) {
  if (atoms.empty()) return "";
  if (atoms.size() == 1 && atoms[0].shown.rfind("for each ", 0) == 0) return atoms[0].shown;
  std::string text = "when ";
  for (std::size_t i = 0; i < atoms.size(); ++i) text += (i ? " and " : "") + atoms[i].shown;
  return text;
}

bool clash(const CondAtom& a, const CondAtom& b) {
  if (a.subject.empty() || a.subject != b.subject) return false;
  if (a.shown == b.negation || b.shown == a.negation) return true;
  return !a.equals.empty() && !b.equals.empty() && a.equals != b.equals;
}

bool same_atom(const CondAtom& a, const CondAtom& b) {
  return a.shown == b.shown && a.subject == b.subject;
}

}  // namespace

Condition Condition::when(CondAtom atom, bool needs_switch) {
  Condition c;
  c.atoms.push_back(std::move(atom));
  c.text = render(c.atoms);
  c.needs_switch = needs_switch;
  return c;
}

bool Condition::implies(const Condition& weaker) const {
  auto mine = atoms_of(*this);
  for (const CondAtom& w : atoms_of(weaker)) {
    auto same = [&](const CondAtom& a) { return same_atom(a, w); };
    if (std::none_of(mine.begin(), mine.end(), same)) return false;
  }
  return true;
}

bool Condition::contradicts(const Condition& other) const {
  auto mine = atoms_of(*this);
  for (const CondAtom& o : atoms_of(other)) {
    auto against = [&](const CondAtom& a) { return clash(a, o); };
    if (std::any_of(mine.begin(), mine.end(), against)) return true;
  }
  return false;
}

bool from_render_switch(const Condition& c) {
  return std::any_of(c.atoms.begin(), c.atoms.end(), [](const CondAtom& a) {
    return a.subject.rfind(kRenderSwitchSubject, 0) == 0;
  });
}

namespace {

// Whether a path on which `test` (a CondAtom::platform, "" or "!x" or "x") holds can run on
// `platform`.
bool platform_allows(const std::string& test, std::string_view platform) {
  if (test.empty()) return true;
  bool negated = test[0] == '!';
  std::string_view named = std::string_view(test).substr(negated ? 1 : 0);
  bool runs_there = named == platform || (named == "linux" && platform == "wsl");
  return negated ? !runs_there : runs_there;
}

}  // namespace

bool on_platform(const Condition& c, std::string_view platform) {
  if (platform.empty()) return true;
  return std::all_of(c.atoms.begin(), c.atoms.end(),
                     [&](const CondAtom& a) { return platform_allows(a.platform, platform); });
}

Condition conjoin(const Condition& outer, const Condition& inner) {
  if (outer.always()) return inner;
  if (inner.always()) return outer;
  Condition c;
  c.atoms = atoms_of(outer);
  for (const CondAtom& a : atoms_of(inner)) {
    auto same = [&](const CondAtom& x) { return same_atom(x, a); };
    if (std::none_of(c.atoms.begin(), c.atoms.end(), same)) c.atoms.push_back(a);
  }
  c.text = render(c.atoms);
  c.needs_switch = outer.needs_switch || inner.needs_switch;
  return c;
}

}  // namespace sbr
