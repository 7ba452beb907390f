// Which kustomize is installed (standalone or inside kubectl), its version, and what its
// errors say once the private directory's paths are taken out.
#include <unistd.h>

#include <cstdlib>
#include <mutex>
#include <regex>

#include "analyzer/render/kustomize/internal.h"
#include "analyzer/support/strings.h"

namespace sbr::render::kz {
namespace {

std::string on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::string dirs = path != nullptr ? path : "/usr/local/bin:/usr/bin:/bin";
  size_t start = 0;
  while (start <= dirs.size()) {
    size_t colon = dirs.find(':', start);
    if (colon == std::string::npos) colon = dirs.size();
    std::string dir = dirs.substr(start, colon - start);
    start = colon + 1;
    if (dir.empty() || dir.front() != '/') continue;  // a relative PATH entry is never trusted
    std::string candidate = dir + "/" + name;
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return "";
}

std::string read_version(const std::string& text, const std::string& after) {
  size_t at = after.empty() ? 0 : text.find(after);
  if (at == std::string::npos) return "";
  static const std::regex kVersion(R"(v(\d+)\.(\d+)\.(\d+))");
  std::smatch m;
  std::string rest = text.substr(at);
  return std::regex_search(rest, m, kVersion) ? m.str(0) : "";
}

Tool probe(const std::string& path, std::vector<std::string> verb,
           std::vector<std::string> version_args, const std::string& marker) {
  Tool t;
  t.path = path;
  t.verb = std::move(verb);
  RunLimits limits;
  limits.timeout_ms = 10'000;
  std::vector<std::string> argv{path};
  argv.insert(argv.end(), version_args.begin(), version_args.end());
  RunResult r = run_isolated(argv, "", limits);
  t.version = read_version(r.out, marker);
  t.recent_enough = version_at_least(t.version, kMinimumVersion);
  return t;
}

}  // namespace

bool version_at_least(const std::string& version, const std::string& minimum) {
  static const std::regex kParts(R"(^v?(\d+)\.(\d+)\.(\d+))");
  std::smatch a, b;
  if (!std::regex_search(version, a, kParts) || !std::regex_search(minimum, b, kParts)) {
    return false;
  }
  for (int i = 1; i <= 3; ++i) {
    long x = std::stol(a.str(i)), y = std::stol(b.str(i));
    if (x != y) return x > y;
  }
  return true;
}

Tool find_tool() {
  static std::once_flag once;
  static Tool found;
  std::call_once(once, [] {
    // A standalone kustomize is preferred when it is recent: it is what the overlay's authors
    // usually run; kubectl embeds an older one.
    if (std::string k = on_path("kustomize"); !k.empty()) {
      found = probe(k, {"build"}, {"version"}, "");
      if (found.recent_enough) return;
    }
    if (std::string k = on_path("kubectl"); !k.empty()) {
      Tool t = probe(k, {"kustomize"}, {"version", "--client"}, "Kustomize Version");
      if (t.recent_enough || found.path.empty()) found = t;
    }
  });
  return found;
}

std::string first_error_line(const std::string& err, const std::string& export_dir) {
  std::string line;
  size_t at = err.find("err=\"");  // kubectl logs through klog: err="..."
  if (at != std::string::npos) {
    for (size_t i = at + 5; i < err.size() && err[i] != '\n'; ++i) {
      if (err[i] == '\\' && i + 1 < err.size()) {
        line += err[++i];
      } else if (err[i] == '"') {
        break;
      } else {
        line += err[i];
      }
    }
  } else {
    at = err.find("Error: ");
    size_t start = at == std::string::npos ? 0 : at + 7;
    line = err.substr(start, err.find('\n', start) - start);
  }
  for (const std::string& prefix : {export_dir + "/", export_dir}) {
    for (size_t p = line.find(prefix); !prefix.empty() && p != std::string::npos;
         p = line.find(prefix, p)) {
      line.replace(p, prefix.size(), "");
    }
  }
  line = shorten(line, 403);
  return line.empty() ? "no error message" : line;
}

}  // namespace sbr::render::kz
