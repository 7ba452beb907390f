#include "prover/lib/containers_conf.h"

#include <fmt/format.h>

#include <sstream>

namespace sbr::prove {
namespace {

std::string trimmed(const std::string& s) {
  size_t a = s.find_first_not_of(" \t");
  size_t b = s.find_last_not_of(" \t\r");
  return a == std::string::npos ? std::string() : s.substr(a, b - a + 1);
}

// "[engine.runtimes]" -> "engine.runtimes"; "" when the line is not a table header.
std::string table_of(const std::string& line) {
  std::string t = trimmed(line);
  if (t.size() < 3 || t[0] != '[' || t[1] == '[') return {};
  size_t close = t.find(']');
  return close == std::string::npos ? std::string() : trimmed(t.substr(1, close - 1));
}

std::string key_of(const std::string& line) {
  std::string t = trimmed(line);
  if (t.empty() || t[0] == '#') return {};
  size_t eq = t.find('=');
  return eq == std::string::npos ? std::string() : trimmed(t.substr(0, eq));
}

}  // namespace

std::string conf_with_runsc(const std::string& base, const std::string& wrapper,
                            bool make_default) {
  const std::string entry = fmt::format("{} = [\"{}\"]", kRunscRuntime, wrapper);
  const std::string runtime = fmt::format("runtime = \"{}\"", kRunscRuntime);
  std::istringstream in(base);
  std::string out, table, line;
  bool saw_engine = false, saw_runtimes = false;
  while (std::getline(in, line)) {
    if (std::string t = table_of(line); !t.empty()) {
      table = t;
      out += line + "\n";
      if (t == "engine") {
        saw_engine = true;
        if (make_default) out += runtime + "\n";
      } else if (t == "engine.runtimes") {
        saw_runtimes = true;
        out += entry + "\n";
      }
      continue;
    }
    std::string key = key_of(line);
    if (table == "engine" && make_default && key == "runtime") continue;
    if (table == "engine.runtimes" && key == kRunscRuntime) continue;
    out += line + "\n";
  }
  if (make_default && !saw_engine) out += "[engine]\n" + runtime + "\n";
  if (!saw_runtimes) out += "[engine.runtimes]\n" + entry + "\n";
  return out;
}

}  // namespace sbr::prove
