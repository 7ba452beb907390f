// Go's time.Duration as text: String, Round and ParseDuration (whose errors mustDateModify
// reports).
#include <limits>
#include <string>

#include "analyzer/render/helm/go_time.h"
#include "analyzer/render/helm/go_time_layout.h"

namespace sbr::render::helm {

using go_layout::leading_int;
using go_layout::time_quote;

std::string go_duration_string(std::int64_t d) {
  if (d == 0) return "0s";
  const bool neg = d < 0;
  std::uint64_t u = neg ? 0 - static_cast<std::uint64_t>(d) : static_cast<std::uint64_t>(d);
  // fmtFrac: the fraction of u/10^prec without trailing zeros, and the integer part.
  auto frac = [&u](int prec) {
    std::string digits;
    bool print = false;
    for (int i = 0; i < prec; ++i) {
      const auto digit = static_cast<char>('0' + u % 10);
      print = print || digit != '0';
      if (print) digits.insert(digits.begin(), digit);
      u /= 10;
    }
    return print ? "." + digits : std::string();
  };
  std::string out;
  if (u < 1'000'000'000) {
    std::string unit = u < 1000 ? "ns" : u < 1'000'000 ? "\u00b5s" : "ms";
    std::string f = frac(u < 1000 ? 0 : u < 1'000'000 ? 3 : 6);
    out = std::to_string(u) + f + unit;
  } else {
    std::string f = frac(9);
    out = std::to_string(u % 60) + f + "s";
    u /= 60;
    if (u > 0) {
      out = std::to_string(u % 60) + "m" + out;
      u /= 60;
      if (u > 0) out = std::to_string(u) + "h" + out;
    }
  }
  return neg ? "-" + out : out;
}

std::int64_t go_duration_round(std::int64_t d, std::int64_t m) {
  if (m <= 0) return d;
  constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
  std::int64_t r = d % m;
  auto less_than_half = [](std::int64_t x, std::int64_t y) {
    return static_cast<std::uint64_t>(x) + static_cast<std::uint64_t>(x) <
           static_cast<std::uint64_t>(y);
  };
  if (d < 0) {
    r = -r;
    if (less_than_half(r, m)) return d + r;
    if (d >= std::numeric_limits<std::int64_t>::min() + m - r) return d - m + r;
    return std::numeric_limits<std::int64_t>::min();
  }
  if (less_than_half(r, m)) return d - r;
  if (d <= kMax - (m - r)) return d + m - r;
  return kMax;
}

bool go_parse_duration(std::string_view s, std::int64_t& out, std::string& error) {
  const std::string orig = time_quote(s);
  auto invalid = [&](std::string message) {
    error = std::move(message);
    return false;
  };
  bool neg = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    neg = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s == "0") return out = 0, true;
  if (s.empty()) return invalid("time: invalid duration " + orig);
  constexpr std::uint64_t kLimit = std::uint64_t{1} << 63;
  std::uint64_t d = 0;
  while (!s.empty()) {
    if (!(s[0] == '.' || (s[0] >= '0' && s[0] <= '9')))
      return invalid("time: invalid duration " + orig);
    const std::size_t before = s.size();
    std::uint64_t v = 0;
    if (!leading_int(s, v)) return invalid("time: invalid duration " + orig);
    const bool pre = before != s.size();
    std::uint64_t f = 0;
    double scale = 1;
    bool post = false;
    if (!s.empty() && s[0] == '.') {
      s.remove_prefix(1);
      const std::size_t at = s.size();
      bool overflow = false;
      std::size_t i = 0;
      for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) {
        if (overflow) continue;
        if (f > (kLimit - 1) / 10) {
          overflow = true;
          continue;
        }
        f = f * 10 + static_cast<std::uint64_t>(s[i] - '0');
        scale *= 10;
      }
      s.remove_prefix(i);
      post = at != s.size();
    }
    if (!pre && !post) return invalid("time: invalid duration " + orig);
    std::size_t i = 0;
    while (i < s.size() && s[i] != '.' && !(s[i] >= '0' && s[i] <= '9')) ++i;
    if (i == 0) return invalid("time: missing unit in duration " + orig);
    const std::string_view u = s.substr(0, i);
    s.remove_prefix(i);
    std::uint64_t unit = 0;
    if (u == "ns") unit = 1;
    if (u == "us" || u == "\u00b5s" || u == "\u03bcs") unit = 1000;
    if (u == "ms") unit = 1'000'000;
    if (u == "s") unit = 1'000'000'000;
    if (u == "m") unit = 60'000'000'000;
    if (u == "h") unit = 3'600'000'000'000;
    if (unit == 0) return invalid("time: unknown unit " + time_quote(u) + " in duration " + orig);
    if (v > kLimit / unit) return invalid("time: invalid duration " + orig);
    v *= unit;
    if (f > 0) {
      v += static_cast<std::uint64_t>(static_cast<double>(f) * (static_cast<double>(unit) / scale));
      if (v > kLimit) return invalid("time: invalid duration " + orig);
    }
    d += v;
    if (d > kLimit) return invalid("time: invalid duration " + orig);
  }
  if (neg) return out = static_cast<std::int64_t>(0 - d), true;
  if (d > kLimit - 1) return invalid("time: invalid duration " + orig);
  out = static_cast<std::int64_t>(d);
  return true;
}

}  // namespace sbr::render::helm
