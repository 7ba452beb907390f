// The text report: compiler-style lines a terminal and an editor both understand, the source
// line with a caret, and what to do. Everything printed is redacted and stripped of control
// characters: a hostile file name or YAML value must not drive the user's terminal.
#include <fmt/format.h>

#include <algorithm>

#include "analyzer/check/registry.h"
#include "analyzer/engine/boundary.h"
#include "analyzer/model/enum_names.h"
#include "analyzer/report/redact.h"
#include "analyzer/report/report.h"
#include "analyzer/report/report_util.h"

namespace sbr {
namespace {

struct Style {
  bool on;
  std::string wrap(std::string_view code, std::string_view text) const {
    if (!on) return std::string(text);
    return fmt::format("\x1b[{}m{}\x1b[0m", code, text);
  }
};

std::string_view severity_color(Severity s) {
  switch (s) {
    case Severity::Critical:
      return "1;31";
    case Severity::High:
      return "31";
    case Severity::Medium:
      return "33";
    case Severity::Low:
      return "36";
    case Severity::Note:
      return "34";
  }
  return "0";
}

// Unsafe characters become '?'; tabs stay, they matter for the caret. Newlines do not occur in
// a source line; elsewhere one_line() handles them.
std::string printable(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    size_t bad = report::unsafe_length(s, i);
    if (bad == 0 && (s[i] == '\n' || s[i] == '\r')) bad = 1;
    if (bad > 0) {
      out += '?';
      i += bad;
    } else {
      size_t n = report::safe_length(s, i);
      out.append(s.substr(i, n));
      i += n;
    }
  }
  return out;
}

// Messages and reasons are single lines in this format (folded catalog text ends in '\n').
std::string one_line(std::string_view s) {
  std::string out = report::one_line_safe(s);
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

std::string where(const ReportContext& ctx, const Location& loc) {
  if (!loc.valid()) return "<no file>";
  std::string path = one_line(ctx.display_prefix + ctx.model.files.path(loc.file));
  if (loc.line == 0) return path;
  if (loc.column == 0) return fmt::format("{}:{}", path, loc.line);
  return fmt::format("{}:{}:{}", path, loc.line, loc.column);
}

// The provenance chain on one line: "run.sh:12 (assigned flags), run.sh:3 (default NET)".
std::string via_text(const ReportContext& ctx, const Redactor& redact,
                     const std::vector<Step>& via) {
  std::string text;
  for (const Step& s : via) {
    if (!text.empty()) text += ", ";
    Location at = s.at;
    at.column = 0;  // compact: file and line
    text += fmt::format("{} ({}{}{})", where(ctx, at), step_role_name(s.role),
                        s.note.empty() ? "" : " ", one_line(redact(s.note)));
  }
  return text;
}

// The spaces (and tabs, copied) that put a caret under byte column `column` of `line`.
std::string caret_indent(std::string_view line, std::uint32_t column) {
  std::string out;
  size_t prefix = std::min<size_t>(column - 1, line.size());
  for (size_t i = 0; i < prefix; ++i) {
    auto c = static_cast<unsigned char>(line[i]);
    if ((c & 0xC0) == 0x80) continue;  // one column per UTF-8 character
    out += c == '\t' ? '\t' : ' ';
  }
  return out;
}

// Long lines (minified JSON, a base64 blob) are cut to a window around the column. The window
// is cut after redaction, so half a secret is never shown.
constexpr size_t kMaxShown = 160;

size_t utf8_boundary(std::string_view s, size_t pos) {
  while (pos > 0 && pos < s.size() && (static_cast<unsigned char>(s[pos]) & 0xC0) == 0x80) --pos;
  return pos;
}

// Only this much of a line on either side of the column is redacted and printed (plus the
// longest secret): a 50 MB line under 20 findings was redacted whole 20 times, past 120 s. A
// secret that crosses the edge of that window lies beyond the shown window, so no half of one
// is ever printed.
constexpr size_t kRedactMargin = size_t{16} * 1024;

void write_snippet(const report::SourceLines& lines, const Redactor& redact, const Location& loc,
                   const Style& style, std::ostream& out) {
  auto whole = lines.line(loc);
  if (!whole) return;
  size_t column = loc.column > 0 ? std::min<size_t>(loc.column - 1, whole->size()) : 0;
  size_t margin = kRedactMargin + kMaxShown + redact.longest();
  size_t from = column > margin ? utf8_boundary(*whole, column - margin) : 0;
  std::string_view line = whole->substr(from, margin * 2);
  const bool cut_before = from > 0, cut_after = from + line.size() < whole->size();
  std::string gutter = std::to_string(loc.line);
  std::string shown = printable(redact(line));
  // The caret's byte offset in `shown`; when redaction changed the line, from the redacted prefix.
  size_t caret = 0;
  if (loc.column > 0) {
    size_t prefix_len = column - from;
    caret = shown == printable(line) ? prefix_len
                                     : printable(redact(line.substr(0, prefix_len))).size();
    caret = std::min(caret, shown.size());
  }
  if (shown.size() > kMaxShown || cut_before || cut_after) {
    size_t begin = utf8_boundary(shown, caret > kMaxShown / 2 ? caret - kMaxShown / 2 : 0);
    size_t end = utf8_boundary(shown, std::min(shown.size(), begin + kMaxShown));
    if (end <= begin) end = std::min(shown.size(), begin + kMaxShown);
    const bool before = begin > 0 || cut_before, after = end < shown.size() || cut_after;
    std::string window =
        (before ? "..." : "") + shown.substr(begin, end - begin) + (after ? "..." : "");
    caret = caret - begin + (before ? 3 : 0);
    shown = std::move(window);
  }
  out << fmt::format(" {} | {}\n", gutter, shown);
  if (loc.column == 0) return;
  out << fmt::format(" {} | {}{}\n", std::string(gutter.size(), ' '),
                     caret_indent(shown, static_cast<std::uint32_t>(caret + 1)),
                     style.wrap("32", "^"));
}

std::string invariant_label(int invariant) {
  for (const auto& c : invariant_checks()) {
    if (c.invariant == invariant) return fmt::format("{} {}", invariant, c.name);
  }
  return std::to_string(invariant);
}

// "12 files (3 not applicable, 1 skipped, 40 excluded)": what became of every path the walk
// met; an excluded directory listed as one entry counts its files.
std::string files_phrase(const RunSummary& run) {
  size_t analysed = run.files_seen, not_applicable = 0, skipped = 0, excluded = 0;
  if (!run.files.empty()) {
    analysed = 0;
    for (const FileRecord& f : run.files) {
      (f.status == FileStatus::Analysed        ? analysed
       : f.status == FileStatus::NotApplicable ? not_applicable
       : f.status == FileStatus::Skipped       ? skipped
                                               : excluded) += f.count;
    }
  }
  std::string text = fmt::format("{} file{}", analysed, analysed == 1 ? "" : "s");
  if (not_applicable + skipped > 0 || excluded > 0) {
    text += fmt::format(" ({} not applicable, {} skipped", not_applicable, skipped);
    if (excluded > 0) text += fmt::format(", {} excluded", excluded);
    text += ")";
  }
  return text;
}

void write_summary(const ReportContext& ctx, const Style& style, std::ostream& out) {
  const RunSummary& run = ctx.model.summary;
  std::string analysed =
      fmt::format("{}, {} Kubernetes document{}, {} other YAML document{}", files_phrase(run),
                  run.kubernetes_documents, run.kubernetes_documents == 1 ? "" : "s",
                  run.other_yaml_documents, run.other_yaml_documents == 1 ? "" : "s");
  if (ctx.findings.empty()) {
    out << fmt::format("no findings ({})\n", analysed);
    return;
  }
  report::Counts counts = report::count_findings(ctx.findings);
  std::string by_severity;
  for (Severity s :
       {Severity::Critical, Severity::High, Severity::Medium, Severity::Low, Severity::Note}) {
    if (!by_severity.empty()) by_severity += ", ";
    size_t n = counts.by_severity[static_cast<size_t>(s)];
    std::string item = fmt::format("{} {}", n, severity_name(s));
    by_severity += n > 0 ? style.wrap(severity_color(s), item) : item;
  }
  size_t total = ctx.findings.size();
  out << fmt::format("\n{} finding{}: {}", total, total == 1 ? "" : "s", by_severity);
  if (counts.accepted > 0) out << fmt::format(" ({} accepted)", counts.accepted);
  out << "\n";
  std::string by_invariant;
  for (const auto& [inv, n] : counts.by_invariant) {
    if (!by_invariant.empty()) by_invariant += ", ";
    by_invariant += fmt::format("{}: {}", invariant_label(inv), n);
  }
  out << fmt::format("by invariant: {}\n", by_invariant);
  out << fmt::format("analysed {}\n", analysed);
}

// The reviewer's closing audit: each workload's boundary beside the floor of its class.
void write_boundary_table(const ReportContext& ctx, const Redactor& redact, const Style& style,
                          std::ostream& out) {
  std::vector<const Workload*> order = engine::boundary_order(ctx.model);
  if (order.empty()) return;
  size_t below = std::count_if(order.begin(), order.end(), [&](const Workload* w) {
    return !engine::meets_floor(ctx.model, *w);
  });
  out << fmt::format("\nboundary vs floor ({} workload{}, {} below the floor):\n", order.size(),
                     order.size() == 1 ? "" : "s", below);
  for (const Workload* w : order) {
    const engine::BoundaryRow r = engine::boundary_row(ctx.model, *w);
    out << fmt::format("  {} [{}]\n", style.wrap("1", one_line(redact(r.name))),
                       engine_name(r.engine));
    out << fmt::format("    threat class: {}: {}\n", threat_class_name(r.threat),
                       one_line(redact(r.threat_reason)));
    out << fmt::format(
        "    boundary: runtime {}; user namespace {}; seccomp {}; capabilities {}; "
        "no-new-privileges {}; user {}\n",
        r.runtime, r.user_namespace, one_line(redact(r.seccomp)), r.capabilities,
        r.no_new_privileges, one_line(redact(r.user)));
    out << fmt::format("    floor: {}: {}\n", r.floor,
                       r.meets ? style.wrap("32", "meets it")
                               : style.wrap("31", "below it (" + r.shortfall + ")"));
  }
}

}  // namespace

void write_text(const ReportContext& ctx, std::ostream& out, bool color) {
  Style style{color};
  Redactor redact(ctx.model);
  report::SourceLines lines(ctx.sources);
  for (const Finding& f : ctx.findings) {
    out << fmt::format("{}: {} [{}] {} ({})\n", style.wrap("1", where(ctx, f.at)),
                       style.wrap(severity_color(f.severity), severity_name(f.severity)),
                       style.wrap("1", f.rule_id), one_line(redact(f.message.str())),
                       report::invariant_note(f));
    write_snippet(lines, redact, f.at, style, out);
    // Reasons folded into this finding (check/group.h): one fact, one fix, several rules.
    for (const Reason& r : f.reasons) {
      out << fmt::format("  also: {} [{}] {} (invariant {})\n",
                         style.wrap(severity_color(r.severity), severity_name(r.severity)),
                         style.wrap("1", r.rule_id), one_line(redact(r.message)), r.invariant);
    }
    if (!f.condition().always()) {
      out << fmt::format("  condition: {}\n", one_line(redact(f.condition().text)));
    }
    for (const Related& r : f.related) {
      out << fmt::format("  related: {}: {}\n", where(ctx, r.at), one_line(redact(r.message)));
    }
    if (!f.via().empty()) out << "  via: " << via_text(ctx, redact, f.via()) << "\n";
    if (!f.accepted_reason.empty()) {
      out << fmt::format("  accepted: {}\n", one_line(redact(f.accepted_reason)));
    }
    if (const Rule* rule = ctx.catalog.find(f.rule_id)) {
      out << fmt::format("  remediation: {}\n", one_line(rule->remediation_for(f.engine, f.cause)));
    }
  }
  write_summary(ctx, style, out);
  write_boundary_table(ctx, redact, style, out);
}

}  // namespace sbr
