#include "analyzer/report/script_dump.h"

#include <fmt/format.h>

#include "analyzer/report/report_util.h"

#include "analyzer/support/secrets.h"

namespace sbr::report {
namespace {

std::string cond(const Condition& c) {
  if (c.always()) return "";
  return fmt::format("  [{}{}]", c.text, c.needs_switch ? "; needs a switch" : "");
}

// NAME=value with a secret-looking NAME, and recognisable keys anywhere, never printed.
std::string redact(const std::string& text) {
  auto eq = text.find('=');
  if (eq != std::string::npos && eq > 0 && secrets::is_secret_name(text.substr(0, eq)) &&
      eq + 1 < text.size()) {
    return text.substr(0, eq + 1) + std::string(secrets::kRedacted);
  }
  return secrets::redact_key_formats(text);
}

std::string shown(const Word& w) {
  std::string t = redact(w.text);
  if (!w.symbolic) return t;
  return fmt::format("{} <{}{}>", t.empty() ? "\"\"" : t, w.origin, w.tainted ? ", tainted" : "");
}

}  // namespace

void dump_script(const Model& model, const ScriptFacts& s, std::ostream& out) {
  out << "script " << model.files.path(s.file) << "\n";
  for (const Invocation& inv : s.invocations) {
    std::string flags;
    if (inv.via_exec) flags += " exec";
    if (inv.via_sudo) flags += " sudo";
    if (inv.shell.errexit)
      flags += inv.shell.errexit_suppressed ? " errexit(suppressed)" : " errexit";
    if (inv.shell.nounset) flags += " nounset";
    if (inv.shell.pipefail) flags += " pipefail";
    if (!inv.shell.exit_traps.empty())
      flags += fmt::format(" traps={}", inv.shell.exit_traps.size());
    out << fmt::format("  invocation {} at {}{}{}\n", inv.sequence,
                       report::dump_location(model, inv.from.at), flags,
                       cond(inv.from.condition()));
    for (const Word& w : inv.env_prefix) {
      out << fmt::format("    env {}  {}{}\n", shown(w), report::dump_location(model, w.from.at),
                         cond(w.from.condition()));
    }
    for (size_t i = 0; i < inv.argv.size(); ++i) {
      const Word& w = inv.argv[i];
      out << fmt::format("    argv[{}] {}  {}{}\n", i, shown(w),
                         report::dump_location(model, w.from.at), cond(w.from.condition()));
    }
    if (!inv.stdin_text.empty()) {
      size_t lines = 0;
      for (char c : inv.stdin_text) lines += c == '\n';
      out << fmt::format("    stdin {} lines from {}\n", lines,
                         report::dump_location(model, inv.stdin_from.at));
    }
  }
  dump_observations(model, s.observed, out);
}

}  // namespace sbr::report
