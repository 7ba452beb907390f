// Go's time.Time and time.Duration as sprig's date functions use them: layouts written with the
// reference time (Mon Jan 2 15:04:05 MST 2006) for Format and ParseInLocation, Duration's
// String and ParseDuration. Helm reads times in the machine's Local zone; sbreview's Local is
// UTC, so output is the same on every machine (docs/rendering.md, "Placeholders").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "analyzer/render/helm/value.h"

namespace sbr::render::helm {

struct GoTime {
  std::int64_t sec = -62135596800;  // Unix seconds; the default is Go's zero Time
  std::int64_t nsec = 0;            // 0..999999999
  std::int64_t offset = 0;          // the zone's offset east of UTC, in seconds
  std::string zone = "UTC";         // its abbreviation; "" for a fixed zone without a name
};

constexpr std::int64_t kNanosPerSecond = 1'000'000'000;

// now's placeholder: 2000-01-01 00:00:00 UTC.
GoTime go_now();
std::string go_format(const GoTime& t, std::string_view layout);
// time.ParseInLocation(layout, value, Local); false with Go's ParseError text.
bool go_parse(std::string_view layout, std::string_view value, GoTime& out, std::string& error);
// t.Add(d) for a Duration in nanoseconds.
GoTime go_add(const GoTime& t, std::int64_t d);
// t.Sub(u), saturated at the Duration bounds as Go does.
std::int64_t go_sub(const GoTime& t, const GoTime& u);

std::string go_duration_string(std::int64_t d);
// time.ParseDuration; false with Go's error text.
bool go_parse_duration(std::string_view s, std::int64_t& out, std::string& error);
// Duration.Round(m).
std::int64_t go_duration_round(std::int64_t d, std::int64_t m);

// A time as a template value: a map that prints as Go's Time.String() and whose fields are
// kept under hidden keys. toJson and toYaml write it as RFC 3339 text, as Go's MarshalJSON.
Value time_value(const GoTime& t);
bool as_time(const Value& v, GoTime& out);
bool is_time(const Value& v);
std::string time_rfc3339(const GoTime& t);

}  // namespace sbr::render::helm
