// Go's time layouts, re-expressed: a layout is cut into reference elements (nextStdChunk) and
// literal text; Format writes each element of the time, Parse reads each one back with Go's
// range checks and error messages.
#include "analyzer/render/helm/go_time.h"

#include <algorithm>
#include <array>
#include <limits>

#include "analyzer/render/helm/go_time_layout.h"

namespace sbr::render::helm {

namespace go_layout {

namespace {

bool starts(std::string_view s, std::size_t i, std::string_view what) {
  return s.substr(i, what.size()) == what;
}

bool lower_at(std::string_view s, std::size_t i) {
  return i < s.size() && s[i] >= 'a' && s[i] <= 'z';
}

}  // namespace

bool digit_at(std::string_view s, std::size_t i) {
  return i < s.size() && s[i] >= '0' && s[i] <= '9';
}

Chunk next_chunk(std::string_view layout) {
  auto found = [&](std::size_t i, std::size_t len, Std std) {
    return Chunk{layout.substr(0, i), layout.substr(i, len), layout.substr(i + len), std};
  };
  static constexpr std::array<Std, 6> kZeroX = {Std::ZeroMonth,  Std::ZeroDay,    Std::ZeroHour12,
                                                Std::ZeroMinute, Std::ZeroSecond, Std::Year};
  for (std::size_t i = 0; i < layout.size(); ++i) {
    switch (layout[i]) {
      case 'J':
        if (starts(layout, i, "January")) return found(i, 7, Std::LongMonth);
        if (starts(layout, i, "Jan") && !lower_at(layout, i + 3)) return found(i, 3, Std::Month);
        break;
      case 'M':
        if (starts(layout, i, "Monday")) return found(i, 6, Std::LongWeekDay);
        if (starts(layout, i, "Mon") && !lower_at(layout, i + 3)) return found(i, 3, Std::WeekDay);
        if (starts(layout, i, "MST")) return found(i, 3, Std::TZ);
        break;
      case '0':
        if (i + 1 < layout.size() && layout[i + 1] >= '1' && layout[i + 1] <= '6')
          return found(i, 2, kZeroX[layout[i + 1] - '1']);
        if (starts(layout, i, "002")) return found(i, 3, Std::ZeroYearDay);
        break;
      case '1':
        if (starts(layout, i, "15")) return found(i, 2, Std::Hour);
        return found(i, 1, Std::NumMonth);
      case '2':
        if (starts(layout, i, "2006")) return found(i, 4, Std::LongYear);
        return found(i, 1, Std::Day);
      case '_':
        if (starts(layout, i, "_2")) {
          // "_2006" is a literal underscore and the year.
          if (starts(layout, i + 1, "2006")) return found(i + 1, 4, Std::LongYear);
          return found(i, 2, Std::UnderDay);
        }
        if (starts(layout, i, "__2")) return found(i, 3, Std::UnderYearDay);
        break;
      case '3':
        return found(i, 1, Std::Hour12);
      case '4':
        return found(i, 1, Std::Minute);
      case '5':
        return found(i, 1, Std::Second);
      case 'P':
        if (starts(layout, i, "PM")) return found(i, 2, Std::PM);
        break;
      case 'p':
        if (starts(layout, i, "pm")) return found(i, 2, Std::pm);
        break;
      case '-':
        if (starts(layout, i, "-070000")) return found(i, 7, Std::NumSecondsTZ);
        if (starts(layout, i, "-07:00:00")) return found(i, 9, Std::NumColonSecondsTZ);
        if (starts(layout, i, "-0700")) return found(i, 5, Std::NumTZ);
        if (starts(layout, i, "-07:00")) return found(i, 6, Std::NumColonTZ);
        if (starts(layout, i, "-07")) return found(i, 3, Std::NumShortTZ);
        break;
      case 'Z':
        if (starts(layout, i, "Z070000")) return found(i, 7, Std::ISO8601SecondsTZ);
        if (starts(layout, i, "Z07:00:00")) return found(i, 9, Std::ISO8601ColonSecondsTZ);
        if (starts(layout, i, "Z0700")) return found(i, 5, Std::ISO8601TZ);
        if (starts(layout, i, "Z07:00")) return found(i, 6, Std::ISO8601ColonTZ);
        if (starts(layout, i, "Z07")) return found(i, 3, Std::ISO8601ShortTZ);
        break;
      case '.':
      case ',':
        if (i + 1 < layout.size() && (layout[i + 1] == '0' || layout[i + 1] == '9')) {
          std::size_t j = i + 1;
          while (j < layout.size() && layout[j] == layout[i + 1]) ++j;
          if (!digit_at(layout, j)) {
            Chunk c = found(i, j - i, layout[i + 1] == '0' ? Std::FracSecond0 : Std::FracSecond9);
            c.digits = static_cast<int>(j - i - 1);
            c.separator = layout[i];
            return c;
          }
        }
        break;
      default:
        break;
    }
  }
  return Chunk{layout, {}, {}, Std::None};
}

const char* const kMonthNames[12] = {"January",   "February", "March",    "April",
                                     "May",       "June",     "July",     "August",
                                     "September", "October",  "November", "December"};
const char* const kDayNames[7] = {"Sunday",   "Monday", "Tuesday", "Wednesday",
                                  "Thursday", "Friday", "Saturday"};

std::int64_t floor_div(std::int64_t a, std::int64_t b) {
  return a / b - ((a % b != 0) && ((a < 0) != (b < 0)));
}

// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's civil algorithms).
std::int64_t days_from_civil(std::int64_t y, std::int64_t m, std::int64_t d) {
  y -= m <= 2;
  const std::int64_t era = floor_div(y, 400);
  const std::int64_t yoe = y - era * 400;
  const std::int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const std::int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

void civil_from_days(std::int64_t z, std::int64_t& y, int& m, int& d) {
  z += 719468;
  const std::int64_t era = floor_div(z, 146097);
  const std::int64_t doe = z - era * 146097;
  const std::int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const std::int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const std::int64_t mp = (5 * doy + 2) / 153;
  d = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
  m = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
  y = yoe + era * 400 + (m <= 2);
}

bool is_leap(std::int64_t y) {
  return y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
}

int days_in(int month, std::int64_t year) {
  static constexpr std::array<int, 12> kLen = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month == 2 && is_leap(year) ? 29 : kLen[month - 1];
}

}  // namespace go_layout

namespace {

using namespace go_layout;

// appendInt: `x` zero-padded to `width` digits (a minus sign before them).
void put_int(std::string& out, std::int64_t x, int width) {
  std::string digits = std::to_string(x < 0 ? -x : x);
  if (x < 0) out += '-';
  for (int k = static_cast<int>(digits.size()); k < width; ++k) out += '0';
  out += digits;
}

void put_zone(std::string& out, std::int64_t offset, Std std) {
  const bool iso = std == Std::ISO8601TZ || std == Std::ISO8601ColonTZ ||
                   std == Std::ISO8601SecondsTZ || std == Std::ISO8601ShortTZ ||
                   std == Std::ISO8601ColonSecondsTZ;
  if (offset == 0 && iso) return void(out += 'Z');
  std::int64_t zone = offset / 60, abs_offset = offset;
  if (zone < 0) {
    out += '-';
    zone = -zone;
    abs_offset = -abs_offset;
  } else {
    out += '+';
  }
  put_int(out, zone / 60, 2);
  const bool colon = std == Std::ISO8601ColonTZ || std == Std::NumColonTZ ||
                     std == Std::ISO8601ColonSecondsTZ || std == Std::NumColonSecondsTZ;
  if (colon) out += ':';
  if (std != Std::NumShortTZ && std != Std::ISO8601ShortTZ) put_int(out, zone % 60, 2);
  if (std == Std::ISO8601SecondsTZ || std == Std::NumSecondsTZ || std == Std::NumColonSecondsTZ ||
      std == Std::ISO8601ColonSecondsTZ) {
    if (colon) out += ':';
    put_int(out, abs_offset % 60, 2);
  }
}

void put_nanos(std::string& out, std::int64_t nsec, const Chunk& c) {
  const bool trim = c.std == Std::FracSecond9;
  if (trim && (c.digits == 0 || nsec == 0)) return;
  std::string digits;
  put_int(digits, nsec, 9);
  digits.resize(std::min<std::size_t>(9, static_cast<std::size_t>(c.digits)));
  if (trim) {
    while (!digits.empty() && digits.back() == '0') digits.pop_back();
    if (digits.empty()) return;
  }
  out += c.separator;
  out += digits;
}

}  // namespace

GoTime go_now() {
  GoTime t;
  t.sec = 946684800;
  return t;
}

std::string go_format(const GoTime& t, std::string_view layout) {
  const std::int64_t local = t.sec + t.offset;
  const std::int64_t days = floor_div(local, 86400), secs = local - days * 86400;
  std::int64_t year = 0;
  int month = 0, day = 0;
  civil_from_days(days, year, month, day);
  const std::int64_t yday = days - days_from_civil(year, 1, 1) + 1;
  const int hour = static_cast<int>(secs / 3600), min = static_cast<int>(secs / 60 % 60),
            sec = static_cast<int>(secs % 60);
  const int hour12 = hour % 12 == 0 ? 12 : hour % 12;
  const auto weekday = static_cast<std::size_t>(((days + 4) % 7 + 7) % 7);  // 1970-01-01: Thursday
  std::string out;
  while (!layout.empty()) {
    Chunk c = next_chunk(layout);
    out += c.prefix;
    if (c.std == Std::None) break;
    layout = c.suffix;
    switch (c.std) {
      case Std::Year:
        put_int(out, (year < 0 ? -year : year) % 100, 2);
        break;
      case Std::LongYear:
        put_int(out, year, 4);
        break;
      case Std::Month:
        out += std::string_view(kMonthNames[month - 1]).substr(0, 3);
        break;
      case Std::LongMonth:
        out += kMonthNames[month - 1];
        break;
      case Std::NumMonth:
        put_int(out, month, 0);
        break;
      case Std::ZeroMonth:
        put_int(out, month, 2);
        break;
      case Std::WeekDay:
        out += std::string_view(kDayNames[weekday]).substr(0, 3);
        break;
      case Std::LongWeekDay:
        out += kDayNames[weekday];
        break;
      case Std::Day:
        put_int(out, day, 0);
        break;
      case Std::UnderDay:
        if (day < 10) out += ' ';
        put_int(out, day, 0);
        break;
      case Std::ZeroDay:
        put_int(out, day, 2);
        break;
      case Std::UnderYearDay:
        if (yday < 100) out += yday < 10 ? "  " : " ";
        put_int(out, yday, 0);
        break;
      case Std::ZeroYearDay:
        put_int(out, yday, 3);
        break;
      case Std::Hour:
        put_int(out, hour, 2);
        break;
      case Std::Hour12:
        put_int(out, hour12, 0);
        break;
      case Std::ZeroHour12:
        put_int(out, hour12, 2);
        break;
      case Std::Minute:
        put_int(out, min, 0);
        break;
      case Std::ZeroMinute:
        put_int(out, min, 2);
        break;
      case Std::Second:
        put_int(out, sec, 0);
        break;
      case Std::ZeroSecond:
        put_int(out, sec, 2);
        break;
      case Std::PM:
        out += hour >= 12 ? "PM" : "AM";
        break;
      case Std::pm:
        out += hour >= 12 ? "pm" : "am";
        break;
      case Std::TZ:
        if (!t.zone.empty()) {
          out += t.zone;
        } else {
          put_zone(out, t.offset, Std::NumTZ);
        }
        break;
      case Std::FracSecond0:
      case Std::FracSecond9:
        put_nanos(out, t.nsec, c);
        break;
      default:
        put_zone(out, t.offset, c.std);
    }
  }
  return out;
}

GoTime go_add(const GoTime& t, std::int64_t d) {
  GoTime r = t;
  r.sec += d / kNanosPerSecond;
  r.nsec += d % kNanosPerSecond;
  if (r.nsec >= kNanosPerSecond) {
    ++r.sec;
    r.nsec -= kNanosPerSecond;
  } else if (r.nsec < 0) {
    --r.sec;
    r.nsec += kNanosPerSecond;
  }
  return r;
}

std::int64_t go_sub(const GoTime& t, const GoTime& u) {
  constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
  const std::int64_t secs = t.sec - u.sec;
  // Past ±292 years the difference does not fit a Duration: Go returns its bound.
  if (secs > kMax / kNanosPerSecond - 1) return kMax;
  if (secs < -(kMax / kNanosPerSecond - 1)) return std::numeric_limits<std::int64_t>::min();
  return secs * kNanosPerSecond + (t.nsec - u.nsec);
}

Value time_value(const GoTime& t) {
  std::string text = go_format(t, "2006-01-02 15:04:05.999999999 -0700 MST");
  return Value::new_map({{"\x01", Value::string(std::move(text))},
                         {"\x02sec", Value::integer(t.sec)},
                         {"\x02nsec", Value::integer(t.nsec)},
                         {"\x02offset", Value::integer(t.offset)},
                         {"\x02zone", Value::string(t.zone)}});
}

bool is_time(const Value& v) {
  return v.is_map() && v.map->count("\x02sec") > 0;
}

bool as_time(const Value& v, GoTime& out) {
  if (!is_time(v)) return false;
  const Map& m = *v.map;
  auto get = [&m](const char* key) {
    auto f = m.find(key);
    return f == m.end() ? Value{} : f->second;
  };
  out.sec = get("\x02sec").i;
  out.nsec = get("\x02nsec").i;
  out.offset = get("\x02offset").i;
  out.zone = get("\x02zone").s;
  return true;
}

std::string time_rfc3339(const GoTime& t) {
  return go_format(t, "2006-01-02T15:04:05.999999999Z07:00");
}

}  // namespace sbr::render::helm
