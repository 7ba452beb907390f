// What a word or a variable stands for during evaluation (private to analyzer/render/bash): a
// word with what the fact finders need (EWord), a value as its alternatives on the paths that
// reach it (Value), a variable (Var), and the copy-on-write scopes that hold them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/render/bash/flat_map.h"
#include "analyzer/render/bash/render.h"

namespace sbr::bash {

// A word during evaluation: the public Word plus what the fact finders need.
struct EWord {
  Word w;
  std::string taint_var;      // the variable / argument / substitution the taint comes from
  Location taint_at;          // where the tainted value enters the script
  std::string secret_var;     // holds the value of a secret-named variable
  bool default_known = true;  // symbolic with a known default (env var, possibly unset)
  bool temp_file = false;     // a mktemp path (created 0600)
  bool keep_from = false;     // an array element: keeps its own assignment site
  // w.from.at is an earlier place of the value (an assignment, an array element, a default, a
  // call-site argument) in this role: the next use moves it into w.from.via().
  std::optional<StepRole> site_role;
  std::string site_note;                            // the variable or function named at that place
  ValueSource taint_source = ValueSource::Unknown;  // where the tainted value comes from
  // Expanded inside double quotes ("$ip"): one argument, not split (observe_splice.cpp tells a
  // value passed as one argument from one spliced into rule text).
  bool in_quotes = false;
  // Built from pieces (`--memory="$memory"`) whose unknown ones were all expanded inside double
  // quotes: one argument whatever the value, as in_quotes says of a single piece.
  bool open_quoted = false;
  // An unknown piece was expanded unquoted on the way here (`$mem` in `cmd=(--memory=$mem)`):
  // bash may have split it into more words, whatever quotes a later use adds.
  bool split_open = false;
  // An argument of a function evaluated as an entry point, with unknown arguments: that
  // function's name (its conditions read "when `fn` is called with ..."); "" otherwise.
  std::string args_of;
};

// Which of a variable's values an alternative took (`$NET` where it is `host`): the pieces of
// one word or of one argument list that read the same variable must take the same value,
// whether or not the paths' conditions can tell (a value set on a path of the script's own
// arguments is not comparable by its condition).
struct Pick {
  std::string var;
  std::uint64_t serial = 0;  // Var::serial: the assignment (0: a value merged from paths)
  std::size_t alt = 0;
  friend bool operator==(const Pick&, const Pick&) = default;
};

struct Alt {
  std::vector<EWord> elems;
  Condition cond;
  std::vector<Pick> picks{};  // the variables' values it took, when they have several
  // The paths that set the pieces of its words: a word joined from pieces (`policy=$net`)
  // keeps none of their conditions, so that a value from the `else` is never joined with one
  // from the `then`.
  Condition paths{};
};

// The conditions of the paths that set an alternative's words and the pieces they were built
// from.
Condition word_paths(const Alt& a);
// The paths that set what another value `a` adds to the default value `def`: the conditions of
// its words that are not the default's (an element every path's array holds, tagged with the
// item that added it, does not make the value's path), and of the pieces they were joined from.
Condition other_value_paths(const Alt& def, const Alt& a);

// False when `a` and `b` took different values of one variable.
bool picks_agree(const std::vector<Pick>& a, const std::vector<Pick>& b);
void add_picks(std::vector<Pick>& into, const std::vector<Pick>& more);

// What a word or a variable stands for on the paths that reach it: a set of (condition, words)
// alternatives. The first is the default path's (its condition empty; each word keeps the
// condition of the path that set it, which is how an array holds elements added on some paths
// only); the others are the words on other paths, each with that path's condition. A
// command's argument lists are the product of its words' values (command_words.cpp), and two
// paths meeting merge their variables' values (paths_merge.cpp).
struct Value {
  std::vector<Alt> alts;

  Value() : alts(1) {}
  explicit Value(std::vector<EWord> words) : alts{Alt{std::move(words), Condition{}}} {}
  std::vector<EWord>& words() { return alts.front().elems; }  // the default path's
  const std::vector<EWord>& words() const { return alts.front().elems; }
  std::size_t size() const { return alts.size(); }
  // Only the default path's words remain (an assignment replaced the value on every path).
  void reset(std::vector<EWord> words) { alts = {Alt{std::move(words), Condition{}}}; }
  // The value on other paths is gone (an element assigned on this path changes every path's).
  void drop_others() { alts.resize(1); }
};

struct Var {
  Value value;                    // a scalar's default words are exactly one word
  std::vector<std::string> keys;  // associative arrays: keys parallel to the default words
  bool array = false;
  bool assoc = false;
  bool exported = false;
  bool readonly = false;
  bool from_mktemp = false;
  // Which assignment gave the value (0: merged from paths, not one value): tests of the same
  // serial test the same value, so their path atoms can contradict each other.
  std::uint64_t serial = 0;

  std::vector<EWord>& elems() { return value.words(); }
  const std::vector<EWord>& elems() const { return value.words(); }
};

// Shared until written: the state of a path is copied at every branch, and a branch that
// changes one variable must not copy the others (nor a nest of `if`s the whole state per
// level). Copies share; the first write through mut() on a shared copy clones one level.
template <class T>
class Cow {
 public:
  Cow() : p_(std::make_shared<T>()) {}
  // A move copies the pointer: a moved-from state (merge_states takes states by value) stays
  // a valid one that shares the value.
  Cow(const Cow&) = default;
  Cow& operator=(const Cow&) = default;
  ~Cow() = default;
  const T& get() const { return *p_; }
  T& mut() {
    if (p_.use_count() > 1) p_ = std::make_shared<T>(*p_);
    return *p_;
  }
  // The same object: neither path changed it since they parted.
  bool same(const Cow& o) const { return p_ == o.p_; }

 private:
  std::shared_ptr<T> p_;
};

// One scope's variables; each variable shared between paths until one of them changes it.
using VarMap = FlatMap<Cow<Var>>;

// The bounds on values (docs/bash-evaluation.md "Values and argument lists"); what they cut is
// never the default path's value.
inline constexpr std::size_t kMaxValueAlts = 5;      // a word's default and 4 others
inline constexpr std::size_t kMaxKeyAlts = 8;        // a dispatch table's elements in one word
inline constexpr std::size_t kMaxArgvVariants = 8;   // argument lists per command
inline constexpr std::size_t kMaxCombinations = 64;  // combinations tried per command

// The product of two values as adjacent text joins them (`--network=$NET`, join_fields): each
// pair of alternatives whose paths agree with each other and with `path`, under the
// conjunction of their conditions; the default pair first, then each side's other values with
// the other side's default, then the rest, at most max(kMaxValueAlts, either side's count).
// `acc` is taken by value: a caller that builds a long word or body piece by piece moves it in,
// and its words are moved, not copied, when `next` has one alternative (a heredoc of 16,000
// expansions was copied 16,000 times).
Value join_values(Value acc, const Value& next, bool& started, const Condition& path);
// The product of two values: each pair of alternatives whose paths agree with each other and
// with `path`, under the conjunction of their conditions, in the order join_values gives;
// `combine` makes the pair's words from `r` (a's words, the pair's condition, picks and
// paths) and b. What join_values, the pattern operators (`${X#$p}`, `${X/$a/$b}`) and the
// pieces of a here-document share.
using Combine = std::function<void(Alt& r, const Alt& b)>;
Value product_values(Value a, const Value& b, const Condition& path, const Combine& combine);
// Fields joined into one word as "$*" joins them; an empty list is the empty word at `empty_at`.
EWord join_words(const std::vector<EWord>& fields, const Provenance& empty_at);
// Each alternative joined into one word (an assignment's or a test operand's word).
Value joined_alternatives(const Value& v, const Provenance& empty_at);

}  // namespace sbr::bash
