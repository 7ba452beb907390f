#include "analyzer/frontends/gates/host_network.h"

#include <regex>
#include <set>
#include <string_view>

namespace sbr::gates {
namespace {

constexpr int kMaxSteps = 4;  // GW=$(ip route ...); NET=${GW%.*}.0/24; CIDR="$NET"; ...

// The command text inside "command substitution `...`", or "" for other origins.
std::string substitution_text(const std::string& origin) {
  static constexpr std::string_view kLead = "command substitution `";
  if (origin.rfind(kLead, 0) != 0 || origin.size() <= kLead.size() || origin.back() != '`')
    return "";
  return origin.substr(kLead.size(), origin.size() - kLead.size() - 1);
}

// What `text` reads from the host's network configuration itself, without following variables.
std::string direct_origin(const std::string& text) {
  // `ip route`, `ip -4 route show default`, `ip r`, `ip -o -4 ro get 1.1.1.1`.
  static const std::regex route(
      R"((^|[^\w-])ip(\s+-[-\w]+)*\s+(r|ro|rou|rout|route)(\s|$|\)|;|\|))");
  static const std::regex inspect(
      R"((^|[^\w-])(docker|podman|nerdctl)\s+(network|net)\s+inspect\b)");
  std::smatch m;
  if (std::regex_search(text, route) || text.find("/proc/net/route") != std::string::npos)
    return "the default gateway (`ip route`)";
  if (std::regex_search(text, m, inspect))
    return "the container network's subnet (`" + m[2].str() + " network inspect`)";
  return "";
}

// The right-hand sides of `NAME=...` in `file` (also after local/export/readonly/declare).
std::vector<std::string> assignments(const std::string& file, const std::string& name) {
  std::vector<std::string> out;
  const std::regex assign(R"((^|[\s;&|(])(local|export|readonly|declare|typeset)?(\s+-\w+)*\s*)" +
                          name + R"(=([^\n]*))");
  for (auto it = std::sregex_iterator(file.begin(), file.end(), assign);
       it != std::sregex_iterator(); ++it) {
    out.push_back((*it)[4].str());
  }
  return out;
}

// Variables `text` expands: $NAME and ${NAME...}.
std::set<std::string> referenced(const std::string& text) {
  static const std::regex ref(R"(\$\{?([A-Za-z_]\w*))");
  std::set<std::string> out;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), ref); it != std::sregex_iterator();
       ++it) {
    out.insert((*it)[1].str());
  }
  return out;
}

// The body of `name() {` / `function name {` in `file`, up to the first line that starts
// with `}`; "" when `name` is not a function defined there.
std::string function_body(const std::string& file, const std::string& name) {
  const std::regex head(R"((^|\n)\s*(function\s+)?)" + name + R"(\s*(\(\s*\))?\s*\{)");
  std::smatch m;
  if (!std::regex_search(file, m, head)) return "";
  size_t from = static_cast<size_t>(m.position(0) + m.length(0));
  size_t end = file.find("\n}", from);
  return file.substr(from, end == std::string::npos ? std::string::npos : end - from);
}

std::string origin_of(const std::string& text, const std::string& file, int steps,
                      std::set<std::string>& visited) {
  if (std::string d = direct_origin(text); !d.empty()) return d;
  if (steps >= kMaxSteps || file.empty()) return "";
  // `$(net_cidr agent)`: what the function prints comes from the commands in its body.
  static const std::regex first_word(R"(^\s*([A-Za-z_][\w-]*))");
  std::smatch fw;
  if (std::regex_search(text, fw, first_word) && visited.insert(fw[1].str() + "()").second) {
    std::string body = function_body(file, fw[1].str());
    if (!body.empty()) {
      if (std::string d = origin_of(body, file, steps + 1, visited); !d.empty()) return d;
    }
  }
  for (const std::string& name : referenced(text)) {
    if (!visited.insert(name).second) continue;
    for (const std::string& rhs : assignments(file, name)) {
      if (std::string d = origin_of(rhs, file, steps + 1, visited); !d.empty()) return d;
    }
  }
  return "";
}

}  // namespace

std::string host_network_origin(const Word& w, const SourceSet* sources) {
  if (!w.symbolic) return "";
  std::string text = substitution_text(w.origin);
  if (text.empty()) return "";
  std::string file;
  if (sources != nullptr && w.from.at.file < sources->files.size() &&
      sources->files[w.from.at.file].readable) {
    file = sources->files[w.from.at.file].bytes;
  }
  std::set<std::string> visited;
  return origin_of(text, file, 0, visited);
}

}  // namespace sbr::gates
