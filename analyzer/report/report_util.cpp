#include "analyzer/report/report_util.h"

#include <fmt/format.h>

#include <algorithm>

namespace sbr::report {

std::optional<std::string_view> SourceLines::line(const Location& loc) const {
  // Walked files have files[i].id == i; anything added later (the configuration) is not here.
  if (!loc.valid() || loc.line == 0 || loc.file >= sources_.files.size()) return std::nullopt;
  const SourceFile& f = sources_.files[loc.file];
  if (f.id != loc.file || !f.readable) return std::nullopt;
  if (starts_.size() < sources_.files.size()) starts_.resize(sources_.files.size());
  std::vector<size_t>& starts = starts_[loc.file];
  std::string_view bytes = f.bytes;
  if (starts.empty()) {
    // Counted first: a vector grown by doubling held a large stream's index one and a half
    // times at the peak of a run.
    starts.reserve(1 + static_cast<size_t>(std::count(bytes.begin(), bytes.end(), '\n')));
    starts.push_back(0);
    for (size_t nl = bytes.find('\n'); nl != std::string_view::npos;
         nl = bytes.find('\n', nl + 1)) {
      starts.push_back(nl + 1);
    }
  }
  if (loc.line > starts.size()) return std::nullopt;
  size_t begin = starts[loc.line - 1];
  if (begin > bytes.size()) return std::nullopt;
  size_t end = loc.line < starts.size() ? starts[loc.line] - 1 : bytes.size();
  std::string_view line = bytes.substr(begin, end - begin);
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

namespace {

// Bytes of the well-formed UTF-8 sequence at `i` (Unicode's table 3-7: no overlong forms, no
// surrogates, nothing above U+10FFFF), or 0 when the byte there starts none.
size_t utf8_sequence(std::string_view s, size_t i) {
  auto at = [&](size_t k) { return i + k < s.size() ? static_cast<unsigned char>(s[i + k]) : 0; };
  auto cont = [&](size_t k) { return at(k) >= 0x80 && at(k) <= 0xBF; };
  unsigned char c = at(0);
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF) return cont(1) ? 2 : 0;
  if (c >= 0xE0 && c <= 0xEF) {
    unsigned char lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
    return at(1) >= lo && at(1) <= hi && cont(2) ? 3 : 0;
  }
  if (c >= 0xF0 && c <= 0xF4) {
    unsigned char lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
    return at(1) >= lo && at(1) <= hi && cont(2) && cont(3) ? 4 : 0;
  }
  return 0;
}

}  // namespace

size_t safe_length(std::string_view s, size_t i) {
  return std::max<size_t>(utf8_sequence(s, i), 1);
}

size_t unsafe_length(std::string_view s, size_t i) {
  auto at = [&](size_t k) { return i + k < s.size() ? static_cast<unsigned char>(s[i + k]) : 0; };
  unsigned char c = at(0);
  // A byte that is not well-formed UTF-8 (a file in Latin-1, a truncated sequence): one '?',
  // so the report stays valid UTF-8 whatever the input held.
  if (c >= 0x80 && utf8_sequence(s, i) == 0) return 1;
  if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f) return 1;
  if (c == 0xC2 && at(1) >= 0x80 && at(1) <= 0x9F) return 2;
  if (c == 0xE2 && at(1) == 0x80 && at(2) >= 0xAA && at(2) <= 0xAE) return 3;
  if (c == 0xE2 && at(1) == 0x81 && at(2) >= 0xA6 && at(2) <= 0xA9) return 3;
  return 0;
}

std::string without_controls(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    if (size_t bad = unsafe_length(s, i); bad > 0) {
      out += '?';
      i += bad;
    } else {
      size_t n = safe_length(s, i);
      out.append(s.substr(i, n));
      i += n;
    }
  }
  return out;
}

std::string one_line_safe(std::string_view s) {
  std::string out = without_controls(s);
  for (char& c : out) {
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  }
  return out;
}

bool is_reported_new(const ReportContext& ctx, size_t i) {
  return ctx.baseline_states.size() != ctx.findings.size() || ctx.baseline_states[i] == "new";
}

std::string dump_location(const Model& m, const Location& at) {
  return fmt::format("{}:{}:{}", m.files.path(at.file), at.line, at.column);
}

std::string invariant_note(const Finding& f) {
  if (f.invariant != 0 || !f.cause) return fmt::format("invariant {}", f.invariant);
  return fmt::format("invariant 0; cause: {}", cause_name(*f.cause));
}

std::string message_with_reasons(const Finding& f) {
  std::string text = f.message;
  for (const Reason& r : f.reasons) {
    text += fmt::format(" Also {} (invariant {}): {}", r.rule_id.str(), r.invariant, r.message);
  }
  return text;
}

}  // namespace sbr::report
