// Arithmetic: `$(( ))`, `(( ))`, array indices. The value when the script fixes every operand;
// nullopt otherwise. Assignments inside (`i++`, `n+=2`) update the variable as bash does.
#include <cctype>

#include "analyzer/render/bash/evaluator.h"
#include "analyzer/render/bash/words.h"

namespace sbr::bash {
namespace {

bool is_name(std::string_view s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return true;
}

// `a OP b` on two known operands; nullopt for division by zero or an unknown operator.
std::optional<long long> apply_operator(const std::string& op, long long a, long long b) {
  if (op == "+") return a + b;
  if (op == "-") return a - b;
  if (op == "*") return a * b;
  if (op == "/") return b == 0 ? std::nullopt : std::optional<long long>(a / b);
  if (op == "%") return b == 0 ? std::nullopt : std::optional<long long>(a % b);
  if (op == "<") return a < b;
  if (op == ">") return a > b;
  if (op == "<=") return a <= b;
  if (op == ">=") return a >= b;
  if (op == "==") return a == b;
  if (op == "!=") return a != b;
  if (op == "&&") return a && b;
  if (op == "||") return a || b;
  return std::nullopt;
}

}  // namespace

std::optional<long long> Evaluator::arith(TSNode n, Ctx& ctx) {
  if (ts_node_is_null(n)) return std::nullopt;
  step(n, ctx);
  Nest nest(*this, n, ctx);
  K k = sym(n);
  // An operand a parse repair rewrote (`10#$n` read as `$n`): its value is not known.
  if (ts_node_named_child_count(n) == 0 && ctx.tree->touches_repair(n)) return std::nullopt;
  if (k == K::number) {
    long long x;
    std::string t(ctx.tree->slice(n));
    if (numeric(t, x)) return x;
    return std::nullopt;
  }
  if (k == K::variable_name) return arith_var(std::string(ctx.tree->slice(n)));
  if (k == K::word) return arith_word(n, ctx);
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
  if (k == K::postfix_expression || k == K::unary_expression) return arith_unary(n, ctx);
  if (k == K::binary_expression) return arith_binary(n, ctx);
  return std::nullopt;
}

// A variable's value in arithmetic: unset is 0, a non-number is unknown.
std::optional<long long> Evaluator::arith_var(const std::string& name) {
  const Var* v = lookup(name);
  if (!v) return 0;  // unset is 0 in arithmetic
  if (v->elems().empty() || v->elems()[0].w.symbolic) return std::nullopt;
  long long x;
  if (v->elems()[0].w.text.empty()) return 0;
  if (numeric(v->elems()[0].w.text, x)) return x;
  return std::nullopt;
}

void Evaluator::arith_set(const std::string& name, long long x, TSNode n, const Ctx& ctx) {
  EWord w;
  w.w.text = std::to_string(x);
  w.w.from = prov(n, ctx);
  assign_slot(name, false).value.reset({w});
}

// A word: a number, a name, or `i++` / `--i` written as one word.
std::optional<long long> Evaluator::arith_word(TSNode n, Ctx& ctx) {
  std::string t(ctx.tree->slice(n));
  long long x;
  if (numeric(t, x)) return x;
  for (std::string_view suf : {"++", "--"}) {
    long long step_by = suf == "++" ? 1 : -1;
    if (t.size() > 2 && t.substr(t.size() - 2) == suf && is_name(t.substr(0, t.size() - 2))) {
      std::string nm = t.substr(0, t.size() - 2);
      auto v = arith_var(nm);
      if (!v) return std::nullopt;
      arith_set(nm, *v + step_by, n, ctx);
      return v;
    }
    if (t.size() > 2 && t.substr(0, 2) == suf && is_name(t.substr(2))) {
      std::string nm = t.substr(2);
      auto v = arith_var(nm);
      if (!v) return std::nullopt;
      arith_set(nm, *v + step_by, n, ctx);
      return *v + step_by;
    }
  }
  if (is_name(t)) return arith_var(t);
  return std::nullopt;
}

// `-x`, `!x`, `~x`, `++i`, `i--`.
std::optional<long long> Evaluator::arith_unary(TSNode n, Ctx& ctx) {
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
    auto v = arith_var(nm);
    if (!v) return std::nullopt;
    long long nv = *v + (op == "++" ? 1 : -1);
    arith_set(nm, nv, n, ctx);
    return is(n, K::postfix_expression) ? *v : nv;
  }
  auto v = arith(operand, ctx);
  if (!v) return std::nullopt;
  if (op == "-") return -*v;
  if (op == "!") return *v == 0 ? 1 : 0;
  if (op == "~") return ~*v;
  return *v;
}

std::optional<long long> Evaluator::arith_binary(TSNode n, Ctx& ctx) {
  TSNode l = field(n, F::left), r = field(n, F::right);
  std::string op;
  for (TSNode c : children(n)) {
    if (!ts_node_is_named(c)) {
      op = std::string(ctx.tree->slice(c));
      break;
    }
  }
  if (op == "=" || op == "+=" || op == "-=" || op == "*=") return arith_assign(n, ctx, op);
  auto a = arith(l, ctx);
  auto b = arith(r, ctx);
  if (!a || !b) return std::nullopt;
  return apply_operator(op, *a, *b);
}

// `n = expr`, `n += expr`, ...: an unknown right side leaves the variable unknown.
std::optional<long long> Evaluator::arith_assign(TSNode n, Ctx& ctx, const std::string& op) {
  std::string nm(ctx.tree->slice(field(n, F::left)));
  auto rv = arith(field(n, F::right), ctx);
  if (!rv) {
    EWord unknown;
    unknown.w.symbolic = true;
    unknown.w.origin = "arithmetic";
    unknown.w.from = prov(n, ctx);
    assign_slot(nm, false).value.reset({unknown});
    return std::nullopt;
  }
  long long base = 0;
  if (op != "=") {
    auto cur = arith_var(nm);
    if (!cur) return std::nullopt;
    base = *cur;
  }
  long long nv = op == "=" ? *rv : op == "+=" ? base + *rv : op == "-=" ? base - *rv : base * *rv;
  arith_set(nm, nv, n, ctx);
  return nv;
}

}  // namespace sbr::bash
