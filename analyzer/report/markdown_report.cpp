// A Markdown summary for $GITHUB_STEP_SUMMARY and pull-request comments: a table of counts by
// invariant and severity, then one line per finding (the new ones of a diff) with its place and
// a link to the rule's page. The reviewed repository writes part of this text (file names, YAML
// values in messages), and GitHub renders it with the reader's session, so every such string is
// escaped to plain text: no HTML, link, image, table cell break or @mention can come from it.
#include <fmt/format.h>

#include <algorithm>
#include <sstream>

#include "analyzer/check/registry.h"
#include "analyzer/report/redact.h"
#include "analyzer/report/report.h"
#include "analyzer/report/report_util.h"

namespace sbr {
namespace {

// One finding's line is cut here: a message quoting a minified file must not fill the summary.
constexpr size_t kMaxText = 1000;
constexpr std::array kSeverities{Severity::Critical, Severity::High, Severity::Medium,
                                 Severity::Low, Severity::Note};

// Characters Markdown (CommonMark, GFM tables, strikethrough, autolinks and math) gives a
// meaning inside a line: each is written backslash-escaped, which CommonMark defines for any
// ASCII punctuation. The text never starts a line, so list and heading markers ('-', '+', '=')
// stay as they are.
bool is_markup(char c) {
  return std::string_view("\\`*_{}[]()<>#!|~$:").find(c) != std::string_view::npos;
}

// Plain text for inline Markdown. '&' is written as an entity so that no entity reaches the
// page; '@' is followed by a zero-width space so that a name in a message mentions nobody; '.'
// after "www" and "://" lose their meaning with the escapes above, so no autolink forms.
std::string md_text(const Redactor& redact, std::string_view s) {
  std::string clean = report::without_controls(redact(s));
  std::string out;
  bool space = false;
  for (char c : clean) {
    if (c == '\n' || c == '\r' || c == '\t' || c == ' ') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    if (out.size() >= kMaxText) {
      out += "\\.\\.\\.";
      break;
    }
    if (c == '&') {
      out += "&amp;";
    } else if (c == '@') {
      out += "@&#8203;";
    } else if (c == '.') {
      out += "&#46;";  // "evil.example" must not become a link, nor "1." a list
    } else {
      if (is_markup(c)) out += '\\';
      out += c;
    }
  }
  return out;
}

std::string invariant_label(int invariant) {
  for (const auto& c : invariant_checks()) {
    if (c.invariant == invariant) return fmt::format("{} {}", invariant, c.name);
  }
  return std::to_string(invariant);
}

void write_table(const std::vector<const Finding*>& shown, std::ostream& out) {
  std::map<int, std::array<size_t, 5>> rows;
  std::array<size_t, 5> total{};
  for (const Finding* f : shown) {
    ++rows[f->invariant][static_cast<size_t>(f->severity)];
    ++total[static_cast<size_t>(f->severity)];
  }
  out << "| invariant | critical | high | medium | low | note |\n";
  out << "|---|---:|---:|---:|---:|---:|\n";
  auto cells = [&](const std::array<size_t, 5>& n) {
    std::string s;
    for (Severity sev : kSeverities) s += fmt::format(" {} |", n[static_cast<size_t>(sev)]);
    return s;
  };
  for (const auto& [inv, n] : rows) out << "| " << invariant_label(inv) << " |" << cells(n) << "\n";
  out << "| **total** |" << cells(total) << "\n\n";
}

std::string where(const Redactor& redact, const std::string& path, const Location& at) {
  std::string place = path;
  if (at.line > 0) place += fmt::format(":{}", at.line);
  if (at.line > 0 && at.column > 0) place += fmt::format(":{}", at.column);
  return md_text(redact, place);
}

std::string finding_line(const ReportContext& ctx, const Redactor& redact, const Finding& f,
                         const std::string& path) {
  std::string rule(f.rule_id.str());
  if (const Rule* r = ctx.catalog.find(rule)) {
    rule = fmt::format("[{}]({})", rule, report::rule_help_uri(*r));
  }
  std::string line = fmt::format(
      "- **{}** {} {}: {} ({})", severity_name(f.severity), rule, where(redact, path, f.at),
      md_text(redact, report::message_with_reasons(f)), report::invariant_note(f));
  if (!f.accepted_reason.empty()) line += " accepted: " + md_text(redact, f.accepted_reason);
  return line + "\n";
}

// Appends lines while they fit in `budget`; counts the rest.
struct Bounded {
  std::ostringstream text;
  size_t budget;
  size_t left_out = 0;
  void add(const std::string& line) {
    if (static_cast<size_t>(text.tellp()) + line.size() > budget) {
      ++left_out;
    } else {
      text << line;
    }
  }
};

std::string heading(const ReportContext& ctx, const Redactor& redact, size_t shown) {
  std::string what = fmt::format("{} {}finding{}", shown, ctx.diff_range.empty() ? "" : "new ",
                                 shown == 1 ? "" : "s");
  if (ctx.diff_range.empty()) return fmt::format("## sbreview: {}\n\n", what);
  std::string fixed = ctx.fixed.empty() ? "" : fmt::format(", {} fixed", ctx.fixed.size());
  return fmt::format("## sbreview diff {}: {}{}\n\n", md_text(redact, ctx.diff_range), what, fixed);
}

}  // namespace

void write_markdown(const ReportContext& ctx, std::ostream& out, size_t max_bytes) {
  Redactor redact(ctx.model);
  std::vector<const Finding*> shown;
  for (size_t i = 0; i < ctx.findings.size(); ++i) {
    if (report::is_reported_new(ctx, i)) shown.push_back(&ctx.findings[i]);
  }
  // Most severe first, so that a capped summary leaves out the least severe; stable, so the
  // report's file order holds within a severity.
  std::stable_sort(shown.begin(), shown.end(),
                   [](const Finding* a, const Finding* b) { return a->severity > b->severity; });
  Bounded body{{}, max_bytes};
  body.text << heading(ctx, redact, shown.size());
  if (!shown.empty()) write_table(shown, body.text);
  if (!shown.empty())
    body.add(ctx.diff_range.empty() ? "### Findings\n\n" : "### New findings\n\n");
  for (const Finding* f : shown) {
    std::string path = f->at.valid() ? ctx.uri_prefix + ctx.model.files.path(f->at.file) : "";
    body.add(finding_line(ctx, redact, *f, path));
  }
  if (!ctx.fixed.empty()) body.add("\n### Fixed\n\n");
  for (const Finding& f : ctx.fixed) {
    std::string path = f.at.valid() ? ctx.uri_prefix + ctx.model.files.path(f.at.file) : "";
    body.add(finding_line(ctx, redact, f, path));
  }
  out << body.text.str();
  if (body.left_out > 0) {
    out << fmt::format(
        "\n_{} more line{} left out: the summary is capped at {} bytes. The SARIF "
        "or text report has every finding._\n",
        body.left_out, body.left_out == 1 ? "" : "s", max_bytes);
  }
}

}  // namespace sbr
