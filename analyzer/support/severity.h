// How serious a finding is. Shared by the catalog, the configuration (severity overrides and
// thresholds) and every report, so it sits below all of them.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace sbr {

enum class Severity : std::uint8_t { Note, Low, Medium, High, Critical };

std::string_view severity_name(Severity s);
std::optional<Severity> parse_severity(std::string_view s);

}  // namespace sbr
