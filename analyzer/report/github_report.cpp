// GitHub workflow commands: one `::error file=F,line=L,col=C,title=T::message` line per finding,
// which the Actions runner turns into an annotation on the pull request's diff. Every value is
// escaped as GitHub's toolkit escapes it (@actions/core command.ts: data gets %, CR and LF;
// properties also ':' and ','), so a reviewed file's text can never end the command early or
// start a second one: a finding message holding "%0A::error" arrives as those literal characters.
#include <fmt/format.h>

#include "analyzer/report/redact.h"
#include "analyzer/report/report.h"
#include "analyzer/report/report_util.h"
#include "analyzer/support/strings.h"

namespace sbr {
namespace {

// A runner keeps annotation messages short; a finding quoting a minified line must not write a
// megabyte into one log line.
constexpr size_t kMaxMessage = 4000;

std::string escape_data(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    if (c == '%') {
      out += "%25";
    } else if (c == '\r') {
      out += "%0D";
    } else if (c == '\n') {
      out += "%0A";
    } else {
      out += c;
    }
  }
  return out;
}

std::string escape_property(std::string_view s) {
  std::string out;
  for (char c : escape_data(s)) {
    if (c == ':') {
      out += "%3A";
    } else if (c == ',') {
      out += "%2C";
    } else {
      out += c;
    }
  }
  return out;
}

// critical/high fail a gate (error), medium is a warning, low and notes are notices: the same
// split as the SARIF levels.
std::string_view command_of(Severity s) {
  std::string_view level = report::sarif_level(s);
  return level == "note" ? "notice" : level;
}

// The column as characters of the source line (the model counts bytes; GitHub shows characters).
std::uint32_t char_column(const report::SourceLines& lines, const Location& loc) {
  auto line = lines.line(loc);
  if (!line) return loc.column;
  size_t prefix = std::min<size_t>(loc.column - 1, line->size());
  std::uint32_t chars = 1;
  for (size_t i = 0; i < prefix; ++i) {
    if ((static_cast<unsigned char>((*line)[i]) & 0xC0) != 0x80) ++chars;
  }
  return chars;
}

std::string cut(const std::string& s) {
  return shorten(s, kMaxMessage + 3);
}

std::string properties(const ReportContext& ctx, const report::SourceLines& lines,
                       const Finding& f) {
  std::string props;
  if (f.at.valid()) {
    // Relative to the repository's top level, where GitHub resolves annotation paths.
    props +=
        "file=" +
        escape_property(report::without_controls(ctx.uri_prefix + ctx.model.files.path(f.at.file)));
    if (f.at.line > 0) {
      props += fmt::format(",line={}", f.at.line);
      if (f.at.column > 0) props += fmt::format(",col={}", char_column(lines, f.at));
    }
    props += ",";
  }
  std::string title(f.rule_id.str());
  if (const Rule* rule = ctx.catalog.find(f.rule_id)) title += " " + rule->title;
  return props + "title=" + escape_property(report::without_controls(title));
}

std::string message(const Redactor& redact, const Finding& f) {
  std::string text = fmt::format("{}: {} ({})", severity_name(f.severity),
                                 report::message_with_reasons(f), report::invariant_note(f));
  if (!f.accepted_reason.empty()) text += " Accepted: " + f.accepted_reason;
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return escape_data(cut(report::without_controls(redact(text))));
}

}  // namespace

void write_github(const ReportContext& ctx, std::ostream& out) {
  Redactor redact(ctx.model);
  report::SourceLines lines(ctx.sources);
  for (size_t i = 0; i < ctx.findings.size(); ++i) {
    if (!report::is_reported_new(ctx, i)) continue;
    const Finding& f = ctx.findings[i];
    out << "::" << command_of(f.severity) << ' ' << properties(ctx, lines, f)
        << "::" << message(redact, f) << '\n';
  }
}

}  // namespace sbr
