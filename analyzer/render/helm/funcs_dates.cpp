// Sprig's date functions. `now` is the fixed placeholder 2000-01-01 00:00:00 UTC and Local is
// UTC (docs/rendering.md, "Placeholders"), so every date a chart prints is the same on every
// run; the layouts, parsing, durations and their errors are Go's (go_time.h).
#include <charconv>
#include <limits>
#include <string>
#include <vector>

#include "analyzer/render/helm/exec.h"
#include "analyzer/render/helm/funcs.h"
#include "analyzer/render/helm/go_time.h"

namespace sbr::render::helm {

namespace {

using Args = std::vector<Value>;

// A time.Time parameter: Go's template refuses any other value before the call.
GoTime time_param(const Value& v, const Location& at) {
  GoTime t;
  if (as_time(v, t)) return t;
  if (v.is_nil()) throw RenderError("invalid value; expected time.Time", at);
  throw RenderError("wrong type for value; expected time.Time; got " + type_name(v), at);
}

// The `date interface{}` of date, dateInZone, htmlDate and ago: a time, or Unix seconds as an
// integer; any other value means now.
GoTime time_or_now(const Value& v) {
  GoTime t;
  if (as_time(v, t)) return t;
  if (v.kind != Kind::Int) return go_now();
  t.sec = v.i;
  t.nsec = 0;
  return t;
}

// t.In(zone) after time.LoadLocation(zone). Only UTC is known to sbreview: Local is UTC, a
// zone that does not load falls back to UTC as sprig does, and a named IANA zone is read as UTC
// too (docs/rendering.md).
GoTime in_zone(GoTime t) {
  t.offset = 0;
  t.zone = "UTC";
  return t;
}

Value fn_now(Exec&, Args& a, const Location& at) {
  arity(a, 0, 0, "now", at);
  return time_value(go_now());
}

Value fn_date(Exec&, Args& a, const Location& at) {
  arity(a, 2, 2, "date", at);
  return Value::string(go_format(in_zone(time_or_now(a[1])), text_of(a[0])));
}

Value fn_date_in_zone(Exec&, Args& a, const Location& at) {
  arity(a, 3, 3, "dateInZone", at);
  return Value::string(go_format(in_zone(time_or_now(a[1])), text_of(a[0])));
}

Value fn_html_date(Exec&, Args& a, const Location& at) {
  arity(a, 1, 1, "htmlDate", at);
  return Value::string(go_format(in_zone(time_or_now(a[0])), "2006-01-02"));
}

Value fn_html_date_in_zone(Exec&, Args& a, const Location& at) {
  arity(a, 2, 2, "htmlDateInZone", at);
  return Value::string(go_format(in_zone(time_or_now(a[0])), "2006-01-02"));
}

// dateModify keeps the date when the duration does not parse; the must forms stop there.
Value modify(Args& a, const Location& at, const char* name, bool must) {
  arity(a, 2, 2, name, at);
  const GoTime t = time_param(a[1], at);
  std::int64_t d = 0;
  std::string error;
  if (go_parse_duration(text_of(a[0]), d, error)) return time_value(go_add(t, d));
  if (must) throw RenderError(std::string("error calling ") + name + ": " + error, at);
  return time_value(t);
}

Value fn_date_modify(Exec&, Args& a, const Location& at) {
  return modify(a, at, "dateModify", false);
}
Value fn_date_modify_snake(Exec&, Args& a, const Location& at) {
  return modify(a, at, "date_modify", false);
}
Value fn_must_date_modify(Exec&, Args& a, const Location& at) {
  return modify(a, at, "mustDateModify", true);
}
Value fn_must_date_modify_snake(Exec&, Args& a, const Location& at) {
  return modify(a, at, "must_date_modify", true);
}

// time.Since(t) rounded to seconds, as Duration.String().
Value fn_ago(Exec&, Args& a, const Location& at) {
  arity(a, 1, 1, "ago", at);
  const std::int64_t since = go_sub(go_now(), time_or_now(a[0]));
  return Value::string(go_duration_string(go_duration_round(since, kNanosPerSecond)));
}

// Seconds as a Duration: a decimal string (strconv.ParseInt, clamped past int64) or an integer;
// anything else is 0. Go's multiplication by a second wraps, as here.
Value fn_duration(Exec&, Args& a, const Location& at) {
  arity(a, 1, 1, "duration", at);
  std::int64_t n = 0;
  if (a[0].is_string()) {
    std::string_view s = a[0].s;
    const bool neg = !s.empty() && s[0] == '-';
    if (!s.empty() && (s[0] == '+' || s[0] == '-')) s.remove_prefix(1);
    std::uint64_t u = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), u);
    constexpr auto kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
    if (!s.empty() && end == s.data() + s.size() &&
        (ec == std::errc() || ec == std::errc::result_out_of_range)) {
      if (ec != std::errc() || u > kMax + (neg ? 1 : 0)) u = kMax + (neg ? 1 : 0);
      n = neg ? static_cast<std::int64_t>(0 - u) : static_cast<std::int64_t>(u);
    }
  } else if (a[0].kind == Kind::Int) {
    n = a[0].i;
  }
  const auto ns = static_cast<std::int64_t>(static_cast<std::uint64_t>(n) *
                                            static_cast<std::uint64_t>(kNanosPerSecond));
  return Value::string(go_duration_string(ns));
}

// The most significant unit of a duration: a duration string, nanoseconds as an integer, or the
// time since a time; years of 365 days and months of 30.
Value fn_duration_round(Exec&, Args& a, const Location& at) {
  arity(a, 1, 1, "durationRound", at);
  std::int64_t d = 0;
  GoTime t;
  std::string error;
  if (a[0].is_string()) {
    if (!go_parse_duration(a[0].s, d, error)) d = 0;
  } else if (a[0].kind == Kind::Int) {
    d = a[0].i;
  } else if (as_time(a[0], t)) {
    d = go_sub(go_now(), t);
  }
  std::uint64_t u = static_cast<std::uint64_t>(d);
  if (d < 0) u = 0 - u;
  constexpr std::uint64_t kSecond = 1'000'000'000, kMinute = 60 * kSecond, kHour = 60 * kMinute,
                          kDay = 24 * kHour, kMonth = 30 * kDay, kYear = 365 * kDay;
  static constexpr std::pair<std::uint64_t, const char*> kUnits[] = {
      {kYear, "y"}, {kMonth, "mo"}, {kDay, "d"}, {kHour, "h"}, {kMinute, "m"}, {kSecond, "s"}};
  for (const auto& [unit, suffix] : kUnits) {
    if (u > unit) return Value::string(std::to_string(u / unit) + suffix);
  }
  return Value::string("0s");
}

// toDate gives Go's zero time for a text that does not parse; mustToDate stops.
Value to_date(Args& a, const Location& at, const char* name, bool must) {
  arity(a, 2, 2, name, at);
  GoTime t;
  std::string error;
  if (go_parse(text_of(a[0]), text_of(a[1]), t, error)) return time_value(t);
  if (must) throw RenderError(std::string("error calling ") + name + ": " + error, at);
  return time_value(GoTime{});
}

Value fn_to_date(Exec&, Args& a, const Location& at) {
  return to_date(a, at, "toDate", false);
}
Value fn_must_to_date(Exec&, Args& a, const Location& at) {
  return to_date(a, at, "mustToDate", true);
}

Value fn_unix_epoch(Exec&, Args& a, const Location& at) {
  arity(a, 1, 1, "unixEpoch", at);
  return Value::string(std::to_string(time_param(a[0], at).sec));
}

}  // namespace

void add_date_functions(FunctionTable& t) {
  t["now"] = fn_now;
  t["date"] = fn_date;
  t["dateInZone"] = fn_date_in_zone;
  t["date_in_zone"] = fn_date_in_zone;
  t["htmlDate"] = fn_html_date;
  t["htmlDateInZone"] = fn_html_date_in_zone;
  t["dateModify"] = fn_date_modify;
  t["date_modify"] = fn_date_modify_snake;
  t["mustDateModify"] = fn_must_date_modify;
  t["must_date_modify"] = fn_must_date_modify_snake;
  t["ago"] = fn_ago;
  t["duration"] = fn_duration;
  t["durationRound"] = fn_duration_round;
  t["toDate"] = fn_to_date;
  t["mustToDate"] = fn_must_to_date;
  t["unixEpoch"] = fn_unix_epoch;
}

}  // namespace sbr::render::helm
