// Helpers for the bash renderer tests: render a script held in memory, show invocations.
#pragma once

#include <fmt/format.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "analyzer/render/bash/render.h"

namespace sbr::test {

// A readable shell file of the analysed tree.
inline SourceFile shell_file(FileId id, std::string path, std::string text) {
  SourceFile f;
  f.id = id;
  f.path = std::move(path);
  f.type = FileType::Shell;
  f.bytes = std::move(text);
  f.readable = true;
  return f;
}

inline bash::ScriptRender render_text(const std::string& text,
                                      const std::string& path = "launch.sh",
                                      const SourceSet* sources = nullptr,
                                      const bash::RenderLimits& limits = {}) {
  return bash::render_script(shell_file(0, path, text), sources, limits);
}

// The invocations whose first word is `argv0`, in script order.
inline std::vector<const Invocation*> launches(const bash::ScriptRender& r,
                                               const std::string& argv0) {
  std::vector<const Invocation*> out;
  for (const auto& inv : r.invocations)
    if (!inv.argv.empty() && inv.argv[0].text == argv0) out.push_back(&inv);
  return out;
}

// "podman run --rm" (words joined by spaces; symbolic words as <origin>).
inline std::string argv_text(const Invocation& inv) {
  std::string s;
  for (const Word& w : inv.argv) {
    if (!s.empty()) s += ' ';
    s += w.symbolic && w.text.empty() ? "<" + w.origin + ">" : w.text;
  }
  return s;
}

inline const Invocation* find_invocation(const bash::ScriptRender& r, const std::string& argv0) {
  for (const auto& inv : r.invocations) {
    if (!inv.argv.empty() && inv.argv[0].text == argv0) return &inv;
  }
  return nullptr;
}

inline const Word* find_word(const Invocation& inv, const std::string& text) {
  for (const Word& w : inv.argv) {
    if (w.text == text) return &w;
  }
  return nullptr;
}

inline std::string dump(const bash::ScriptRender& r) {
  std::string s;
  for (const auto& inv : r.invocations) {
    s += fmt::format("{}:{} {}{}\n", inv.from.at.line, inv.from.at.column, argv_text(inv),
                     inv.from.condition().always() ? "" : "  [" + inv.from.condition().text + "]");
    for (const Word& w : inv.argv) {
      s += fmt::format("    {} @{}:{}{}{}{}\n", w.text, w.from.at.line, w.from.at.column,
                       w.symbolic ? " sym(" + w.origin + ")" : "", w.tainted ? " tainted" : "",
                       w.from.condition().always()
                           ? ""
                           : fmt::format(" [{}{}]", w.from.condition().text,
                                         w.from.condition().needs_switch ? " switch" : ""));
    }
  }
  for (const auto& st : r.observed.steps) {
    s += fmt::format("STEP {} {}:{} {}\n", status_use_name(st.status), st.from.at.line,
                     st.from.at.column, st.command);
  }
  for (const auto& p : r.problems)
    s += fmt::format("PROBLEM {} {}:{} {}\n", static_cast<int>(p.kind), p.at.line, p.at.column,
                     p.message);
  return s;
}

// Each argument list of `argv0` with the condition of its path.
inline std::map<std::string, std::string> lists(const bash::ScriptRender& r,
                                                const std::string& argv0) {
  std::map<std::string, std::string> out;
  for (const Invocation* inv : launches(r, argv0))
    out.emplace(argv_text(*inv), inv->from.condition().text);
  return out;
}

}  // namespace sbr::test
