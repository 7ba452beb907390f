// `sbreview prove`'s text view: per launched workload, how it was launched, what was left out
// of the launch, and a table of verdicts (each finding about it and each control the review
// counted on); then the runtime's own findings and a summary. Everything is redacted and
// stripped of control characters, as in the text report.
#include <fmt/format.h>

#include <map>

#include "analyzer/report/redact.h"
#include "analyzer/report/report.h"
#include "analyzer/report/report_util.h"
#include "generated/rule_ids.h"

namespace sbr {
namespace {

std::string clean(const Redactor& redact, std::string_view s) {
  std::string out = report::without_controls(redact(std::string(s)));
  for (char& c : out) {
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  }
  return out;
}

// The prover's own findings (SB0040-SB0042) are listed after the tables, with their messages.
bool is_runtime_rule(const Finding& f) {
  return f.rule_id == rule::runtime_launch_failed || f.rule_id == rule::runtime_refutes_finding ||
         f.rule_id == rule::runtime_control_absent;
}

std::string_view verdict_color(std::string_view v) {
  if (v == "confirmed") return "31";
  if (v == "refuted") return "32";
  return "90";
}

struct Writer {
  const ReportContext& ctx;
  std::ostream& out;
  bool color;
  Redactor redact;
  std::map<std::string, size_t> counts;  // "finding confirmed", "control refuted"...

  std::string paint(std::string_view code, std::string_view text) const {
    return color ? fmt::format("\x1b[{}m{}\x1b[0m", code, text) : std::string(text);
  }

  std::string what_of(const RuntimeNote& n) const {
    std::string text = n.observed;
    if (!n.reason.empty()) text += (text.empty() ? "" : "; ") + n.reason;
    return clean(redact, text);
  }

  void row(std::string_view verdict, std::string_view id, unsigned line, const std::string& text) {
    std::string v = fmt::format("{:<14}", verdict == "unverifiable" ? "not verifiable" : verdict);
    out << "  " << paint(verdict_color(verdict), v) << fmt::format(" {:<8} {:>5}  ", id, line)
        << text << "\n";
  }

  bool about(const Finding& f, const RuntimeLaunch& l) const {
    if (f.subject == l.subject) return true;
    for (const SharedWith& s : f.shared_with) {
      if (s.subject == l.subject) return true;
    }
    return false;
  }

  void launch(const RuntimeLaunch& l) {
    std::string how = l.launch.empty() ? "not launched" : l.launch + " on " + l.runtime;
    out << paint("1", clean(redact, l.label)) << ": " << how << "\n";
    if (!l.engine_note.empty()) out << "  " << clean(redact, l.engine_note) << "\n";
    if (!l.error.empty())
      out << "  " << paint("31", "no observation: ") << clean(redact, l.error) << "\n";
    for (const auto& n : l.not_passed) out << "  not passed: " << clean(redact, n) << "\n";
    out << paint("2",
                 fmt::format("  {:<14} {:<8} {:>5}  {}", "verdict", "rule", "line", "observed"))
        << "\n";
    for (size_t i = 0; i < ctx.findings.size() && i < ctx.runtime.size(); ++i) {
      const Finding& f = ctx.findings[i];
      if (!about(f, l) || is_runtime_rule(f)) continue;
      const RuntimeNote& n = ctx.runtime[i];
      ++counts["finding " + n.verdict];
      row(n.verdict, f.rule_id.str(), f.at.line, what_of(n));
    }
    for (const RuntimeControlRow& c : l.controls) {
      ++counts["control " + c.note.verdict];
      std::string text = fmt::format("{} (invariant {}): {}", c.name, c.invariant, what_of(c.note));
      row(c.note.verdict, "control", c.at.line, clean(redact, text));
    }
    out << "\n";
  }

  void others() {
    size_t n = 0;
    for (size_t i = 0; i < ctx.findings.size() && i < ctx.runtime.size(); ++i) {
      if (is_runtime_rule(ctx.findings[i])) continue;
      bool placed = false;
      for (const RuntimeLaunch& l : ctx.launches) placed = placed || about(ctx.findings[i], l);
      if (placed) continue;
      ++n;
      ++counts["finding " + ctx.runtime[i].verdict];
    }
    if (n > 0) out << n << " findings are not about a launched workload (not verifiable)\n\n";
  }

  void runtime_findings() {
    for (const Finding& f : ctx.findings) {
      if (!is_runtime_rule(f)) continue;
      std::string where = f.at.valid()
                              ? fmt::format("{}{}:{}:{}", ctx.display_prefix,
                                            ctx.model.files.path(f.at.file), f.at.line, f.at.column)
                              : "<no file>";
      out << clean(redact, where) << ": " << severity_name(f.severity) << " [" << f.rule_id << "] "
          << clean(redact, f.message.str()) << "\n";
    }
  }

  void summary() {
    auto c = [&](const char* k) { return counts[k]; };
    out << fmt::format(
        "prove: {} launches; findings: {} confirmed, {} refuted, {} not verifiable; controls: {} "
        "confirmed, {} refuted, {} not verifiable\n",
        ctx.launches.size(), c("finding confirmed"), c("finding refuted"),
        c("finding unverifiable"), c("control confirmed"), c("control refuted"),
        c("control unverifiable"));
  }
};

}  // namespace

void write_prove_text(const ReportContext& ctx, std::ostream& out, bool color) {
  Writer w{ctx, out, color, Redactor(ctx.model), {}};
  for (const RuntimeLaunch& l : ctx.launches) w.launch(l);
  w.others();
  w.runtime_findings();
  w.summary();
}

}  // namespace sbr
