// Go's time.ParseInLocation with Local as UTC: Go's range checks and error messages, which
// mustToDate reports.
#include <algorithm>
#include <limits>
#include <string>

#include "analyzer/render/helm/go_time.h"
#include "analyzer/render/helm/go_time_layout.h"

namespace sbr::render::helm {

namespace go_layout {

// The time package's quote: non-ASCII and control bytes as \xNN, `"` and `\` escaped.
std::string time_quote(std::string_view s) {
  static const char* const kHex = "0123456789abcdef";
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c >= 0x80 || c < ' ') {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else {
      if (c == '"' || c == '\\') out += '\\';
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

// leadingInt: the leading digits of `s` (false on overflow past 2^63).
bool leading_int(std::string_view& s, std::uint64_t& x) {
  x = 0;
  std::size_t i = 0;
  for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) {
    if (x > (std::uint64_t{1} << 63) / 10) return false;
    x = x * 10 + static_cast<std::uint64_t>(s[i] - '0');
    if (x > (std::uint64_t{1} << 63)) return false;
  }
  s.remove_prefix(i);
  return true;
}

}  // namespace go_layout

namespace {

using namespace go_layout;

// The time package's atoi: an optional sign and digits, nothing else.
bool time_atoi(std::string_view s, std::int64_t& x) {
  bool neg = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    neg = s[0] == '-';
    s.remove_prefix(1);
  }
  std::uint64_t q = 0;
  if (!leading_int(s, q) || !s.empty()) return false;
  x = neg ? -static_cast<std::int64_t>(q) : static_cast<std::int64_t>(q);
  return true;
}

// getnum: one or two digits (`fixed`: exactly two).
bool getnum(std::string_view& s, bool fixed, std::int64_t& n) {
  if (!digit_at(s, 0)) return false;
  if (!digit_at(s, 1)) {
    if (fixed) return false;
    n = s[0] - '0';
    s.remove_prefix(1);
    return true;
  }
  n = (s[0] - '0') * 10 + (s[1] - '0');
  s.remove_prefix(2);
  return true;
}

bool getnum3(std::string_view& s, bool fixed, std::int64_t& n) {
  n = 0;
  std::size_t i = 0;
  for (; i < 3 && digit_at(s, i); ++i) n = n * 10 + (s[i] - '0');
  if (i == 0 || (fixed && i != 3)) return false;
  s.remove_prefix(i);
  return true;
}

// lookup: a name of `table` at the start of `s`, ASCII letters compared without case.
bool lookup_name(const char* const* table, int count, std::size_t len, std::string_view& s,
                 int& index) {
  for (int i = 0; i < count; ++i) {
    std::string_view name = table[i];
    if (len) name = name.substr(0, len);
    if (s.size() < name.size()) continue;
    bool same = true;
    for (std::size_t k = 0; k < name.size() && same; ++k) {
      char a = s[k], b = name[k];
      if (a != b) same = (a | 0x20) == (b | 0x20) && (a | 0x20) >= 'a' && (a | 0x20) <= 'z';
    }
    if (same) {
      index = i;
      s.remove_prefix(name.size());
      return true;
    }
  }
  return false;
}

// skip: the layout's literal text, a run of spaces matching any run of spaces.
bool skip_literal(std::string_view& value, std::string_view prefix) {
  while (!prefix.empty()) {
    if (prefix[0] == ' ') {
      if (!value.empty() && value[0] != ' ') return false;
      while (!prefix.empty() && prefix[0] == ' ') prefix.remove_prefix(1);
      while (!value.empty() && value[0] == ' ') value.remove_prefix(1);
      continue;
    }
    if (value.empty() || value[0] != prefix[0]) return false;
    prefix.remove_prefix(1);
    value.remove_prefix(1);
  }
  return true;
}

// parseSignedOffset: "+3", "-07"... up to 23 hours; the length read, 0 for none.
std::size_t signed_offset(std::string_view v) {
  if (v.empty() || (v[0] != '-' && v[0] != '+')) return 0;
  std::string_view rest = v.substr(1);
  std::uint64_t x = 0;
  if (!leading_int(rest, x) || rest.size() == v.size() - 1 || x > 23) return 0;
  return v.size() - rest.size();
}

// parseTimeZone: the length of a zone abbreviation at the start of `v`, 0 for none.
std::size_t zone_length(std::string_view v) {
  if (v.size() < 3) return 0;
  if (v.substr(0, 4) == "ChST" || v.substr(0, 4) == "MeST") return 4;
  if (v.substr(0, 3) == "GMT") return 3 + (v.size() > 3 ? signed_offset(v.substr(3)) : 0);
  if (v[0] == '+' || v[0] == '-') return signed_offset(v);
  std::size_t upper = 0;
  while (upper < 6 && upper < v.size() && v[upper] >= 'A' && v[upper] <= 'Z') ++upper;
  if (upper == 3) return 3;
  if (upper == 4 && (v[3] == 'T' || v.substr(0, 4) == "WITA")) return 4;
  if (upper == 5 && v[4] == 'T') return 5;
  return 0;
}

bool comma_or_period(char c) {
  return c == '.' || c == ',';
}

// parseNanoseconds: `value[0]` is the separator, then nbytes-1 digits (at most 9 count).
bool nanoseconds(std::string_view value, std::size_t nbytes, std::int64_t& ns, std::string& range) {
  if (!comma_or_period(value[0])) return false;
  nbytes = std::min<std::size_t>(nbytes, 10);
  if (!time_atoi(value.substr(1, nbytes - 1), ns)) return false;
  if (ns < 0) {
    range = "fractional second";
    return true;
  }
  for (std::size_t k = nbytes; k < 10; ++k) ns *= 10;
  return true;
}

// What the layout's elements read from the value (the locals of Go's parse).
struct Fields {
  std::int64_t year = 0, month = -1, day = -1, yday = -1, hour = 0, min = 0, sec = 0, nsec = 0;
  std::int64_t zone_offset = -1;
  bool utc = false, am = false, pm = false;
  std::string zone_name;
  std::string range;  // the field out of range ("month"), or ""
};

// Seconds, and a fractional second after them that the layout does not name.
bool read_seconds(const Chunk& c, std::string_view& value, Fields& f) {
  if (!getnum(value, c.std == Std::ZeroSecond, f.sec)) return false;
  if (f.sec < 0 || f.sec >= 60) {
    f.range = "second";
    return true;
  }
  if (value.size() >= 2 && comma_or_period(value[0]) && digit_at(value, 1)) {
    Std next = next_chunk(c.suffix).std;
    if (next == Std::FracSecond0 || next == Std::FracSecond9) return true;
    std::size_t n = 2;
    while (digit_at(value, n)) ++n;
    bool ok = nanoseconds(value, n, f.nsec, f.range);
    value.remove_prefix(n);
    return ok;
  }
  return true;
}

bool read_am_pm(const Chunk& c, std::string_view& value, Fields& f) {
  const bool upper = c.std == Std::PM;
  if (value.size() < 2) return false;
  std::string_view p = value.substr(0, 2);
  value.remove_prefix(2);
  f.pm = p == (upper ? "PM" : "pm");
  f.am = p == (upper ? "AM" : "am");
  return f.pm || f.am;
}

bool read_zone_name(std::string_view& value, Fields& f) {
  if (value.substr(0, 3) == "UTC") {
    f.utc = true;
    value.remove_prefix(3);
    return true;
  }
  std::size_t n = zone_length(value);
  if (n == 0) return false;
  f.zone_name = std::string(value.substr(0, n));
  value.remove_prefix(n);
  return true;
}

bool read_fraction(const Chunk& c, std::string_view& value, Fields& f) {
  if (c.std == Std::FracSecond0) {
    const std::size_t n = 1 + static_cast<std::size_t>(c.digits);
    if (value.size() < n || !nanoseconds(value, n, f.nsec, f.range)) return false;
    value.remove_prefix(n);
    return true;
  }
  // FracSecond9: optional.
  if (value.size() < 2 || !comma_or_period(value[0]) || !digit_at(value, 1)) return true;
  std::size_t i = 0;
  while (digit_at(value, i + 1)) ++i;
  bool ok = nanoseconds(value, 1 + i, f.nsec, f.range);
  value.remove_prefix(1 + i);
  return ok;
}

// The numeric zones (-0700, -07:00, -07, Z0700 ...): the hours, minutes and seconds and where
// they sit in the value; false when the value is too short for the form.
bool zone_parts(Std std, std::string_view value, std::string_view& hh, std::string_view& mm,
                std::string_view& ss, std::size_t& len) {
  mm = "00", ss = "00";
  if (std == Std::ISO8601ColonTZ || std == Std::NumColonTZ) {
    len = 6;
    if (value.size() < 6 || value[3] != ':') return false;
    hh = value.substr(1, 2), mm = value.substr(4, 2);
  } else if (std == Std::NumShortTZ || std == Std::ISO8601ShortTZ) {
    len = 3;
    if (value.size() < 3) return false;
    hh = value.substr(1, 2);
  } else if (std == Std::ISO8601ColonSecondsTZ || std == Std::NumColonSecondsTZ) {
    len = 9;
    if (value.size() < 9 || value[3] != ':' || value[6] != ':') return false;
    hh = value.substr(1, 2), mm = value.substr(4, 2), ss = value.substr(7, 2);
  } else if (std == Std::ISO8601SecondsTZ || std == Std::NumSecondsTZ) {
    len = 7;
    if (value.size() < 7) return false;
    hh = value.substr(1, 2), mm = value.substr(3, 2), ss = value.substr(5, 2);
  } else {
    len = 5;
    if (value.size() < 5) return false;
    hh = value.substr(1, 2), mm = value.substr(3, 2);
  }
  return true;
}

bool read_numeric_zone(const Chunk& c, std::string_view& value, Fields& f) {
  const bool iso = c.std == Std::ISO8601TZ || c.std == Std::ISO8601ShortTZ ||
                   c.std == Std::ISO8601ColonTZ || c.std == Std::ISO8601SecondsTZ ||
                   c.std == Std::ISO8601ColonSecondsTZ;
  if (iso && !value.empty() && value[0] == 'Z') {
    value.remove_prefix(1);
    f.utc = true;
    return true;
  }
  std::string_view hh, mm, ss;
  std::size_t len = 0;
  if (!zone_parts(c.std, value, hh, mm, ss, len)) return false;
  const char sign = value[0];
  value.remove_prefix(len);
  std::int64_t h = 0, m = 0, s = 0;
  bool ok = getnum(hh, true, h) && getnum(mm, true, m) && getnum(ss, true, s);
  if (h > 24) f.range = "time zone offset hour";
  if (m > 60) f.range = "time zone offset minute";
  if (s > 60) f.range = "time zone offset second";
  f.zone_offset = (h * 60 + m) * 60 + s;
  if (sign == '-') f.zone_offset = -f.zone_offset;
  return ok && (sign == '-' || sign == '+');
}

// A number and its range check.
bool read_number(std::string_view& value, bool fixed, std::int64_t& n, std::int64_t lo,
                 std::int64_t hi, const char* field, std::string& range) {
  bool ok = getnum(value, fixed, n);
  if (n < lo || n > hi) range = field;
  return ok;
}

// One layout element read from the front of `value` (the switch of Go's parse).
bool read_element(const Chunk& c, std::string_view& value, Fields& f) {
  int index = 0;
  switch (c.std) {
    case Std::Year: {
      bool ok = value.size() >= 2 && time_atoi(value.substr(0, 2), f.year);
      if (ok) value.remove_prefix(2), f.year += f.year >= 69 ? 1900 : 2000;
      return ok;
    }
    case Std::LongYear: {
      bool ok = value.size() >= 4 && digit_at(value, 0) && time_atoi(value.substr(0, 4), f.year);
      if (ok) value.remove_prefix(4);
      return ok;
    }
    case Std::Month:
    case Std::LongMonth: {
      bool ok = lookup_name(kMonthNames, 12, c.std == Std::Month ? 3 : 0, value, index);
      f.month = index + 1;
      return ok;
    }
    case Std::NumMonth:
    case Std::ZeroMonth: {
      bool ok = getnum(value, c.std == Std::ZeroMonth, f.month);
      if (ok && (f.month <= 0 || f.month > 12)) f.range = "month";
      return ok;
    }
    case Std::WeekDay:
    case Std::LongWeekDay:
      return lookup_name(kDayNames, 7, c.std == Std::WeekDay ? 3 : 0, value, index);
    case Std::Day:
    case Std::UnderDay:
    case Std::ZeroDay:
      if (c.std == Std::UnderDay && !value.empty() && value[0] == ' ') value.remove_prefix(1);
      return getnum(value, c.std == Std::ZeroDay, f.day);
    case Std::UnderYearDay:
    case Std::ZeroYearDay:
      for (int k = 0; k < 2 && c.std == Std::UnderYearDay; ++k) {
        if (!value.empty() && value[0] == ' ') value.remove_prefix(1);
      }
      return getnum3(value, c.std == Std::ZeroYearDay, f.yday);
    case Std::Hour:
      return read_number(value, false, f.hour, 0, 23, "hour", f.range);
    case Std::Hour12:
    case Std::ZeroHour12:
      return read_number(value, c.std == Std::ZeroHour12, f.hour, 0, 12, "hour", f.range);
    case Std::Minute:
    case Std::ZeroMinute:
      return read_number(value, c.std == Std::ZeroMinute, f.min, 0, 59, "minute", f.range);
    case Std::Second:
    case Std::ZeroSecond:
      return read_seconds(c, value, f);
    case Std::PM:
    case Std::pm:
      return read_am_pm(c, value, f);
    case Std::TZ:
      return read_zone_name(value, f);
    case Std::FracSecond0:
    case Std::FracSecond9:
      return read_fraction(c, value, f);
    default:
      return read_numeric_zone(c, value, f);
  }
}

// The month and day of a day of the year (2001 is not a leap year; Feb 29 of a leap year is
// taken out first); "" or why the date is not valid.
std::string resolve_year_day(Fields& f) {
  std::int64_t m = 0, d = 0, yday = f.yday;
  if (is_leap(f.year)) {
    if (yday == 31 + 29) {
      m = 2, d = 29;
    } else if (yday > 31 + 29) {
      --yday;
    }
  }
  if (yday < 1 || yday > 365) return "day-of-year out of range";
  if (m == 0) {
    for (m = 1; m < 12 && days_from_civil(2001, m + 1, 1) - days_from_civil(2001, 1, 1) < yday;)
      ++m;
    d = yday - (days_from_civil(2001, m, 1) - days_from_civil(2001, 1, 1));
  }
  if (f.month >= 0 && f.month != m) return "day-of-year does not match month";
  if (f.day >= 0 && f.day != d) return "day-of-year does not match day";
  f.month = m, f.day = d;
  return "";
}

// The time the fields say, in the zone they name (Local is UTC).
GoTime to_go_time(const Fields& f) {
  GoTime out;
  out.sec = days_from_civil(f.year, f.month, f.day) * 86400 + f.hour * 3600 + f.min * 60 + f.sec;
  out.nsec = f.nsec;
  if (f.utc) return out;
  if (f.zone_offset != -1) {
    out.sec -= f.zone_offset;
    // Local (UTC) keeps its name when the offset is its own; any other is a fixed zone.
    if (f.zone_offset != 0 || !(f.zone_name.empty() || f.zone_name == "UTC"))
      out.offset = f.zone_offset, out.zone = f.zone_name;
    return out;
  }
  if (!f.zone_name.empty()) {
    // An abbreviation Local does not know: its clock read as UTC, its offset only for GMT+N.
    std::int64_t hours = 0;
    if (f.zone_name.size() > 3 && f.zone_name.compare(0, 3, "GMT") == 0)
      time_atoi(std::string_view(f.zone_name).substr(3), hours);
    out.offset = hours * 3600;
    out.zone = f.zone_name;
  }
  return out;
}

}  // namespace

bool go_parse(std::string_view layout, std::string_view value, GoTime& out, std::string& error) {
  const std::string_view full_layout = layout, full_value = value;
  auto fail = [&](std::string_view layout_elem, std::string_view value_elem,
                  const std::string& message) {
    error = "parsing time " + time_quote(full_value);
    error += message.empty() ? " as " + time_quote(full_layout) + ": cannot parse " +
                                   time_quote(value_elem) + " as " + time_quote(layout_elem)
                             : message;
    return false;
  };
  Fields f;
  for (;;) {
    Chunk c = next_chunk(layout);
    if (!skip_literal(value, c.prefix)) return fail(c.prefix, value, "");
    if (c.std == Std::None) {
      if (!value.empty()) return fail("", value, ": extra text: " + time_quote(value));
      break;
    }
    layout = c.suffix;
    const std::string_view hold = value;
    const bool ok = read_element(c, value, f);
    if (!f.range.empty()) return fail(c.element, value, ": " + f.range + " out of range");
    if (!ok) return fail(c.element, hold, "");
  }
  if (f.pm && f.hour < 12) f.hour += 12;
  if (f.am && f.hour == 12) f.hour = 0;
  if (f.yday >= 0) {
    if (std::string why = resolve_year_day(f); !why.empty()) return fail("", value, ": " + why);
  }
  if (f.month < 0) f.month = 1;
  if (f.day < 0) f.day = 1;
  if (f.day < 1 || f.day > days_in(static_cast<int>(f.month), f.year))
    return fail("", value, ": day out of range");
  out = to_go_time(f);
  return true;
}

}  // namespace sbr::render::helm
