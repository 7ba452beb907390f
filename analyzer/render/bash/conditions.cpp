// Conditions and arithmetic. A condition on values the script fixes is decided; one on the
// environment or arguments is not, but is evaluated once more with every symbolic value at its
// default, which tells the default path (no switch needed) from the one that needs a switch.
#include <fmt/format.h>
#include <re2/re2.h>

#include <cctype>
#include <cstdint>

#include "analyzer/render/bash/evaluator.h"
#include "analyzer/support/strings.h"

namespace sbr::bash {
namespace {

using Truth = Evaluator::Truth;

// `$NET`, "${NET:-x}", "$NET" -> NET; otherwise the text as written.
std::string label_of(std::string_view s) {
  size_t i = 0;
  if (i < s.size() && s[i] == '"') ++i;
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

bool numeric(const std::string& s, long long& v) {
  if (s.empty()) return false;
  size_t i = s[0] == '-' ? 1 : 0;
  if (i == s.size()) return false;
  for (size_t j = i; j < s.size(); ++j)
    if (!std::isdigit(static_cast<unsigned char>(s[j]))) return false;
  try {
    v = std::stoll(s);
  } catch (...) {
    return false;
  }
  return true;
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

}  // namespace

Truth Evaluator::condition(TSNode n, Ctx& ctx) {
  if (ts_node_is_null(n)) return Truth{};
  step(n, ctx);
  Nest nest(*this, n, ctx);
  K k = sym(n);
  std::string src(ctx.tree->slice(n));
  if (src.size() > 80) src = src.substr(0, 77) + "...";
  Truth unknown;
  CondAtom said = outcome_atom(src, false);  // "`nft` is installed" for `command -v nft`
  bool probe = said.shown.rfind("`" + src, 0) != 0;
  unknown.text = probe ? said.shown : "`" + src + "` succeeds";
  unknown.negated_text = probe ? said.negation : "`" + src + "` fails";
  if (k == K::test_command) {
    for (TSNode c : named_children(n)) {
      if (is(c, K::comment)) continue;
      // `(( expr ))` parsed as a test command.
      if (ts_node_child_count(n) > 0 && is(ts_node_child(n, 0), K::dparen_open)) {
        auto v = arith(c, ctx);
        if (v) {
          unknown.known = *v != 0;
        }
        return unknown;
      }
      return condition(c, ctx);
    }
    return unknown;
  }
  if (k == K::negated_command) {
    for (TSNode c : named_children(n)) return negate(condition(c, ctx));
    return unknown;
  }
  // `! command -v nft >/dev/null`: the redirect wraps the whole negation. It still runs as the
  // redirected statement it is; only its words for the reader come from the command inside.
  if (k == K::redirected_statement && !ts_node_is_null(field(n, F::body))) {
    TSNode body = field(n, F::body);
    bool negated = is(body, K::negated_command) && ts_node_named_child_count(body) > 0;
    TSNode inner = negated ? ts_node_named_child(body, ts_node_named_child_count(body) - 1) : body;
    CondAtom a = outcome_atom(ctx.tree->slice(inner), false);
    unknown.text = negated ? a.negation : a.shown;
    unknown.negated_text = negated ? a.shown : a.negation;
  }
  if (k == K::parenthesized_expression) {
    for (TSNode c : named_children(n)) return condition(c, ctx);
    return unknown;
  }
  if (k == K::binary_expression) {
    TSNode l = field(n, F::left), r = field(n, F::right);
    std::string op;
    for (TSNode c : children(n)) {
      if (!ts_node_is_named(c) || is(c, K::test_operator)) {
        std::string_view ck = ctx.tree->slice(c);
        if (!ts_node_eq(c, l) && !ts_node_eq(c, r)) {
          op = std::string(ck);
          break;
        }
      }
    }
    if (op == "&&" || op == "-a" || op == "||" || op == "-o") {
      Truth a = condition(l, ctx);
      Truth b = condition(r, ctx);
      return combine(a, b, op == "&&" || op == "-a");
    }
    EWord a = expand_joined(l, ctx);
    EWord b = expand_joined(r, ctx);
    std::string la = label_of(ctx.tree->slice(l));
    std::string lb = label_of(ctx.tree->slice(r));
    auto eval = [&](const std::string& x, const std::string& y) -> std::optional<bool> {
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
    };
    Truth t;
    std::string shown_b = b.w.symbolic ? lb : b.w.text;
    if (op == "==" || op == "=") {
      t.text = la + "=" + shown_b;
      t.negated_text = la + "!=" + shown_b;
    } else if (op == "!=") {
      t.text = la + "!=" + shown_b;
      t.negated_text = la + "=" + shown_b;
    } else if (op == "=~") {
      t.text = la + " matches /" + b.w.text + "/";
      t.negated_text = la + " does not match /" + b.w.text + "/";
    } else {
      t.text = la + " " + op + " " + shown_b;
      t.negated_text = "not " + t.text;
    }
    describe_argument_count(la, op, shown_b, t);
    if (!b.w.symbolic) {
      t.subject = subject_of(label_of(ctx.tree->slice(l)) == la ? la : "");
      bool plain = b.w.text.find_first_of("*?[") == std::string::npos;
      if (plain && (op == "==" || op == "=")) t.equals = b.w.text;
      if (plain && op == "!=") t.negated_equals = b.w.text;
    }
    if (!a.w.symbolic && !b.w.symbolic) {
      t.known = eval(a.w.text, b.w.text);
      if (!t.known) {
        t.text = unknown.text;
        t.negated_text = unknown.negated_text;
      }
    } else if (a.default_known && b.default_known) {
      t.default_value = eval(a.w.text, b.w.text);
    }
    return t;
  }
  if (k == K::unary_expression) {
    std::string op;
    TSNode operand{};
    for (TSNode c : children(n)) {
      if (is(c, K::test_operator) || (!ts_node_is_named(c) && op.empty()))
        op = std::string(ctx.tree->slice(c));
      else if (ts_node_is_named(c))
        operand = c;
    }
    if (op == "!") return negate(condition(operand, ctx));
    EWord a = expand_joined(operand, ctx);
    std::string la = label_of(ctx.tree->slice(operand));
    Truth t;
    if (op == "-n" || op == "-z") {
      bool want_set = op == "-n";
      t.text = la + (want_set ? " is set" : " is empty");
      t.negated_text = la + (want_set ? " is empty" : " is set");
      t.subject = subject_of(la);
      if (!a.w.symbolic)
        t.known = a.w.text.empty() != want_set;
      else if (a.default_known)
        t.default_value = a.w.text.empty() != want_set;
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
    // File tests and the rest depend on the host: undecided, no default.
    t.text = op + " " + (a.w.text.empty() ? la : a.w.text);
    t.negated_text = "not " + t.text;
    return t;
  }
  if (k == K::word || k == K::string || k == K::simple_expansion || k == K::expansion ||
      k == K::concatenation) {
    // [ "$x" ]: true when non-empty.
    EWord a = expand_joined(n, ctx);
    Truth t;
    std::string la = label_of(ctx.tree->slice(n));
    t.text = la + " is set";
    t.negated_text = la + " is empty";
    t.subject = subject_of(la);
    if (!a.w.symbolic)
      t.known = !a.w.text.empty();
    else if (a.default_known)
      t.default_value = !a.w.text.empty();
    return t;
  }
  if (k == K::list) {
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
  if (k == K::command) {
    TSNode name = field(n, F::name);
    if (!ts_node_is_null(name)) {
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
    }
  }
  statement(n, ctx);
  return unknown;
}

std::optional<long long> Evaluator::arith(TSNode n, Ctx& ctx) {
  if (ts_node_is_null(n)) return std::nullopt;
  step(n, ctx);
  Nest nest(*this, n, ctx);
  K k = sym(n);
  auto var_value = [&](const std::string& name) -> std::optional<long long> {
    Var* v = lookup(name);
    if (!v) return 0;  // unset is 0 in arithmetic
    if (v->elems.empty() || v->elems[0].w.symbolic) return std::nullopt;
    long long x;
    if (v->elems[0].w.text.empty()) return 0;
    if (numeric(v->elems[0].w.text, x)) return x;
    return std::nullopt;
  };
  auto set_var = [&](const std::string& name, long long x) {
    Var& s = assign_slot(name, false);
    EWord w;
    w.w.text = std::to_string(x);
    w.w.from = prov(n, ctx);
    s.elems = {w};
    s.alts.clear();
  };
  if (k == K::number) {
    long long x;
    std::string t(ctx.tree->slice(n));
    if (numeric(t, x)) return x;
    return std::nullopt;
  }
  if (k == K::variable_name) return var_value(std::string(ctx.tree->slice(n)));
  if (k == K::word) {
    std::string t(ctx.tree->slice(n));
    long long x;
    if (numeric(t, x)) return x;
    auto is_name = [](std::string_view s) {
      if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
      for (char c : s)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
      return true;
    };
    for (std::string_view suf : {"++", "--"}) {
      if (t.size() > 2 && t.substr(t.size() - 2) == suf && is_name(t.substr(0, t.size() - 2))) {
        std::string nm = t.substr(0, t.size() - 2);
        auto v = var_value(nm);
        if (!v) return std::nullopt;
        set_var(nm, *v + (suf == "++" ? 1 : -1));
        return v;
      }
      if (t.size() > 2 && t.substr(0, 2) == suf && is_name(t.substr(2))) {
        std::string nm = t.substr(2);
        auto v = var_value(nm);
        if (!v) return std::nullopt;
        set_var(nm, *v + (suf == "++" ? 1 : -1));
        return *v + (suf == "++" ? 1 : -1);
      }
    }
    if (is_name(t)) return var_value(t);
    return std::nullopt;
  }
  if (k == K::simple_expansion || k == K::expansion || k == K::string ||
      k == K::command_substitution) {
    EWord w = expand_joined(n, ctx);
    long long x;
    if (!w.w.symbolic && numeric(w.w.text, x)) return x;
    return std::nullopt;
  }
  if (k == K::parenthesized_expression || k == K::arithmetic_expansion) {
    std::optional<long long> v;
    for (TSNode c : named_children(n)) v = arith(c, ctx);
    return v;
  }
  if (k == K::postfix_expression || k == K::unary_expression) {
    std::string op;
    TSNode operand{};
    for (TSNode c : children(n)) {
      if (!ts_node_is_named(c))
        op = std::string(ctx.tree->slice(c));
      else
        operand = c;
    }
    if (op == "++" || op == "--") {
      std::string nm(ctx.tree->slice(operand));
      auto v = var_value(nm);
      if (!v) return std::nullopt;
      long long nv = *v + (op == "++" ? 1 : -1);
      set_var(nm, nv);
      return k == K::postfix_expression ? *v : nv;
    }
    auto v = arith(operand, ctx);
    if (!v) return std::nullopt;
    if (op == "-") return -*v;
    if (op == "!") return *v == 0 ? 1 : 0;
    if (op == "~") return ~*v;
    return *v;
  }
  if (k == K::binary_expression) {
    TSNode l = field(n, F::left), r = field(n, F::right);
    std::string op;
    for (TSNode c : children(n)) {
      if (!ts_node_is_named(c)) {
        op = std::string(ctx.tree->slice(c));
        break;
      }
    }
    if (op == "=" || op == "+=" || op == "-=" || op == "*=") {
      std::string nm(ctx.tree->slice(l));
      auto rv = arith(r, ctx);
      if (!rv) {
        Var& s = assign_slot(nm, false);
        EWord unknown;
        unknown.w.symbolic = true;
        unknown.w.origin = "arithmetic";
        unknown.w.from = prov(n, ctx);
        s.elems = {unknown};
        return std::nullopt;
      }
      long long base = 0;
      if (op != "=") {
        auto cur = var_value(nm);
        if (!cur) return std::nullopt;
        base = *cur;
      }
      long long nv = op == "="    ? *rv
                     : op == "+=" ? base + *rv
                     : op == "-=" ? base - *rv
                                  : base * *rv;
      set_var(nm, nv);
      return nv;
    }
    auto a = arith(l, ctx);
    auto b = arith(r, ctx);
    if (!a || !b) return std::nullopt;
    if (op == "+") return *a + *b;
    if (op == "-") return *a - *b;
    if (op == "*") return *a * *b;
    if (op == "/") return *b == 0 ? std::nullopt : std::optional<long long>(*a / *b);
    if (op == "%") return *b == 0 ? std::nullopt : std::optional<long long>(*a % *b);
    if (op == "<") return *a < *b;
    if (op == ">") return *a > *b;
    if (op == "<=") return *a <= *b;
    if (op == ">=") return *a >= *b;
    if (op == "==") return *a == *b;
    if (op == "!=") return *a != *b;
    if (op == "&&") return *a && *b;
    if (op == "||") return *a || *b;
    return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace sbr::bash
