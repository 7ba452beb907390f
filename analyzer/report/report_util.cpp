#include "analyzer/report/report_util.h"

#include <fmt/format.h>

namespace sbr::report {

std::optional<std::string_view> source_line(const SourceSet& sources, const Location& loc) {
  // Walked files have files[i].id == i; anything added later (the configuration) is not here.
  if (!loc.valid() || loc.line == 0 || loc.file >= sources.files.size()) return std::nullopt;
  const SourceFile& f = sources.files[loc.file];
  if (f.id != loc.file || !f.readable) return std::nullopt;
  std::string_view bytes = f.bytes;
  size_t start = 0;
  for (std::uint32_t n = 1; n < loc.line; ++n) {
    size_t nl = bytes.find('\n', start);
    if (nl == std::string_view::npos) return std::nullopt;
    start = nl + 1;
  }
  if (start > bytes.size()) return std::nullopt;
  size_t end = bytes.find('\n', start);
  std::string_view line = bytes.substr(start, end == std::string_view::npos ? end : end - start);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

std::string_view sarif_level(Severity s) {
  switch (s) {
    case Severity::Critical:
    case Severity::High:
      return "error";
    case Severity::Medium:
      return "warning";
    case Severity::Low:
    case Severity::Note:
      return "note";
  }
  return "note";
}

std::string_view security_severity(Severity s) {
  switch (s) {
    case Severity::Critical:
      return "9.5";
    case Severity::High:
      return "8.0";
    case Severity::Medium:
      return "5.5";
    case Severity::Low:
      return "2.0";
    case Severity::Note:
      return "0.0";
  }
  return "0.0";
}

std::string rule_help_uri(const Rule& rule) {
  return fmt::format("{}/blob/main/docs/rules/{}-{}.md", kInformationUri, rule.id, rule.slug);
}

std::string uri_encode_path(std::string_view path) {
  std::string out;
  for (unsigned char c : path) {
    bool keep = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                c == '-' || c == '.' || c == '_' || c == '~' || c == '/';
    if (keep) {
      out += static_cast<char>(c);
    } else {
      out += fmt::format("%{:02X}", c);
    }
  }
  return out;
}

Counts count_findings(const std::vector<Finding>& findings) {
  Counts c;
  for (const Finding& f : findings) {
    ++c.by_severity[static_cast<size_t>(f.severity)];
    ++c.by_invariant[f.invariant];
    if (!f.accepted_reason.empty()) ++c.accepted;
  }
  return c;
}

}  // namespace sbr::report
