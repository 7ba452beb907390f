#include "prover/lib/units.h"

#include <cctype>
#include <cstdlib>
#include <string>

namespace sbr::prove {

std::optional<std::int64_t> parse_bytes(std::string_view s, bool kubernetes) {
  std::string text(s);
  char* end = nullptr;
  double v = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || v < 0) return std::nullopt;
  std::string unit(end);
  for (char& ch : unit) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  double mult = 1;
  if (unit.empty() || unit == "b") {
    mult = 1;
  } else if (unit == "ki" || (!kubernetes && (unit == "k" || unit == "kb"))) {
    mult = 1024.0;
  } else if (unit == "mi" || (!kubernetes && (unit == "m" || unit == "mb"))) {
    mult = 1024.0 * 1024;
  } else if (unit == "gi" || (!kubernetes && (unit == "g" || unit == "gb"))) {
    mult = 1024.0 * 1024 * 1024;
  } else if (unit == "ti") {
    mult = 1024.0 * 1024 * 1024 * 1024;
  } else if (kubernetes && unit == "k") {
    mult = 1e3;
  } else if (kubernetes && unit == "m" && s.back() == 'M') {
    mult = 1e6;
  } else if (kubernetes && unit == "g") {
    mult = 1e9;
  } else if (kubernetes && unit == "t") {
    mult = 1e12;
  } else {
    return std::nullopt;
  }
  return static_cast<std::int64_t>(v * mult);
}

std::optional<double> parse_cpus(std::string_view s) {
  std::string text(s);
  char* end = nullptr;
  double v = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || v < 0) return std::nullopt;
  std::string unit(end);
  if (unit.empty()) return v;
  if (unit == "m") return v / 1000.0;
  return std::nullopt;
}

}  // namespace sbr::prove
