// Sprig's reflection and number functions beside funcs_misc.cpp (deepEqual, typeIsLike,
// round, toDecimal, seq, biggest), its list slicing and chunking (sprig's `slice` is the one
// helm's templates call: a FuncMap entry shadows Go's builtin of the same name), and Go's
// builtin `call`.
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>
#include <vector>

#include "analyzer/render/helm/exec.h"
#include "analyzer/render/helm/funcs.h"

namespace sbr::render::helm {

namespace {

using Args = std::vector<Value>;

// reflect.DeepEqual over template values: the same Go type and equal contents (an int is never
// equal to a float64, as a template's 1 is not values' 1).
bool reflect_equal(const Value& x, const Value& y) {
  ValueDepth level;
  if (x.kind != y.kind) return false;
  switch (x.kind) {
    case Kind::Nil:
    case Kind::Bool:
    case Kind::Int:
    case Kind::Float:
    case Kind::String: {
      bool comparable = true;
      return basic_equal(x, y, comparable);
    }
    case Kind::List:
      return x.list->size() == y.list->size() &&
             std::equal(x.list->begin(), x.list->end(), y.list->begin(), reflect_equal);
    case Kind::Map:
      if (x.map->size() != y.map->size()) return false;
      for (const auto& [key, item] : *x.map) {
        auto f = y.map->find(key);
        if (f == y.map->end() || !reflect_equal(item, f->second)) return false;
      }
      return true;
    case Kind::Method:
      return false;
  }
  return false;
}

Value fn_deep_equal(Exec&, Args& a, const Location& at) {
  arity(a, 2, 2, "deepEqual", at);
  return Value::boolean(reflect_equal(a[0], a[1]));
}

Value fn_type_is_like(Exec&, Args& a, const Location& at) {
  arity(a, 2, 2, "typeIsLike", at);
  const std::string target = text_of(a[0]), type = type_name(a[1]);
  return Value::boolean(type == target || type == "*" + target);
}

// sprig's round: to `places` decimals, up from `round_on` (0.5) of the next digit; Go's Modf
// keeps the sign, so a negative half rounds down.
Value fn_round(Exec&, Args& a, const Location& at) {
  arity(a, 2, 3, "round", at);
  const double round_on = a.size() > 2 ? as_float(a[2]) : 0.5;
  const double pow = std::pow(10.0, static_cast<double>(int_of(a[1])));
  const double digit = pow * as_float(a[0]);
  double whole = 0;
  const double frac = std::modf(digit, &whole);
  return Value::number((frac >= round_on ? std::ceil(digit) : std::floor(digit)) / pow);
}

// strconv.ParseInt(fmt.Sprint(v), 8, 64), 0 on any error.
Value fn_to_decimal(Exec&, Args& a, const Location& at) {
  arity(a, 1, 1, "toDecimal", at);
  std::string text = a[0].is_nil() ? "<nil>" : print_value(a[0]);
  std::string_view digits = text;
  const bool neg = !digits.empty() && digits[0] == '-';
  if (!digits.empty() && (digits[0] == '-' || digits[0] == '+')) digits.remove_prefix(1);
  std::int64_t n = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n, 8);
  if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size())
    return Value::integer(0);
  return Value::integer(neg ? -n : n);
}

// sprig's seq, as GNU seq: `seq END` from 1, `seq START END`, `seq START STEP END`; the numbers
// joined by spaces, "" when the step walks away from the end.
Value fn_seq(Exec& ex, Args& a, const Location& at) {
  std::vector<std::int64_t> p;
  for (const Value& v : a) p.push_back(int_of(v));
  std::int64_t start = 1, stop = 0, step = 1;
  switch (p.size()) {
    case 1:
      stop = p[0];
      step = stop < start ? -1 : 1;
      stop += step;
      break;
    case 2:
      start = p[0];
      stop = p[1];
      step = stop < start ? -1 : 1;
      stop += step;
      break;
    case 3: {
      start = p[0];
      step = p[1];
      const std::int64_t increment = p[2] < start ? -1 : 1;
      if (increment < 0 && step > 0) return Value::string("");
      stop = p[2] + increment;
      break;
    }
    default:
      return Value::string("");
  }
  // sprig's untilStep: nothing when the step is 0 or points away from stop.
  if ((stop < start && step >= 0) || (stop >= start && step <= 0)) return Value::string("");
  const std::uint64_t span = static_cast<std::uint64_t>(stop < start ? start - stop : stop - start);
  const std::uint64_t count = span / static_cast<std::uint64_t>(step < 0 ? -step : step) + 1;
  if (count > kMaxListItems)
    throw RenderError(fmt::format("seq would print {} numbers, past sbreview's budget of {}", count,
                                  kMaxListItems),
                      at);
  ex.charge(count * 21, "seq", at);
  std::string out;
  for (std::int64_t i = start; stop < start ? i > stop : i < stop; i += step)
    out += (out.empty() ? "" : " ") + std::to_string(i);
  return Value::string(out);
}

// reflect.TypeOf(nil).Kind() is a nil dereference in sprig's list functions.
void not_nil(const Value& v, const char* name, const Location& at) {
  if (v.is_nil())
    throw RenderError(fmt::format("error calling {}: runtime error: invalid memory address or nil "
                                  "pointer dereference",
                                  name),
                      at);
}

// sprig's mustChunk: lists of `size` items, the last one shorter; computed in float64 as sprig
// does, so a size below 1 is Go's makeslice panic.
Value chunk(Args& a, const Location& at, const char* name) {
  arity(a, 2, 2, name, at);
  not_nil(a[1], name, at);
  if (!a[1].is_list())
    throw RenderError(fmt::format("error calling {}: Cannot chunk type {}", name, kind_of(a[1])),
                      at);
  const List& l = *a[1].list;
  const std::int64_t size = int_of(a[0]);
  const auto len = static_cast<double>(l.size());
  const double chunks = std::floor((len - 1) / static_cast<double>(size)) + 1;
  auto bad_len = [&] {
    return RenderError(
        fmt::format("error calling {}: runtime error: makeslice: len out of range", name), at);
  };
  if (!std::isfinite(chunks) || chunks < 0 || chunks > static_cast<double>(kMaxListItems))
    throw bad_len();
  List out;
  const auto count = static_cast<std::int64_t>(chunks);
  for (std::int64_t i = 0; i < count; ++i) {
    std::int64_t clen = size;
    if (i == count - 1) {
      clen = static_cast<std::int64_t>(std::floor(std::fmod(len, static_cast<double>(size))));
      if (clen == 0) clen = size;
    }
    if (clen < 0) throw bad_len();
    List part;
    for (std::int64_t j = 0; j < clen; ++j) {
      const std::int64_t ix = i * size + j;
      if (ix < 0 || ix >= static_cast<std::int64_t>(l.size()))
        throw RenderError(fmt::format("error calling {}: reflect: slice index out of range", name),
                          at);
      part.push_back(l[static_cast<std::size_t>(ix)]);
    }
    out.push_back(Value::new_list(std::move(part)));
  }
  return Value::new_list(std::move(out));
}

Value fn_chunk(Exec&, Args& a, const Location& at) {
  return chunk(a, at, "chunk");
}
Value fn_must_chunk(Exec&, Args& a, const Location& at) {
  return chunk(a, at, "mustChunk");
}

// sprig's mustSlice: a list from the first index to the second (or its end); an empty list is
// nil; strings are not lists to sprig.
Value slice(Args& a, const Location& at, const char* name) {
  if (a.empty())
    throw RenderError(fmt::format("wrong number of args for {}: want at least 1 got 0", name), at);
  not_nil(a[0], name, at);
  if (!a[0].is_list())
    throw RenderError(fmt::format("error calling {}: list should be type of slice or array but {}",
                                  name, kind_of(a[0])),
                      at);
  const List& l = *a[0].list;
  if (l.empty()) return Value{};
  const std::int64_t start = a.size() > 1 ? int_of(a[1]) : 0;
  const std::int64_t end = a.size() > 2 ? int_of(a[2]) : static_cast<std::int64_t>(l.size());
  if (start < 0 || end < start || end > static_cast<std::int64_t>(l.size()))
    throw RenderError(
        fmt::format("error calling {}: reflect.Value.Slice: slice index out of range", name), at);
  return Value::new_list(List(l.begin() + start, l.begin() + end));
}

Value fn_slice(Exec&, Args& a, const Location& at) {
  return slice(a, at, "slice");
}
Value fn_must_slice(Exec&, Args& a, const Location& at) {
  return slice(a, at, "mustSlice");
}

// Go's builtin call. The executor puts the callee's text first (as Go's evalCall does for its
// message); no template value is a function (methods run where they are named), so a call
// always stops with Go's error.
Value fn_call(Exec&, Args& a, const Location& at) {
  if (a.size() < 2) throw RenderError("wrong number of args for call: want at least 1 got 0", at);
  if (a[1].is_nil()) throw RenderError("error calling call: call of nil", at);
  throw RenderError(
      fmt::format("error calling call: non-function {} of type {}", text_of(a[0]), type_name(a[1])),
      at);
}

}  // namespace

// The text of a command's operand as Go's parse nodes print it, for `call`'s message.
std::string operand_text(const Arg& arg) {
  std::string fields;
  for (const std::string& f : arg.fields) fields += "." + f;
  switch (arg.type) {
    case Arg::Type::Dot:
      return fields.empty() ? "." : fields;
    case Arg::Type::Field:
      return fields;
    case Arg::Type::Variable:
      return arg.name + fields;
    case Arg::Type::Pipe:
      return "(...)" + fields;
    case Arg::Type::Identifier:
      return arg.name;
    case Arg::Type::Literal:
      if (arg.literal.is_string()) return go_sprintf("%q", {arg.literal}, 0);
      return arg.literal.is_nil() ? "nil" : print_value(arg.literal);
  }
  return "";
}

void add_reflect_functions(FunctionTable& t) {
  t["deepEqual"] = fn_deep_equal;
  t["typeIsLike"] = fn_type_is_like;
  t["round"] = fn_round;
  t["toDecimal"] = fn_to_decimal;
  t["seq"] = fn_seq;
  t["biggest"] = t.at("max");
  t["chunk"] = fn_chunk;
  t["mustChunk"] = fn_must_chunk;
  t["slice"] = fn_slice;
  t["mustSlice"] = fn_must_slice;
  t["call"] = fn_call;
}

}  // namespace sbr::render::helm
