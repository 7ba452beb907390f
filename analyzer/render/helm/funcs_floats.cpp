// Sprig's float math (addf, add1f, subf, mulf, divf, maxf, minf), the hashes beside
// sha256sum (sha1sum, adler32sum) and `semver`, the parsed version. Sprig computes the arithmetic
// in decimal (shopspring's decimal) and returns the nearest float64: 0.1 + 0.2 is 0.3 there. The
// result here is the double's value rounded to 15 significant digits, which gives the same float64
// for the values charts use (memory units, ratios); docs/rendering.md notes the difference.
#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <string>
#include <vector>

#include "analyzer/render/helm/digest.h"
#include "analyzer/render/helm/exec.h"
#include "analyzer/render/helm/funcs.h"
#include "analyzer/render/helm/semver.h"

namespace sbr::render::helm {

namespace {

using Args = std::vector<Value>;

double decimal_like(double d) {
  if (!std::isfinite(d) || d == 0) return d;
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::general, 15);
  if (ec != std::errc()) return d;
  double out = d;
  std::from_chars(buf, end, out);
  return out;
}

template <class Op>
Value fold(Args& a, std::size_t min, const char* name, const Location& at, double start, Op op) {
  arity(a, min, static_cast<std::size_t>(-1), name, at);
  double acc = start;
  bool first = min > 0;
  for (const Value& v : a) {
    double x = as_float(v);
    acc = first ? x : op(acc, x);
    first = false;
  }
  return Value::number(decimal_like(acc));
}

Value fn_addf(Exec&, Args& a, const Location& at) {
  return fold(a, 0, "addf", at, 0, [](double x, double y) { return x + y; });
}
Value fn_add1f(Exec&, Args& a, const Location& at) {
  arity(a, 1, 1, "add1f", at);
  return Value::number(decimal_like(as_float(a[0]) + 1));
}
Value fn_subf(Exec&, Args& a, const Location& at) {
  return fold(a, 1, "subf", at, 0, [](double x, double y) { return x - y; });
}
Value fn_mulf(Exec&, Args& a, const Location& at) {
  return fold(a, 1, "mulf", at, 0, [](double x, double y) { return x * y; });
}
Value fn_divf(Exec&, Args& a, const Location& at) {
  for (std::size_t k = 1; k < a.size(); ++k) {
    if (as_float(a[k]) == 0) throw RenderError("divf: division by zero", at);
  }
  return fold(a, 1, "divf", at, 0, [](double x, double y) { return x / y; });
}
Value fn_maxf(Exec&, Args& a, const Location& at) {
  return fold(a, 1, "maxf", at, 0, [](double x, double y) { return std::fmax(x, y); });
}
Value fn_minf(Exec&, Args& a, const Location& at) {
  return fold(a, 1, "minf", at, 0, [](double x, double y) { return std::fmin(x, y); });
}

Value fn_sha1(Exec&, Args& a, const Location& at) {
  arity(a, 1, 1, "sha1sum", at);
  return Value::string(sha1_hex(text_of(a[0])));
}
Value fn_adler32(Exec&, Args& a, const Location& at) {
  arity(a, 1, 1, "adler32sum", at);
  return Value::string(std::to_string(adler32(text_of(a[0]))));
}

// `semver "1.2.3-rc.1"`: Masterminds' Version, whose methods read as fields (`.Major`) and which
// prints as its String() ("1.2.3-rc.1").
// A *semver.Version's comparison method (Compare, LessThan...) of the version `text`: its one
// argument must be another version, whose order against this one `result` turns into a value.
Value version_method(const std::string& text, Value (*result)(int order)) {
  return Value::function([text, result](const std::vector<Value>& args) {
    const Value* other = args.size() == 1 && args[0].is_map() ? &args[0] : nullptr;
    auto self = other ? other->map->find("\x01") : Map::const_iterator{};
    int order = 0;
    if (!other || self == other->map->end() || !semver_order(text, self->second.s, order)) {
      throw RenderError(fmt::format("wrong type for value; expected *semver.Version; got {}",
                                    args.size() == 1 ? type_name(args[0]) : "no argument"),
                        Location{});
    }
    return result(order);
  });
}

Value fn_semver(Exec&, Args& a, const Location& at) {
  arity(a, 1, 1, "semver", at);
  std::string original = text_of(a[0]), text;
  if (!semver_normalize(original, text))
    throw RenderError("semver: invalid semantic version: " + original, at);
  std::size_t plus = text.find('+');
  std::string meta = plus == std::string::npos ? "" : text.substr(plus + 1);
  std::string core = text.substr(0, plus);
  std::size_t dash = core.find('-');
  std::string pre = dash == std::string::npos ? "" : core.substr(dash + 1);
  core = core.substr(0, dash);
  std::int64_t part[3] = {0, 0, 0};
  std::size_t k = 0;
  for (int i = 0; i < 3 && k <= core.size(); ++i) {
    std::size_t dot = std::min(core.find('.', k), core.size());
    std::from_chars(core.data() + k, core.data() + dot, part[i]);
    k = dot + 1;
  }
  return Value::new_map(
      {{"Major", Value::integer(part[0])},
       {"Minor", Value::integer(part[1])},
       {"Patch", Value::integer(part[2])},
       {"Prerelease", Value::string(pre)},
       {"Metadata", Value::string(meta)},
       {"Original", Value::string(original)},
       {"Compare", version_method(text, [](int o) { return Value::integer(o); })},
       {"Equal", version_method(text, [](int o) { return Value::boolean(o == 0); })},
       {"LessThan", version_method(text, [](int o) { return Value::boolean(o < 0); })},
       {"LessThanEqual", version_method(text, [](int o) { return Value::boolean(o <= 0); })},
       {"GreaterThan", version_method(text, [](int o) { return Value::boolean(o > 0); })},
       {"GreaterThanEqual", version_method(text, [](int o) { return Value::boolean(o >= 0); })},
       {"\x01", Value::string(text)}});
}

}  // namespace

void add_float_functions(FunctionTable& t) {
  t["semver"] = fn_semver;
  t["addf"] = fn_addf;
  t["add1f"] = fn_add1f;
  t["subf"] = fn_subf;
  t["mulf"] = fn_mulf;
  t["divf"] = fn_divf;
  t["maxf"] = fn_maxf;
  t["minf"] = fn_minf;
  t["sha1sum"] = fn_sha1;
  t["adler32sum"] = fn_adler32;
}

}  // namespace sbr::render::helm
