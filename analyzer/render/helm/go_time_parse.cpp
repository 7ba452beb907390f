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
  std::int64_t year = 0, month = -1, day = -1, yday = -1, hour = 0, min = 0, sec = 0, nsec = 0;
  std::int64_t zone_offset = -1;
  bool utc = false, am = false, pm = false;
  std::string zone_name, range;
  for (;;) {
    Chunk c = next_chunk(layout);
    if (!skip_literal(value, c.prefix)) return fail(c.prefix, value, "");
    if (c.std == Std::None) {
      if (!value.empty()) return fail("", value, ": extra text: " + time_quote(value));
      break;
    }
    layout = c.suffix;
    const std::string_view hold = value;
    bool ok = true;
    int index = 0;
    switch (c.std) {
      case Std::Year:
        ok = value.size() >= 2 && time_atoi(value.substr(0, 2), year);
        if (ok) value.remove_prefix(2), year += year >= 69 ? 1900 : 2000;
        break;
      case Std::LongYear:
        ok = value.size() >= 4 && digit_at(value, 0) && time_atoi(value.substr(0, 4), year);
        if (ok) value.remove_prefix(4);
        break;
      case Std::Month:
      case Std::LongMonth:
        ok = lookup_name(kMonthNames, 12, c.std == Std::Month ? 3 : 0, value, index);
        month = index + 1;
        break;
      case Std::NumMonth:
      case Std::ZeroMonth:
        ok = getnum(value, c.std == Std::ZeroMonth, month);
        if (ok && (month <= 0 || month > 12)) range = "month";
        break;
      case Std::WeekDay:
      case Std::LongWeekDay:
        ok = lookup_name(kDayNames, 7, c.std == Std::WeekDay ? 3 : 0, value, index);
        break;
      case Std::Day:
      case Std::UnderDay:
      case Std::ZeroDay:
        if (c.std == Std::UnderDay && !value.empty() && value[0] == ' ') value.remove_prefix(1);
        ok = getnum(value, c.std == Std::ZeroDay, day);
        break;
      case Std::UnderYearDay:
      case Std::ZeroYearDay:
        for (int k = 0; k < 2 && c.std == Std::UnderYearDay; ++k) {
          if (!value.empty() && value[0] == ' ') value.remove_prefix(1);
        }
        ok = getnum3(value, c.std == Std::ZeroYearDay, yday);
        break;
      case Std::Hour:
        ok = getnum(value, false, hour);
        if (hour < 0 || hour >= 24) range = "hour";
        break;
      case Std::Hour12:
      case Std::ZeroHour12:
        ok = getnum(value, c.std == Std::ZeroHour12, hour);
        if (hour < 0 || hour > 12) range = "hour";
        break;
      case Std::Minute:
      case Std::ZeroMinute:
        ok = getnum(value, c.std == Std::ZeroMinute, min);
        if (min < 0 || min >= 60) range = "minute";
        break;
      case Std::Second:
      case Std::ZeroSecond: {
        ok = getnum(value, c.std == Std::ZeroSecond, sec);
        if (!ok) break;
        if (sec < 0 || sec >= 60) {
          range = "second";
          break;
        }
        // A fractional second the layout does not name is read all the same.
        if (value.size() >= 2 && comma_or_period(value[0]) && digit_at(value, 1)) {
          Std next = next_chunk(layout).std;
          if (next == Std::FracSecond0 || next == Std::FracSecond9) break;
          std::size_t n = 2;
          while (digit_at(value, n)) ++n;
          ok = nanoseconds(value, n, nsec, range);
          value.remove_prefix(n);
        }
        break;
      }
      case Std::PM:
      case Std::pm: {
        const bool upper = c.std == Std::PM;
        ok = value.size() >= 2;
        if (!ok) break;
        std::string_view p = value.substr(0, 2);
        value.remove_prefix(2);
        pm = p == (upper ? "PM" : "pm");
        am = p == (upper ? "AM" : "am");
        ok = pm || am;
        break;
      }
      case Std::TZ: {
        if (value.substr(0, 3) == "UTC") {
          utc = true;
          value.remove_prefix(3);
          break;
        }
        std::size_t n = zone_length(value);
        ok = n > 0;
        if (ok) zone_name = std::string(value.substr(0, n)), value.remove_prefix(n);
        break;
      }
      case Std::FracSecond0: {
        const std::size_t n = 1 + static_cast<std::size_t>(c.digits);
        ok = value.size() >= n && nanoseconds(value, n, nsec, range);
        if (ok) value.remove_prefix(n);
        break;
      }
      case Std::FracSecond9: {
        if (value.size() < 2 || !comma_or_period(value[0]) || !digit_at(value, 1)) break;
        std::size_t i = 0;
        while (digit_at(value, i + 1)) ++i;
        ok = nanoseconds(value, 1 + i, nsec, range);
        value.remove_prefix(1 + i);
        break;
      }
      default: {  // the numeric zones
        const bool iso = c.std == Std::ISO8601TZ || c.std == Std::ISO8601ShortTZ ||
                         c.std == Std::ISO8601ColonTZ || c.std == Std::ISO8601SecondsTZ ||
                         c.std == Std::ISO8601ColonSecondsTZ;
        if (iso && !value.empty() && value[0] == 'Z') {
          value.remove_prefix(1);
          utc = true;
          break;
        }
        std::string_view hh, mm = "00", ss = "00";
        std::size_t len = 5;
        if (c.std == Std::ISO8601ColonTZ || c.std == Std::NumColonTZ) {
          len = 6;
          ok = value.size() >= 6 && value[3] == ':';
          if (ok) hh = value.substr(1, 2), mm = value.substr(4, 2);
        } else if (c.std == Std::NumShortTZ || c.std == Std::ISO8601ShortTZ) {
          len = 3;
          ok = value.size() >= 3;
          if (ok) hh = value.substr(1, 2);
        } else if (c.std == Std::ISO8601ColonSecondsTZ || c.std == Std::NumColonSecondsTZ) {
          len = 9;
          ok = value.size() >= 9 && value[3] == ':' && value[6] == ':';
          if (ok) hh = value.substr(1, 2), mm = value.substr(4, 2), ss = value.substr(7, 2);
        } else if (c.std == Std::ISO8601SecondsTZ || c.std == Std::NumSecondsTZ) {
          len = 7;
          ok = value.size() >= 7;
          if (ok) hh = value.substr(1, 2), mm = value.substr(3, 2), ss = value.substr(5, 2);
        } else {
          ok = value.size() >= 5;
          if (ok) hh = value.substr(1, 2), mm = value.substr(3, 2);
        }
        if (!ok) break;
        const char sign = value[0];
        value.remove_prefix(len);
        std::int64_t h = 0, m = 0, s = 0;
        ok = getnum(hh, true, h) && getnum(mm, true, m) && getnum(ss, true, s);
        if (h > 24) range = "time zone offset hour";
        if (m > 60) range = "time zone offset minute";
        if (s > 60) range = "time zone offset second";
        zone_offset = (h * 60 + m) * 60 + s;
        if (sign == '-') zone_offset = -zone_offset;
        if (sign != '-' && sign != '+') ok = false;
      }
    }
    if (!range.empty()) return fail(c.element, value, ": " + range + " out of range");
    if (!ok) return fail(c.element, hold, "");
  }
  if (pm && hour < 12) hour += 12;
  if (am && hour == 12) hour = 0;
  if (yday >= 0) {
    std::int64_t m = 0, d = 0;
    if (is_leap(year)) {
      if (yday == 31 + 29) {
        m = 2, d = 29;
      } else if (yday > 31 + 29) {
        --yday;
      }
    }
    if (yday < 1 || yday > 365) return fail("", value, ": day-of-year out of range");
    if (m == 0) {
      for (m = 1; m < 12 && days_from_civil(2001, m + 1, 1) - days_from_civil(2001, 1, 1) < yday;)
        ++m;
      d = yday - (days_from_civil(2001, m, 1) - days_from_civil(2001, 1, 1));
    }
    if (month >= 0 && month != m) return fail("", value, ": day-of-year does not match month");
    if (day >= 0 && day != d) return fail("", value, ": day-of-year does not match day");
    month = m, day = d;
  }
  if (month < 0) month = 1;
  if (day < 0) day = 1;
  if (day < 1 || day > days_in(static_cast<int>(month), year))
    return fail("", value, ": day out of range");
  out = GoTime{};
  out.sec = days_from_civil(year, month, day) * 86400 + hour * 3600 + min * 60 + sec;
  out.nsec = nsec;
  if (utc) return true;
  if (zone_offset != -1) {
    out.sec -= zone_offset;
    // Local (UTC) keeps its name when the offset is its own; any other is a fixed zone.
    if (zone_offset != 0 || !(zone_name.empty() || zone_name == "UTC"))
      out.offset = zone_offset, out.zone = zone_name;
    return true;
  }
  if (!zone_name.empty()) {
    // An abbreviation Local does not know: its clock read as UTC, its offset only for GMT+N.
    std::int64_t hours = 0;
    if (zone_name.size() > 3 && zone_name.compare(0, 3, "GMT") == 0)
      time_atoi(std::string_view(zone_name).substr(3), hours);
    out.offset = hours * 3600;
    out.zone = zone_name;
  }
  return true;
}

}  // namespace sbr::render::helm
