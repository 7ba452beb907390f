#include "analyzer/frontends/launch/launch_util.h"

#include <vector>

namespace sbr::launch {

std::string dir_of(const std::string& p) {
  std::size_t slash = p.rfind('/');
  return slash == std::string::npos ? "" : p.substr(0, slash + 1);
}

std::string normalize_path(const std::string& p) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= p.size(); ++i) {
    if (i == p.size() || p[i] == '/') {
      std::string part = p.substr(start, i - start);
      start = i + 1;
      if (part.empty() || part == ".") continue;
      if (part == ".." && !out.empty() && out.back() != "..") {
        out.pop_back();
      } else {
        out.push_back(part);
      }
    }
  }
  std::string s;
  for (const auto& x : out) s += (s.empty() ? "" : "/") + x;
  return s;
}

const SourceFile* find_source(const SourceSet* sources, const std::string& path) {
  if (sources == nullptr) return nullptr;
  std::string want = normalize_path(path);
  for (const auto& f : sources->files) {
    if (f.path == want) return &f;
  }
  return nullptr;
}

void apply_timeout_wrapper(const Invocation& inv, Workload& w) {
  for (const WrapperUse& wrapper : inv.wrappers) {
    if (wrapper.name != "timeout" || w.lifecycle.timeout) continue;
    auto seconds = duration_seconds(wrapper.operand);
    if (seconds && *seconds > 0) w.lifecycle.timeout = fact(*seconds, wrapper.from);
  }
}

std::optional<std::int64_t> duration_seconds(const std::string& text) {
  if (text.empty()) return std::nullopt;
  std::size_t used = 0;
  double n = 0;
  try {
    n = std::stod(text, &used);
  } catch (...) {
    return std::nullopt;
  }
  std::string unit = text.substr(used);
  double scale = unit.empty() || unit == "s" ? 1
                 : unit == "m"               ? 60
                 : unit == "h"               ? 3600
                 : unit == "d"               ? 86400
                                             : -1;
  if (scale < 0 || n < 0 || n > 1e12 || text[0] == ' ' || text[0] == '+') return std::nullopt;
  return static_cast<std::int64_t>(n * scale);
}

}  // namespace sbr::launch
