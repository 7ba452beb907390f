// Values as words are built from pieces: the product of two values' alternatives, and values
// joined into one word per alternative.
#include "analyzer/render/bash/value.h"

#include <algorithm>
#include <optional>

#include "analyzer/render/bash/evaluator.h"
#include "analyzer/render/bash/fields.h"

namespace sbr::bash {

bool picks_agree(const std::vector<Pick>& a, const std::vector<Pick>& b) {
  for (const Pick& x : a)
    for (const Pick& y : b)
      if (x.var == y.var && x.serial == y.serial && x.alt != y.alt) return false;
  return true;
}

void add_picks(std::vector<Pick>& into, const std::vector<Pick>& more) {
  for (const Pick& p : more)
    if (std::find(into.begin(), into.end(), p) == into.end()) into.push_back(p);
}

Condition word_paths(const Alt& a) {
  Condition c = a.paths;
  for (const EWord& w : a.elems) c = join(c, w.w.from.condition());
  return c;
}

Condition other_value_paths(const Alt& def, const Alt& a) {
  Condition c = a.paths;
  for (const EWord& w : a.elems) {
    const bool in_default = std::any_of(def.elems.begin(), def.elems.end(), [&](const EWord& d) {
      return d.w.text == w.w.text && d.w.from.at == w.w.from.at;
    });
    if (!in_default) c = join(c, w.w.from.condition());
  }
  return c;
}

namespace {

// The path of two values taken together: their conditions, and the conditions of the paths
// that set what a value other than the default (`a_def`, `b_def` when it is one) adds to it
// (an alternative's own condition may be the outer one only). Empty when no path has both.
std::optional<Condition> together(const Alt& a, const Alt* a_def, const Alt& b, const Alt* b_def,
                                  const Condition& path) {
  if (!picks_agree(a.picks, b.picks) || a.cond.contradicts(b.cond)) return std::nullopt;
  const Condition pa = word_paths(a), pb = word_paths(b);
  Condition cond = join(a.cond, b.cond);
  if (a_def != nullptr) cond = join(cond, other_value_paths(*a_def, a));
  if (b_def != nullptr) cond = join(cond, other_value_paths(*b_def, b));
  if (path.contradicts(cond) || cond.contradicts(pa) || cond.contradicts(pb)) return std::nullopt;
  return cond;
}

}  // namespace

Value product_values(Value a, const Value& b, const Condition& path, const Combine& combine) {
  const std::size_t bound = std::max({kMaxValueAlts, a.size(), b.size()});
  Value out;
  out.alts.clear();
  auto add = [&](std::size_t i, std::size_t j) {
    if (out.size() >= bound) return;
    const Alt& x = a.alts[i];
    const Alt& y = b.alts[j];
    Condition cond = join(x.cond, y.cond);
    if (i + j > 0) {
      // Values from paths that exclude each other are no path at all (the default pair is).
      std::optional<Condition> both = together(x, i > 0 ? &a.alts.front() : nullptr, y,
                                               j > 0 ? &b.alts.front() : nullptr, path);
      if (!both) return;
      cond = std::move(*both);
    }
    // The only pair (the common case): a's words move instead of being copied.
    const bool only_pair = a.size() == 1 && b.size() == 1;
    std::vector<EWord> elems = only_pair ? std::move(a.alts[i].elems) : std::vector<EWord>(x.elems);
    Alt r{std::move(elems), std::move(cond), x.picks};
    add_picks(r.picks, y.picks);
    r.paths = join(x.paths, y.paths);
    combine(r, y);
    out.alts.push_back(std::move(r));
  };
  add(0, 0);
  for (std::size_t i = 1; i < a.size(); ++i) add(i, 0);
  for (std::size_t j = 1; j < b.size(); ++j) add(0, j);
  for (std::size_t i = 1; i < a.size(); ++i)
    for (std::size_t j = 1; j < b.size(); ++j) add(i, j);
  return out;
}

Value join_values(Value acc, const Value& next, bool& started, const Condition& path) {
  const bool was_started = started;
  started = true;
  return product_values(std::move(acc), next, path, [was_started](Alt& r, const Alt& b) {
    // The two words that become one lose their conditions: their paths keep them.
    if (was_started && !r.elems.empty() && !b.elems.empty())
      r.paths = join(join(r.paths, r.elems.back().w.from.condition()),
                     b.elems.front().w.from.condition());
    bool s = was_started;
    join_fields(r.elems, b.elems, s);
  });
}

EWord join_words(const std::vector<EWord>& fields, const Provenance& empty_at) {
  EWord out = literal("");
  bool first = true;
  for (const EWord& f : fields) {
    if (!first) out.w.text += ' ';
    concat_into(out, f);
    if (first) out.w.from = f.w.from;
    first = false;
  }
  if (fields.empty()) out.w.from = empty_at;
  return out;
}

Value joined_alternatives(const Value& v, const Provenance& empty_at) {
  Value out;
  out.alts.clear();
  for (const Alt& a : v.alts)
    out.alts.push_back(Alt{{join_words(a.elems, empty_at)}, a.cond, a.picks, word_paths(a)});
  return out;
}

}  // namespace sbr::bash
