// Past kMaxValueAlts values where paths meet. A launcher that appends to one option string on
// independent paths (`COMPOSE_FILES="$COMPOSE_FILES -f x.yaml"` under each of seven tests) has
// 2^7 values; a dispatch variable has a dozen unrelated ones. The first keep their values
// past the bound as one list of every piece the paths appended, in the order they appended
// them; the others as one unknown value. Either stands for paths of several conditions, which
// one conjunction cannot say.
#include "analyzer/render/bash/paths_widen.h"

#include <algorithm>
#include <optional>
#include <string_view>

#include "analyzer/render/bash/expand_param.h"

namespace sbr::bash {
namespace {

constexpr std::string_view kWidened = "one of the values other paths set";
constexpr std::string_view kAppended = "every piece other paths appended";
// An option string has a few dozen pieces; a longer text (a generated script body) is not
// one, and ordering its pieces is quadratic.
constexpr std::size_t kMaxPieces = 64;

bool blank(char c) {
  return c == ' ' || c == '\t' || c == '\n';
}

// A piece of a word's text as splitting reads it: a field, or an option field with the field
// after it that is its value (`-f x.yaml`), which two paths append together.
struct Piece {
  std::size_t begin = 0;
  std::size_t end = 0;
};

std::vector<Piece> pieces_of(std::string_view text) {
  std::vector<Piece> fields;
  for (std::size_t i = 0; i < text.size();) {
    if (blank(text[i])) {
      ++i;
      continue;
    }
    std::size_t e = i;
    while (e < text.size() && !blank(text[e])) ++e;
    fields.push_back({i, e});
    i = e;
  }
  auto option = [&](const Piece& f) {
    std::string_view s = text.substr(f.begin, f.end - f.begin);
    return s.size() > 1 && s[0] == '-' && s.find('=') == std::string_view::npos;
  };
  std::vector<Piece> out;
  for (std::size_t k = 0; k < fields.size(); ++k) {
    if (k + 1 < fields.size() && option(fields[k]) && !option(fields[k + 1])) {
      out.push_back({fields[k].begin, fields[k + 1].end});
      ++k;
    } else {
      out.push_back(fields[k]);
    }
  }
  return out;
}

std::string_view piece_text(const EWord& w, const Piece& p) {
  return std::string_view(w.w.text).substr(p.begin, p.end - p.begin);
}

// One word with text: the form of a scalar's value that splitting makes pieces of.
const EWord* one_word(const Alt& a) {
  return a.elems.size() == 1 && !a.elems[0].w.text.empty() ? &a.elems[0] : nullptr;
}

// Whether `w` starts with the first piece of `base`: both are one base (`-f compose.yaml`)
// with the pieces their paths appended. The default path's value is not the shortest one (it
// appends an overlay the other paths do not), so more than the first piece is not asked.
bool same_base(const EWord& base, const EWord& w) {
  std::vector<Piece> pb = pieces_of(base.w.text);
  std::vector<Piece> pw = pieces_of(w.w.text);
  return !pb.empty() && !pw.empty() && piece_text(base, pb.front()) == piece_text(w, pw.front());
}

// Every piece of the words folded in, each once, in an order every word agrees with: a piece
// comes after the pieces it follows in any word (`-f a.yaml` before `-f b.yaml` when one path
// appended both), and pieces no word orders are in the order of the longest word that has
// them, then of first sight.
class PieceUnion {
 public:
  void fold(const EWord& w) {
    std::vector<std::size_t> seq;
    for (const Piece& p : pieces_of(w.w.text)) {
      std::string_view t = piece_text(w, p);
      auto it =
          std::find_if(held_.begin(), held_.end(), [&](const Held& h) { return h.text == t; });
      if (it == held_.end()) {
        held_.push_back(Held{std::string(t), unknown_parts_in(w.w.unknown_parts, p.begin, p.end)});
        it = held_.end() - 1;
      }
      seq.push_back(static_cast<std::size_t>(it - held_.begin()));
    }
    seqs_.push_back(std::move(seq));
  }
  std::size_t size() const { return held_.size(); }
  // The pieces joined by blanks, in `w`'s place and metadata.
  void write(EWord& w) const {
    w.w.text.clear();
    w.w.unknown_parts.clear();
    for (std::size_t i : order()) {
      const Held& h = held_[i];
      if (!w.w.text.empty()) w.w.text += ' ';
      const auto at = static_cast<std::uint32_t>(w.w.text.size());
      for (const UnknownPart& p : h.parts) {
        if (w.w.unknown_parts.size() < kMaxUnknownParts)
          w.w.unknown_parts.push_back({p.at + at, p.name});
      }
      w.w.text += h.text;
    }
  }

 private:
  struct Held {
    std::string text;
    std::vector<UnknownPart> parts;
  };

  // Each piece's rank: its place in the longest word that has it, words taken longest first.
  std::vector<std::size_t> ranks() const {
    std::vector<const std::vector<std::size_t>*> by_length;
    for (const auto& s : seqs_) by_length.push_back(&s);
    std::stable_sort(by_length.begin(), by_length.end(),
                     [](const auto* a, const auto* b) { return a->size() > b->size(); });
    std::vector<std::size_t> rank(held_.size(), held_.size());
    std::size_t next = 0;
    for (const auto* s : by_length) {
      for (std::size_t i : *s) {
        if (rank[i] == held_.size()) rank[i] = next++;
      }
    }
    return rank;
  }

  // The pieces in an order each word's sequence agrees with (a topological order of "follows
  // in some word", least rank first); pieces two words order both ways keep their rank.
  std::vector<std::size_t> order() const {
    const std::size_t n = held_.size();
    std::vector<std::vector<std::size_t>> after(n);
    std::vector<std::size_t> before(n, 0);
    for (const auto& s : seqs_) {
      for (std::size_t k = 1; k < s.size(); ++k) {
        if (s[k] == s[k - 1]) continue;
        after[s[k - 1]].push_back(s[k]);
        ++before[s[k]];
      }
    }
    const std::vector<std::size_t> rank = ranks();
    std::vector<std::size_t> out;
    std::vector<bool> placed(n, false);
    while (out.size() < n) {
      std::size_t pick = n;
      for (std::size_t i = 0; i < n; ++i) {
        if (placed[i]) continue;
        if (pick == n || (before[i] == 0) > (before[pick] == 0) ||
            ((before[i] == 0) == (before[pick] == 0) && rank[i] < rank[pick]))
          pick = i;
      }
      placed[pick] = true;
      out.push_back(pick);
      for (std::size_t j : after[pick]) --before[j];
    }
    return out;
  }

  std::vector<Held> held_;
  std::vector<std::vector<std::size_t>> seqs_;
};

bool unioned(const Alt& a) {
  return a.elems.size() == 1 && a.elems[0].w.origin == kAppended;
}

// The values past the bound repeat kept ones (`KUBECTL=oc` or `kubectl`, merged along forty
// paths): cutting them loses no value.
bool only_repeats(const Value& v) {
  for (std::size_t i = kMaxValueAlts; i < v.size(); ++i) {
    bool kept = false;
    for (std::size_t k = 0; k < kMaxValueAlts && !kept; ++k)
      kept = same_texts(v.alts[i].elems, v.alts[k].elems);
    if (!kept) return false;
  }
  return true;
}

void carry_taint(EWord& into, const Value& v, std::size_t from) {
  for (std::size_t i = from; i < v.size() && !into.w.tainted; ++i) {
    for (const EWord& e : v.alts[i].elems) {
      if (!e.w.tainted) continue;
      into.w.tainted = true;
      into.taint_var = e.taint_var;
      into.taint_at = e.taint_at;
      into.taint_source = e.taint_source;
      break;
    }
  }
}

// The values from `from` on as one word of every piece they appended to the default value,
// when each of them starts with the default's first piece (an option string appended on
// independent paths); nothing otherwise. Once the value at `from` is such a word, a value
// with another base is cut, as values past the bound were before.
std::optional<EWord> appended_union(const Value& v, std::size_t from) {
  const EWord* base = one_word(v.alts.front());
  if (base == nullptr || pieces_of(base->w.text).empty()) return std::nullopt;
  const bool growing = unioned(v.alts[from]);
  PieceUnion u;
  for (std::size_t i = from; i < v.size(); ++i) {
    const EWord* w = one_word(v.alts[i]);
    const bool more = w != nullptr && same_base(*base, *w);
    if (!more && !growing) return std::nullopt;
    if (more) u.fold(*w);
    if (u.size() > kMaxPieces) return std::nullopt;
  }
  EWord out = *one_word(v.alts[from]);
  u.write(out);
  out.w.symbolic = false;
  for (std::size_t i = from; i < v.size(); ++i) {
    for (const EWord& e : v.alts[i].elems) out.w.symbolic = out.w.symbolic || e.w.symbolic;
  }
  out.w.origin = std::string(kAppended);
  out.w.identity.clear();
  carry_taint(out, v, from);
  return out;
}

}  // namespace

bool widened(const Alt& a) {
  return a.elems.size() == 1 && ((a.elems[0].w.symbolic && a.elems[0].w.origin == kWidened) ||
                                 a.elems[0].w.origin == kAppended);
}

bool same_texts(const std::vector<EWord>& a, const std::vector<EWord>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const EWord& x, const EWord& y) {
    return x.w.text == y.w.text && x.w.symbolic == y.w.symbolic;
  });
}

// A scalar with more values than a value keeps: the last kept alternative stands for the
// rest, so a later test of the variable stays undecided on those paths instead of reading the
// default path's value and skipping what they run (sdlcforge/ai-sandbox's `if [ "$CMD" =
// start ]`), and an option string appended on independent paths keeps every piece (its
// `docker compose ${COMPOSE_FILES} up`, whose overlays were judged without the base file).
void widen(Value& v, const std::string& name) {
  const std::size_t last = kMaxValueAlts - 1;
  if (v.size() <= kMaxValueAlts || only_repeats(v) ||
      (widened(v.alts[last]) && !unioned(v.alts[last]))) {
    if (v.size() > kMaxValueAlts) v.alts.resize(kMaxValueAlts);
    return;
  }
  Condition c =
      Condition::when({name + " has one of the values other paths set", "", "", "", ""}, true);
  std::optional<EWord> w = appended_union(v, last);
  if (!w) {
    w = symbolic_word(std::string(kWidened));
    carry_taint(*w, v, last);
  }
  v.alts.resize(last);
  v.alts.push_back(Alt{{std::move(*w)}, std::move(c)});
}

bool widening_covers(const Value& def, const Value& other) {
  const Alt& w = def.alts.back();
  if (!unioned(w)) return true;  // an unknown value stands for any other
  const EWord* base = one_word(def.alts.front());
  return std::all_of(other.alts.begin(), other.alts.end(), [&](const Alt& o) {
    if (std::any_of(def.alts.begin(), def.alts.end(),
                    [&](const Alt& d) { return same_texts(o.elems, d.elems); }))
      return true;
    const EWord* ow = one_word(o);
    if (ow == nullptr || base == nullptr || !same_base(*base, *ow)) return true;  // cut, as before
    std::vector<Piece> held = pieces_of(w.elems[0].w.text);
    for (const Piece& p : pieces_of(ow->w.text)) {
      bool in = std::any_of(held.begin(), held.end(), [&](const Piece& h) {
        return piece_text(w.elems[0], h) == piece_text(*ow, p);
      });
      if (!in) return false;
    }
    return true;
  });
}

}  // namespace sbr::bash
