// The pieces of Go's time package that Format (go_time.cpp), Parse (go_time_parse.cpp) and the
// durations (go_duration.cpp) share: a layout's reference elements, the proleptic Gregorian
// calendar, and the package's number reading and quoting.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace sbr::render::helm::go_layout {

enum class Std {
  None,
  LongMonth,
  Month,
  NumMonth,
  ZeroMonth,
  LongWeekDay,
  WeekDay,
  Day,
  UnderDay,
  ZeroDay,
  UnderYearDay,
  ZeroYearDay,
  Hour,
  Hour12,
  ZeroHour12,
  Minute,
  ZeroMinute,
  Second,
  ZeroSecond,
  LongYear,
  Year,
  PM,
  pm,
  TZ,
  ISO8601TZ,
  ISO8601SecondsTZ,
  ISO8601ShortTZ,
  ISO8601ColonTZ,
  ISO8601ColonSecondsTZ,
  NumTZ,
  NumSecondsTZ,
  NumShortTZ,
  NumColonTZ,
  NumColonSecondsTZ,
  FracSecond0,
  FracSecond9
};

struct Chunk {
  std::string_view prefix, element, suffix;
  Std std = Std::None;
  int digits = 0;  // fractional seconds: how many
  char separator = '.';
};

// The first reference element of `layout` and the literal text before it (Go's nextStdChunk).
Chunk next_chunk(std::string_view layout);

std::int64_t floor_div(std::int64_t a, std::int64_t b);
// Days since 1970-01-01 of a date, and back.
std::int64_t days_from_civil(std::int64_t y, std::int64_t m, std::int64_t d);
void civil_from_days(std::int64_t z, std::int64_t& y, int& m, int& d);
bool is_leap(std::int64_t y);
int days_in(int month, std::int64_t year);
bool digit_at(std::string_view s, std::size_t i);
// The time package's quote: non-ASCII and control bytes as \xNN, `"` and `\` escaped
// (go_time_parse.cpp).
std::string time_quote(std::string_view s);
// leadingInt: the leading digits of `s`, consumed; false past 2^63 (go_time_parse.cpp).
bool leading_int(std::string_view& s, std::uint64_t& x);

extern const char* const kMonthNames[12];
extern const char* const kDayNames[7];

}  // namespace sbr::render::helm::go_layout
