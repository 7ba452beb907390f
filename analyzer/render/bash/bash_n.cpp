#include "analyzer/render/bash/bash_n.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "analyzer/render/sealed_run.h"

namespace sbr::bash {
namespace {

const char* find_bash() {
  for (const char* p : {"/bin/bash", "/usr/bin/bash"}) {
    if (access(p, X_OK) == 0) return p;
  }
  return nullptr;
}

// The script in a private temporary file, removed when this goes: bash reads it as its
// standard input (an argument is limited to 128 KiB, a script is not).
struct ScriptFile {
  std::string path;
  explicit ScriptFile(std::string_view text) {
    const char* tmp = std::getenv("TMPDIR");
    std::string tmpl = std::string(tmp != nullptr && *tmp == '/' ? tmp : "/tmp") + "/sbr-sh-XXXXXX";
    int fd = mkstemp(tmpl.data());  // mode 0600
    if (fd < 0) return;
    bool ok = true;
    for (size_t done = 0; ok && done < text.size();) {
      ssize_t n = write(fd, text.data() + done, text.size() - done);
      ok = n > 0;
      if (ok) done += static_cast<size_t>(n);
    }
    close(fd);
    if (ok) {
      path = tmpl;
    } else {
      unlink(tmpl.c_str());
    }
  }
  ~ScriptFile() {
    if (!path.empty()) unlink(path.c_str());
  }
  ScriptFile(const ScriptFile&) = delete;
  ScriptFile& operator=(const ScriptFile&) = delete;
};

// bash -n reports "bash: line 12: syntax error near unexpected token `fi'" (the first error).
void read_error(const std::string& err, BashVerdict& v) {
  const std::string marker = "line ";
  size_t at = err.find(marker);
  if (at == std::string::npos) return;
  size_t i = at + marker.size();
  std::uint32_t line = 0;
  while (i < err.size() && err[i] >= '0' && err[i] <= '9' && line < 100'000'000) {
    line = line * 10 + static_cast<std::uint32_t>(err[i++] - '0');
  }
  if (i < err.size() && err[i] == ':') {
    v.line = line;
    size_t end = err.find('\n', i);
    v.message = err.substr(i + 1, end == std::string::npos ? std::string::npos : end - i - 1);
    while (!v.message.empty() && v.message.front() == ' ') v.message.erase(0, 1);
    if (v.message.size() > 200) v.message.resize(200);
  }
}

}  // namespace

std::optional<BashVerdict> bash_verdict(std::string_view script) {
  const char* bash = find_bash();
  if (bash == nullptr) return std::nullopt;
  ScriptFile file(script);
  if (file.path.empty()) return std::nullopt;
  render::RunLimits limits;
  limits.timeout_ms = 10'000;
  limits.max_output_bytes = 1 << 20;
  limits.stdin_path = file.path;
  // --norc --noprofile: nothing of the machine's bash configuration is read either.
  render::RunResult r = render::run_isolated({bash, "--norc", "--noprofile", "-n"}, "", limits);
  if (!r.started || r.timed_out || r.too_large || r.exit_code < 0) return std::nullopt;
  BashVerdict v;
  // bash 5.2 -n exits 0 on an error inside `[[ ]]` (`[[ $x =~ a b ]]`), and says so; run, the
  // script stops there. Its words count, not only its status.
  v.accepts = r.exit_code == 0 && r.err.find("syntax error") == std::string::npos;
  if (!v.accepts) read_error(r.err, v);
  return v;
}

}  // namespace sbr::bash
