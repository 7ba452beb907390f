#include "analyzer/render/helm/unvendored.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace sbr::render::helm {

namespace {

// Helm coalesces a dependency's values under its alias when it has one.
std::vector<std::string> unvendored_keys(const Chart& chart) {
  std::vector<std::string> keys;
  for (const Dependency& d : chart.dependencies) {
    const auto& missing = chart.missing_dependencies;
    if (std::find(missing.begin(), missing.end(), d.name) == missing.end()) continue;
    keys.push_back(d.alias.empty() ? d.name : d.alias);
  }
  return keys;
}

constexpr int kMaxStandInDepth = 10;  // the subchart depth collect() renders

}  // namespace

void add_stand_ins(Chart& chart, Value& values, int depth) {
  if (depth > kMaxStandInDepth || !values.is_map()) return;
  for (const std::string& key : unvendored_keys(chart)) {
    Value& slot = (*values.map)[key];
    if (!slot.is_map()) slot = Value::new_map();  // a scalar or null: the dependency's map wins
  }
  for (Chart& sub : chart.subcharts) add_stand_ins(sub, sub.values, depth + 1);
}

std::vector<const Map*> stand_ins_of(const Chart& chart, const Value& values, int depth) {
  std::vector<const Map*> out;
  if (depth > kMaxStandInDepth || !values.is_map()) return out;
  for (const std::string& key : unvendored_keys(chart)) {
    auto found = values.map->find(key);
    if (found != values.map->end() && found->second.is_map())
      out.push_back(found->second.map.get());
  }
  for (const Chart& sub : chart.subcharts) {
    std::vector<const Map*> more = stand_ins_of(sub, sub.values, depth + 1);
    out.insert(out.end(), more.begin(), more.end());
  }
  return out;
}

// The dependency whose values `path` reads (`.Values.postgresql.x`), when the path says so.
std::string dependency_read(const std::string& path, const std::vector<std::string>& missing) {
  const std::string values = ".Values.";
  if (path.rfind(values, 0) != 0) return {};
  std::string key = path.substr(values.size(), path.find('.', values.size()) - values.size());
  return std::find(missing.begin(), missing.end(), key) != missing.end() ? key : std::string{};
}

namespace {

// Whose values.yaml `read` needed: the one dependency its path names, else any of `missing`.
std::string provider_of(const StandInRead& read, const std::vector<std::string>& missing) {
  std::string one = dependency_read(read.path, missing);
  if (!one.empty()) {
    return fmt::format(
        "the dependency \"{}\", which is not vendored in charts/, would provide it from its "
        "values.yaml",
        one);
  }
  return fmt::format(
      "one of the dependencies \"{}\", which are not vendored in charts/, would provide it "
      "from its values.yaml",
      fmt::join(missing, "\", \""));
}

}  // namespace

std::string stand_in_message(const std::string& name, const std::string& chart,
                             const StandInRead& read, const std::vector<std::string>& missing) {
  return fmt::format(
      "chart {} is rendered with {} empty here (first read in rendering template {}): {}. "
      "The template's objects are analysed as rendered; what the dependency's values would "
      "change in them is not known",
      chart, read.path, name, provider_of(read, missing));
}

std::string stopped_after_stand_in_message(const std::string& name, const std::string& chart,
                                           const StandInRead& read, const std::string& error,
                                           std::uint32_t line,
                                           const std::vector<std::string>& missing) {
  return fmt::format(
      "template {} of chart {} is not rendered: it read {}, which is empty here ({}), and then "
      "stopped: {} (line {}). What the template would create is not known, the chart's other "
      "templates are analysed; vendor the dependency (`helm dependency build`) to have it checked",
      name, chart, read.path, provider_of(read, missing), error, line);
}

std::string blocked_message(const std::string& chart, const std::vector<BlockedTemplate>& blocked,
                            const std::vector<std::string>& missing) {
  std::string deps = fmt::format("\"{}\"", fmt::join(missing, "\", \""));
  const BlockedTemplate& first = blocked.front();
  if (blocked.size() == 1) {
    return fmt::format(
        "template {} of chart {} is not rendered: it includes \"{}\" (line {}), which no "
        "template of the chart defines; the dependency {} is not vendored in charts/ and "
        "probably defines it. What the template would create is not known, the chart's other "
        "templates are analysed",
        first.name, chart, first.define, first.at.line, deps);
  }
  std::vector<std::string> defines, names;
  for (const BlockedTemplate& b : blocked) {
    if (std::find(defines.begin(), defines.end(), b.define) == defines.end())
      defines.push_back(b.define);
    if (names.size() < 8) names.push_back(b.name);
  }
  const bool more_defines = defines.size() > 4;
  if (more_defines) defines.resize(4);
  return fmt::format(
      "{} templates of chart {} are not rendered: they include defines no template of the chart "
      "has (\"{}\"{}); the dependency {} is not vendored in charts/ and probably defines them. "
      "What they would create is not known, the chart's other templates are analysed. Not "
      "rendered: {}{}",
      blocked.size(), chart, fmt::join(defines, "\", \""), more_defines ? ", ..." : "", deps,
      fmt::join(names, ", "),
      blocked.size() > names.size() ? fmt::format(" and {} more", blocked.size() - names.size())
                                    : "");
}

}  // namespace sbr::render::helm
