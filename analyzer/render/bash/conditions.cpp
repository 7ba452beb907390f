// Conditions and arithmetic. A condition on values the script fixes is decided; one on the
// environment or arguments is not, but is evaluated once more with every symbolic value at its
// default, which tells the default path (no switch needed) from the one that needs a switch.
#include <fmt/format.h>
#include <re2/re2.h>

#include <cctype>
#include <cstdint>
#include <functional>
#include <optional>

#include <tuple>

#include "analyzer/render/bash/evaluator.h"
#include "analyzer/render/bash/observe.h"
#include "analyzer/render/bash/platform_tests.h"
#include "analyzer/render/bash/unknown_parts.h"
#include "analyzer/render/bash/words.h"
#include "analyzer/support/secrets.h"
#include "analyzer/support/strings.h"

namespace sbr::bash {
namespace {

using Truth = Evaluator::Truth;

// `$NET`, "${NET:-x}", "$NET" -> NET; "${!var:-}" -> the variable named by `var` (claudo's
// `for var in ANTHROPIC_API_KEY ...; [ -n "${!var:-}" ]`: never the shell's syntax); otherwise
// the text as written.
std::string label_of(std::string_view s) {
  size_t i = 0;
  if (i < s.size() && s[i] == '"') ++i;
  if (s.substr(i, 3) == "${!") {
    size_t b = i + 3, e = b;
    while (e < s.size() && (std::isalnum(static_cast<unsigned char>(s[e])) || s[e] == '_')) ++e;
    if (e > b) return "the variable named by `" + std::string(s.substr(b, e - b)) + "`";
  }
  if (i < s.size() && s[i] == '$') {
    ++i;
    if (i < s.size() && s[i] == '{') ++i;
    size_t b = i;
    while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '_')) ++i;
    if (i > b) return std::string(s.substr(b, i - b));
  }
  return std::string(s);
}

Truth negate(Truth t) {
  Truth o;
  if (t.known) o.known = !*t.known;
  if (t.default_value) o.default_value = !*t.default_value;
  o.text = t.negated_text;
  o.negated_text = t.text;
  o.platform = negate_platform(t.platform);
  o.other_path = t.other_path;
  o.narrow = t.narrow;
  return o;
}

Truth combine(const Truth& a, const Truth& b, bool is_and) {
  Truth o;
  if (a.known && b.known)
    o.known = is_and ? (*a.known && *b.known) : (*a.known || *b.known);
  else if (a.known && *a.known == !is_and)
    o.known = *a.known;
  else if (b.known && *b.known == !is_and)
    o.known = *b.known;
  auto dv = [](const Truth& t) { return t.known ? t.known : t.default_value; };
  auto da = dv(a), db = dv(b);
  if (da && db)
    o.default_value = is_and ? (*da && *db) : (*da || *db);
  else if (da && *da == !is_and)
    o.default_value = *da;
  else if (db && *db == !is_and)
    o.default_value = *db;
  // Only the undecided parts belong in the condition text.
  if (a.known) {
    o.text = b.text;
    o.negated_text = b.negated_text;
  } else if (b.known) {
    o.text = a.text;
    o.negated_text = a.negated_text;
  } else {
    o.text = a.text + (is_and ? " and " : " or ") + b.text;
    o.negated_text = "not (" + o.text + ")";
  }
  return o;
}

// `[[ x =~ re ]]`: a POSIX extended regular expression, matched by RE2 so that a hostile pattern
// costs linear time and no stack (std::regex recurses per character). Undecided when RE2
// rejects the pattern (a back-reference, say).
std::optional<bool> ere_search(const std::string& text, const std::string& pattern) {
  RE2::Options o;
  o.set_posix_syntax(true);
  o.set_longest_match(true);
  o.set_log_errors(false);
  o.set_max_mem(std::int64_t{1} << 20);
  RE2 re(pattern, o);
  if (!re.ok()) return std::nullopt;
  return RE2::PartialMatch(text, re);
}

// `[ $# -gt 0 ]` at the top of a script: whether it was started with arguments.
void describe_argument_count(const std::string& label, const std::string& op, const std::string& n,
                             Truth& t) {
  if (label != "#" && label != "$#") return;
  bool some = (op == "-gt" && n == "0") || (op == "-ne" && n == "0") || (op == "-ge" && n == "1");
  bool none = (op == "-eq" && n == "0") || (op == "-lt" && n == "1") || (op == "-le" && n == "0");
  if (!some && !none) return;
  t.text = some ? "started with arguments" : "started without arguments";
  t.negated_text = some ? "started without arguments" : "started with arguments";
}

// The operator of `[[ l OP r ]]` as written.
std::string binary_operator(TSNode n, TSNode l, TSNode r, const Ctx& ctx) {
  for (TSNode c : children(n)) {
    if (!ts_node_is_named(c) || is(c, K::test_operator)) {
      std::string_view ck = ctx.tree->slice(c);
      if (!ts_node_eq(c, l) && !ts_node_eq(c, r)) return std::string(ck);
    }
  }
  return {};
}

// `x OP y` on concrete values; nullopt when the operator or the operands are not understood.
std::optional<bool> compare(const std::string& op, const std::string& x, const std::string& y) {
  // [[ x == pattern ]] and !=: a glob on the right (fnmatch, as bash's own matcher is).
  if (op == "==" || op == "=") return glob_match(y, x);
  if (op == "!=") return !glob_match(y, x);
  if (op == "=~") return ere_search(x, y);
  if (op == "<") return x < y;
  if (op == ">") return x > y;
  long long xi, yi;
  if (!numeric(x, xi) || !numeric(y, yi)) return std::nullopt;
  if (op == "-eq") return xi == yi;
  if (op == "-ne") return xi != yi;
  if (op == "-lt") return xi < yi;
  if (op == "-le") return xi <= yi;
  if (op == "-gt") return xi > yi;
  if (op == "-ge") return xi >= yi;
  return std::nullopt;
}

// The words for `la OP b` holding and not holding.
void describe_comparison(const std::string& la, const std::string& op, const std::string& shown_b,
                         const std::string& pattern, Truth& t) {
  if (op == "==" || op == "=") {
    t.text = la + "=" + shown_b;
    t.negated_text = la + "!=" + shown_b;
  } else if (op == "!=") {
    t.text = la + "!=" + shown_b;
    t.negated_text = la + "=" + shown_b;
  } else if (op == "=~") {
    t.text = la + " matches /" + pattern + "/";
    t.negated_text = la + " does not match /" + pattern + "/";
  } else {
    t.text = la + " " + op + " " + shown_b;
    t.negated_text = "not " + t.text;
  }
  describe_argument_count(la, op, shown_b, t);
}

// A test decided by the operands' default values (`t.known`) is undecided when another path's
// value of an operand decides it the other way, or not at all: `MODE=unsafe` set by an option
// makes `[[ $MODE == unsafe ]]` a branch on that option. `decide` tells the test's outcome for
// one value of each operand (the second is ignored by one-operand tests).
void split_on_other_paths(
    Truth& t, const Condition& here, const Value& va, const Value& vb,
    const std::function<std::optional<bool>(const EWord&, const EWord&)>& decide) {
  if (!t.known || va.words().empty() || vb.words().empty()) return;
  std::vector<const Condition*> flips;
  auto check = [&](const EWord& x, const EWord& y, const Condition& c) {
    if (here.contradicts(c)) return;  // no path reaching the test has that value
    auto r = decide(x, y);
    if (!r || *r != *t.known) flips.push_back(&c);
  };
  for (std::size_t i = 1; i < va.size(); ++i)
    if (!va.alts[i].elems.empty())
      check(va.alts[i].elems.front(), vb.words().front(), va.alts[i].cond);
  for (std::size_t j = 1; j < vb.size(); ++j)
    if (!vb.alts[j].elems.empty())
      check(va.words().front(), vb.alts[j].elems.front(), vb.alts[j].cond);
  if (flips.empty()) return;
  t.default_value = t.known;
  t.known.reset();
  if (flips.size() == 1) {
    t.other_path = *flips.front();
    t.other_path->needs_switch = true;
  }
}

}  // namespace

Truth Evaluator::condition(TSNode n, Ctx& ctx) {
  if (ts_node_is_null(n)) return Truth{};
  step(n, ctx);
  Nest nest(*this, n, ctx);
  K k = sym(n);
  Truth unknown = undecided(n, ctx);
  // A test a parse repair rewrote: not decided on the rewritten text.
  if (k == K::test_command && ctx.tree->within_repair(n)) return unknown;
  if (k == K::test_command) return test_command_truth(n, ctx, unknown);
  if (k == K::negated_command) {
    for (TSNode c : named_children(n)) return negate(condition(c, ctx));
    return unknown;
  }
  if (k == K::parenthesized_expression) {
    for (TSNode c : named_children(n)) return condition(c, ctx);
    return unknown;
  }
  if (k == K::binary_expression) return binary_truth(n, ctx, unknown);
  if (k == K::unary_expression) return unary_truth(n, ctx);
  if (k == K::word || k == K::string || k == K::simple_expansion || k == K::expansion ||
      k == K::concatenation)
    return nonempty_truth(n, ctx);
  if (k == K::list) return list_truth(n, ctx);
  if (k == K::command) {
    if (auto t = command_truth(n, ctx, unknown)) return *t;
  }
  // Any other command (a redirected one included) runs; its status is not known.
  statement(n, ctx);
  return unknown;
}

// A command's status, not decided: "`nft` is installed" for `command -v nft`, else "`src`
// succeeds".
Truth Evaluator::undecided(TSNode n, const Ctx& ctx) {
  std::string src(ctx.tree->shown(n));
  src = shorten(src, 80);
  Truth unknown;
  CondAtom said = outcome_atom(src, false);
  bool probe = said.shown.rfind("`" + src, 0) != 0;
  unknown.text = probe ? said.shown : "`" + src + "` succeeds";
  unknown.negated_text = probe ? said.negation : "`" + src + "` fails";
  unknown.platform = said.platform;
  // `! command -v nft >/dev/null`: the redirect wraps the whole negation. It still runs as the
  // redirected statement it is; only its words for the reader come from the command inside.
  if (is(n, K::redirected_statement) && !ts_node_is_null(field(n, F::body))) {
    TSNode body = field(n, F::body);
    bool negated = is(body, K::negated_command) && ts_node_named_child_count(body) > 0;
    TSNode inner = negated ? ts_node_named_child(body, ts_node_named_child_count(body) - 1) : body;
    CondAtom a = outcome_atom(ctx.tree->slice(inner), false);
    unknown.text = negated ? a.negation : a.shown;
    unknown.negated_text = negated ? a.shown : a.negation;
    unknown.platform = negated ? negate_platform(a.platform) : a.platform;
  }
  return unknown;
}

// `[[ ... ]]`, `[ ... ]`, and `(( expr ))` parsed as a test command.
Truth Evaluator::test_command_truth(TSNode n, Ctx& ctx, Truth unknown) {
  for (TSNode c : named_children(n)) {
    if (is(c, K::comment)) continue;
    if (ts_node_child_count(n) > 0 && is(ts_node_child(n, 0), K::dparen_open)) {
      auto v = arith(c, ctx);
      if (v) unknown.known = *v != 0;
      return unknown;
    }
    return condition(c, ctx);
  }
  return unknown;
}

// `[[ l OP r ]]`: a comparison, or `&&`/`||` (`-a`/`-o`) of two conditions.
Truth Evaluator::binary_truth(TSNode n, Ctx& ctx, const Truth& unknown) {
  TSNode l = field(n, F::left), r = field(n, F::right);
  std::string op = binary_operator(n, l, r, ctx);
  if (op == "&&" || op == "-a" || op == "||" || op == "-o") {
    Truth a = condition(l, ctx);
    Truth b = condition(r, ctx);
    return combine(a, b, op == "&&" || op == "-a");
  }
  const Value va = joined_value(l, ctx);
  const Value vb = joined_value(r, ctx);
  const EWord a = va.words().empty() ? EWord{} : va.words().front();
  const EWord b = vb.words().empty() ? EWord{} : vb.words().front();
  std::string la = label_of(ctx.tree->shown(l));
  std::string lb = label_of(ctx.tree->shown(r));
  Truth t;
  std::string shown_b = b.w.symbolic ? lb : b.w.text;
  describe_comparison(la, op, shown_b, b.w.text, t);
  reword_positional(la, op, a, b, t);
  if (!b.w.symbolic) {
    t.subject = subject_of(la);
    bool plain = b.w.text.find_first_of("*?[") == std::string::npos;
    if (plain && (op == "==" || op == "=")) t.equals = b.w.text;
    if (plain && op == "!=") t.negated_equals = b.w.text;
  }
  if (!a.w.symbolic && !b.w.symbolic) {
    t.known = compare(op, a.w.text, b.w.text);
    if (!t.known) {
      t.text = unknown.text;
      t.negated_text = unknown.negated_text;
    }
    split_on_other_paths(t, ctx.cond, va, vb, [&](const EWord& x, const EWord& y) {
      return x.w.symbolic || y.w.symbolic ? std::nullopt : compare(op, x.w.text, y.w.text);
    });
    if (t.other_path) {
      expanded_variables(l, ctx.tree, t.narrow);
      expanded_variables(r, ctx.tree, t.narrow);
    }
  } else if (auto same = same_host_variable(a, b);
             same && (op == "==" || op == "=" || op == "!=")) {
    t.known = compare(op, same->first, same->second);
  } else if (a.default_known && b.default_known) {
    t.default_value = compare(op, a.w.text, b.w.text);
  }
  platform_comparison(la, op, b, t);
  return t;
}

// `[[ $OSTYPE == darwin* ]]`, `[ "$(uname -s)" = Linux ]`: both branches are paths on some
// platform, neither is a switch (OSTYPE is bash's own, never the operator's to set).
void Evaluator::platform_comparison(const std::string& label, const std::string& op, const EWord& b,
                                    Truth& t) {
  if (b.w.symbolic || t.known || !names_platform(label)) return;
  std::string platform = pattern_platform(b.w.text);
  if (platform.empty()) return;
  bool equal = op == "==" || op == "=";
  if (!equal && op != "!=") return;
  t.platform = equal ? platform : negate_platform(platform);
  t.default_value.reset();
}

// `[[ -n x ]]`, `-z`, `-v`, `!`, and the file tests (host-dependent: undecided).
Truth Evaluator::unary_truth(TSNode n, Ctx& ctx) {
  std::string op;
  TSNode operand{};
  for (TSNode c : children(n)) {
    if (is(c, K::test_operator) || (!ts_node_is_named(c) && op.empty()))
      op = std::string(ctx.tree->slice(c));
    else if (ts_node_is_named(c))
      operand = c;
  }
  if (op == "!") return negate(condition(operand, ctx));
  const Value va = joined_value(operand, ctx);
  const EWord a = va.words().empty() ? EWord{} : va.words().front();
  std::string la = label_of(ctx.tree->slice(operand));
  Truth t;
  if (op == "-n" || op == "-z") {
    bool want_set = op == "-n";
    t.text = la + (want_set ? " is set" : " is empty");
    t.negated_text = la + (want_set ? " is empty" : " is set");
    reword_positional(la, op, a, EWord{}, t);
    t.subject = subject_of(la);
    if (!a.w.symbolic)
      t.known = a.w.text.empty() != want_set;
    else if (a.default_known)
      t.default_value = a.w.text.empty() != want_set;
    if (tests_credential(operand, ctx)) t.default_value.reset();
    split_on_other_paths(t, ctx.cond, va, va, [&](const EWord& x, const EWord&) {
      return x.w.symbolic ? std::nullopt : std::optional<bool>(x.w.text.empty() != want_set);
    });
    if (t.other_path) expanded_variables(operand, ctx.tree, t.narrow);
    return t;
  }
  if (op == "-v") {
    std::string nm = a.w.text;
    t.text = nm + " is defined";
    t.negated_text = nm + " is not defined";
    if (lookup(nm))
      t.known = true;
    else
      t.default_value = false;
    return t;
  }
  std::tie(t.text, t.negated_text) = file_test_words(op, a.w.text.empty() ? la : a.w.text);
  return t;
}

void Evaluator::narrow_to_path(const Truth& t) {
  if (!t.other_path) return;
  for (const std::string& name : t.narrow) {
    Var* v = lookup_mut(name);
    if (v == nullptr || v->array) continue;
    for (std::size_t i = 1; i < v->value.size(); ++i) {
      const Condition& c = v->value.alts[i].cond;
      if (c.text != t.other_path->text || c.atoms != t.other_path->atoms) continue;
      std::vector<EWord> words = v->value.alts[i].elems;
      v->value.reset(std::move(words));
      break;
    }
  }
}

// A user who has a credential sets it: that is how the tool is used (`GITHUB_TOKEN=...
// ./run.sh`), so a test of whether it is set decides between two normal paths, and a secret
// passed on the "set" branch is reported at full severity (issue 34 §4). The name tells a
// credential (support/secrets.h); `${!var}` tests the variable whose name `var` holds.
bool Evaluator::tests_credential(TSNode operand, const Ctx& ctx) const {
  std::vector<std::string> names;
  expanded_variables(operand, ctx.tree, names);
  std::string_view text = ctx.tree->slice(operand);
  for (const std::string& name : names) {
    if (secrets::is_secret_name(name) || secrets::has_secret_word(name)) return true;
    if (text.find("${!" + name) == std::string_view::npos) continue;
    const Var* v = lookup(name);
    if (v == nullptr || v->array) continue;
    for (const EWord& w : v->value.words()) {
      if (!w.w.symbolic && secrets::is_secret_name(w.w.text)) return true;
    }
  }
  return false;
}

// [ "$x" ]: true when non-empty.
Truth Evaluator::nonempty_truth(TSNode n, Ctx& ctx) {
  const Value va = joined_value(n, ctx);
  const EWord a = va.words().empty() ? EWord{} : va.words().front();
  Truth t;
  std::string la = label_of(ctx.tree->slice(n));
  t.text = la + " is set";
  t.negated_text = la + " is empty";
  reword_positional(la, "-n", a, EWord{}, t);
  t.subject = subject_of(la);
  if (!a.w.symbolic)
    t.known = !a.w.text.empty();
  else if (a.default_known)
    t.default_value = !a.w.text.empty();
  if (tests_credential(n, ctx)) t.default_value.reset();
  split_on_other_paths(t, ctx.cond, va, va, [](const EWord& x, const EWord&) {
    return x.w.symbolic ? std::nullopt : std::optional<bool>(!x.w.text.empty());
  });
  if (t.other_path) expanded_variables(n, ctx.tree, t.narrow);
  return t;
}

// `a && b`, `a || b` as a condition.
Truth Evaluator::list_truth(TSNode n, Ctx& ctx) {
  TSNode l{}, r{}, op{};
  for (TSNode c : children(n)) {
    if (ts_node_is_named(c)) {
      if (ts_node_is_null(l))
        l = c;
      else
        r = c;
    } else if (is(c, K::and_and) || is(c, K::or_or))
      op = c;
  }
  Truth a = condition(l, ctx);
  Truth b = condition(r, ctx);
  return combine(a, b, is(op, K::and_and));
}

// `true`, `false`, `:`, `$((...))` as a command, and `test`/`[` run as one; nullopt for any
// other command.
std::optional<Truth> Evaluator::command_truth(TSNode n, Ctx& ctx, Truth unknown) {
  TSNode name = field(n, F::name);
  if (ts_node_is_null(name)) return std::nullopt;
  for (TSNode c : named_children(name)) {
    if (is(c, K::arithmetic_expansion)) {
      std::optional<long long> v;
      for (TSNode e : named_children(c)) v = arith(e, ctx);
      if (v) unknown.known = *v != 0;
      return unknown;
    }
  }
  std::string nm(ctx.tree->slice(name));
  if (nm == "true" || nm == ":") {
    unknown.known = true;
    return unknown;
  }
  if (nm == "false") {
    unknown.known = false;
    return unknown;
  }
  if (nm == "test" || nm == "[") {
    // `test a = b` as a plain command: decided only for the simplest forms.
    statement(n, ctx);
    return unknown;
  }
  return std::nullopt;
}

}  // namespace sbr::bash
