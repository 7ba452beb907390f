// Test helpers for the gates frontend: in-memory files, and a tiny stand-in for the bash
// renderer that turns a plain script (no expansions except bare `$NAME`, which becomes a
// symbolic, tainted word) into Invocations with positions, heredoc bodies included.
#pragma once

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "analyzer/frontends/gates/gates.h"
#include "analyzer/frontends/gates/iptables.h"
#include "tests/fixture_harness.h"

namespace sbr::test {

inline std::string read_gate_fixture(const std::string& name) {
  std::ifstream in(source_dir() + "/fixtures/gates/" + name, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline SourceFile gate_file(FileId id, const std::string& path, const std::string& text,
                            FileType type) {
  SourceFile f;
  f.id = id;
  f.path = path;
  f.type = type;
  f.bytes = text;
  f.readable = true;
  return f;
}

inline std::vector<Invocation> fake_render(const std::string& text, FileId file) {
  std::vector<Invocation> out;
  std::vector<std::string> lines;
  std::stringstream ss(text);
  for (std::string l; std::getline(ss, l);) lines.push_back(l);
  for (size_t n = 0; n < lines.size(); ++n) {
    std::string line = lines[n];
    size_t b = line.find_first_not_of(" \t");
    if (b == std::string::npos || line[b] == '#') continue;
    if (auto p = line.find(" || true"); p != std::string::npos) line = line.substr(0, p);
    Provenance at{Location{file, static_cast<std::uint32_t>(n + 1), 1}, Frontend::Bash, {}};
    auto args = gates::split_line(line, at);
    Invocation inv;
    inv.from = at;
    inv.sequence = static_cast<std::uint32_t>(out.size());
    for (size_t i = 0; i < args.size(); ++i) {
      const std::string& a = args[i].text;
      if (i == 0 && a == "sudo") {
        inv.via_sudo = true;
        continue;
      }
      if (a.rfind("<<", 0) == 0) {
        std::string term = a.substr(2);
        if (!term.empty() && term[0] == '-') term = term.substr(1);
        if (term.size() > 1 && (term[0] == '\'' || term[0] == '"'))
          term = term.substr(1, term.size() - 2);
        if (term.empty() && i + 1 < args.size()) term = args[++i].text;
        inv.stdin_from =
            Provenance{Location{file, static_cast<std::uint32_t>(n + 2), 1}, Frontend::Bash, {}};
        while (++n < lines.size()) {
          std::string body = lines[n];
          size_t x = body.find_first_not_of('\t');
          if ((x == std::string::npos ? "" : body.substr(x)) == term) break;
          inv.stdin_text += body + "\n";
        }
        continue;
      }
      Word w;
      w.from = args[i].from;
      if (a.size() > 1 && a[0] == '$') {
        w.symbolic = true;
        w.tainted = true;
        w.origin = "env " + a.substr(1);
      } else {
        w.text = a;
      }
      inv.argv.push_back(std::move(w));
    }
    if (!inv.argv.empty()) out.push_back(std::move(inv));
  }
  return out;
}

// Runs every command of `script` through a GateCollector, as the bash frontend does.
inline std::vector<EgressGate> collect_gates(const std::string& script, FileId file,
                                             std::vector<Problem>& problems,
                                             const SourceSet* sources = nullptr) {
  GateCollector c(sources);
  for (const auto& inv : fake_render(script, file)) c.add(inv);
  return c.finish(problems);
}

inline const EgressGate* gate_with_hook(const std::vector<EgressGate>& gs, GateHook h, GateKind k) {
  for (const auto& g : gs) {
    if (g.hook == h && g.kind == k) return &g;
  }
  return nullptr;
}

}  // namespace sbr::test
