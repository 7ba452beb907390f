// Sprig's numbers, type conversion and inspection, encoding and hashing, semver, and the
// non-deterministic functions, which return fixed placeholders so output stays byte-identical.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "analyzer/render/helm/digest.h"
#include "analyzer/render/helm/funcs.h"
#include "analyzer/render/helm/semver.h"

namespace sbr::render::helm {

namespace {

using Args = std::vector<Value>;

Value fn_int(Exec&, Args& a, const Location& at) {
  arity(a, 1, 1, "int", at);
  return Value::integer(int_of(a[0]));
}

Value fn_float(Exec&, Args& a, const Location& at) {
  arity(a, 1, 1, "float64", at);
  return Value::number(as_float(a[0]));
}

// sprig's strslice: a list's items as strings, nil items left out; another value is a list
// of its one string, nil an empty list.
Value fn_to_strings(Exec&, Args& a, const Location& at) {
  arity(a, 1, 1, "toStrings", at);
  List out;
  if (a[0].is_list()) {
    for (const Value& v : *a[0].list) {
      if (!v.is_nil()) out.push_back(Value::string(text_of(v)));
    }
  } else if (!a[0].is_nil()) {
    out.push_back(Value::string(text_of(a[0])));
  }
  return Value::new_list(std::move(out));
}

// Sprig's arithmetic converts to int64 (add, sub, mul, div, mod, max, min).
template <typename Op>
Value fold(Args& a, const Location& at, const char* name, Op op) {
  if (a.empty()) throw RenderError(fmt::format("wrong number of args for {}", name), at);
  std::int64_t acc = int_of(a[0]);
  for (std::size_t k = 1; k < a.size(); ++k) acc = op(acc, int_of(a[k]), at);
  return Value::integer(acc);
}

Value fn_add(Exec&, Args& a, const Location& at) {
  return fold(a, at, "add", [](std::int64_t x, std::int64_t y, const Location&) { return x + y; });
}
Value fn_sub(Exec&, Args& a, const Location& at) {
  arity(a, 2, 2, "sub", at);
  return fold(a, at, "sub", [](std::int64_t x, std::int64_t y, const Location&) { return x - y; });
}
Value fn_mul(Exec&, Args& a, const Location& at) {
  return fold(a, at, "mul", [](std::int64_t x, std::int64_t y, const Location&) { return x * y; });
}
Value fn_div(Exec&, Args& a, const Location& at) {
  arity(a, 2, 2, "div", at);
  return fold(a, at, "div", [](std::int64_t x, std::int64_t y, const Location& where) {
    if (y == 0) throw RenderError("error calling div: integer divide by zero", where);
    return x / y;
  });
}
Value fn_mod(Exec&, Args& a, const Location& at) {
  arity(a, 2, 2, "mod", at);
  return fold(a, at, "mod", [](std::int64_t x, std::int64_t y, const Location& where) {
    if (y == 0) throw RenderError("error calling mod: integer divide by zero", where);
    return x % y;
  });
}
Value fn_max(Exec&, Args& a, const Location& at) {
  return fold(a, at, "max",
              [](std::int64_t x, std::int64_t y, const Location&) { return std::max(x, y); });
}
Value fn_min(Exec&, Args& a, const Location& at) {
  return fold(a, at, "min",
              [](std::int64_t x, std::int64_t y, const Location&) { return std::min(x, y); });
}
Value fn_add1(Exec&, Args& a, const Location& at) {
  arity(a, 1, 1, "add1", at);
  return Value::integer(int_of(a[0]) + 1);
}
Value fn_floor(Exec&, Args& a, const Location& at) {
  arity(a, 1, 1, "floor", at);
  return Value::number(std::floor(as_float(a[0])));
}
Value fn_ceil(Exec&, Args& a, const Location& at) {
  arity(a, 1, 1, "ceil", at);
  return Value::number(std::ceil(as_float(a[0])));
}

}  // namespace

std::string kind_of(const Value& v) {
  switch (v.kind) {
    case Kind::Nil:
      return "invalid";
    case Kind::Bool:
      return "bool";
    case Kind::Int:
      return "int";
    case Kind::Float:
      return "float64";
    case Kind::String:
      return "string";
    case Kind::List:
      return "slice";
    case Kind::Map:
      return v.map->count("\x02sec") ? "struct" : "map";  // a time (go_time.h) is a struct
    case Kind::Method:
      return "func";
  }
  return "invalid";
}

namespace {

Value fn_kind_of(Exec&, Args& a, const Location& at) {
  arity(a, 1, 1, "kindOf", at);
  return Value::string(kind_of(a[0]));
}
Value fn_kind_is(Exec&, Args& a, const Location& at) {
  arity(a, 2, 2, "kindIs", at);
  return Value::boolean(text_of(a[0]) == kind_of(a[1]));
}
Value fn_type_of(Exec&, Args& a, const Location& at) {
  arity(a, 1, 1, "typeOf", at);
  return Value::string(type_name(a[0]));
}
Value fn_type_is(Exec&, Args& a, const Location& at) {
  arity(a, 2, 2, "typeIs", at);
  return Value::boolean(text_of(a[0]) == type_name(a[1]));
}

Value fn_b64enc(Exec&, Args& a, const Location& at) {
  arity(a, 1, 1, "b64enc", at);
  return Value::string(base64_encode(text_of(a[0])));
}
Value fn_b64dec(Exec&, Args& a, const Location& at) {
  arity(a, 1, 1, "b64dec", at);
  std::string out;
  if (!base64_decode(text_of(a[0]), out)) return Value::string("illegal base64 data");
  return Value::string(out);
}
Value fn_sha256(Exec&, Args& a, const Location& at) {
  arity(a, 1, 1, "sha256sum", at);
  return Value::string(sha256_hex(text_of(a[0])));
}

Value fn_semver_compare(Exec&, Args& a, const Location& at) {
  arity(a, 2, 2, "semverCompare", at);
  std::string error;
  bool ok = semver_satisfies(text_of(a[0]), text_of(a[1]), error);
  if (!error.empty()) throw RenderError("semverCompare: " + error, at);
  return Value::boolean(ok);
}

// Fixed placeholders (docs/rendering.md): the same text on every run. `now` and the dates are
// in funcs_dates.cpp.
Value fn_rand_alnum(Exec&, Args& a, const Location& at) {
  arity(a, 1, 1, "randAlphaNum", at);
  return Value::string(
      std::string(static_cast<std::size_t>(std::clamp<std::int64_t>(int_of(a[0]), 0, 4096)), 'x'));
}
Value fn_uuid(Exec&, Args&, const Location&) {
  return Value::string("00000000-0000-4000-8000-000000000000");
}
Value fn_placeholder_cert(Exec&, Args&, const Location&) {
  return Value::new_map({{"Cert", Value::string("SBREVIEW-PLACEHOLDER-CERT")},
                         {"Key", Value::string("SBREVIEW-PLACEHOLDER-KEY")}});
}

}  // namespace

void add_misc_functions(FunctionTable& t) {
  t["int"] = fn_int;
  t["int64"] = fn_int;
  t["atoi"] = fn_int;
  t["float64"] = fn_float;
  t["toStrings"] = fn_to_strings;
  t["add"] = fn_add;
  t["sub"] = fn_sub;
  t["mul"] = fn_mul;
  t["div"] = fn_div;
  t["mod"] = fn_mod;
  t["max"] = fn_max;
  t["min"] = fn_min;
  t["add1"] = fn_add1;
  t["floor"] = fn_floor;
  t["ceil"] = fn_ceil;
  t["kindOf"] = fn_kind_of;
  t["kindIs"] = fn_kind_is;
  t["typeOf"] = fn_type_of;
  t["typeIs"] = fn_type_is;
  t["b64enc"] = fn_b64enc;
  t["b64dec"] = fn_b64dec;
  t["sha256sum"] = fn_sha256;
  t["semverCompare"] = fn_semver_compare;
  t["randAlphaNum"] = fn_rand_alnum;
  t["randAlpha"] = fn_rand_alnum;
  t["randNumeric"] = fn_rand_alnum;
  t["randAscii"] = fn_rand_alnum;
  t["uuidv4"] = fn_uuid;
  t["genCA"] = fn_placeholder_cert;
  t["genSelfSignedCert"] = fn_placeholder_cert;
  t["genSignedCert"] = fn_placeholder_cert;
}

}  // namespace sbr::render::helm
