// The parser must not call valid bash a syntax error: every shell script among the fixtures and
// examples that `bash -n` accepts renders with no parse problem. (Scripts bash rejects are
// deliberate syntax-error fixtures and are only counted.)
#include <sys/wait.h>
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "analyzer/frontends/launch/launch_util.h"
#include "tests/bash_helpers.h"
#include "tests/fixture_harness.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace bash_syntax_agreement_test {

namespace fs = std::filesystem;

namespace {

bool is_shell(const fs::path& p, const std::string& text) {
  std::string ext = p.extension().string();
  if (ext == ".sh" || ext == ".bash") return true;
  std::string first = text.substr(0, text.find('\n'));
  return first.rfind("#!", 0) == 0 &&
         (first.find("bash") != std::string::npos || first.find("/sh") != std::string::npos);
}

// `bash -n FILE`: 0 when bash parses it. The path is quoted for the shell; fixture names are
// ours, and none holds a single quote.
bool bash_accepts(const fs::path& p) {
  std::string cmd = "bash -n '" + p.string() + "' >/dev/null 2>&1";
  int rc = std::system(cmd.c_str());
  return rc != -1 && WIFEXITED(rc) && WEXITSTATUS(rc) == 0;
}

std::vector<fs::path> shell_files() {
  std::vector<fs::path> out;
  for (const char* top : {"fixtures", "examples"}) {
    fs::path root = fs::path(sbr::test::source_dir()) / top;
    for (auto it = fs::recursive_directory_iterator(root); it != fs::end(it); ++it) {
      if (!it->is_regular_file() || it->is_symlink()) continue;
      if (is_shell(it->path(), sbr::test::read_file(it->path().string()).substr(0, 200)))
        out.push_back(it->path());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("every shell fixture and example that bash -n accepts parses without a syntax error",
          "[bash-syntax]") {
  REQUIRE(std::system("bash -c true") == 0);
  std::vector<fs::path> files = shell_files();
  REQUIRE(files.size() > 50);  // the walk found the suite, not an empty folder
  int accepted = 0;
  // fixtures/causes/analyzer/ holds, on purpose, valid bash that tree-sitter-bash cannot parse:
  // it shows that such a gap is reported as sbreview's (tests/inv0_cause_test.cpp).
  const std::string known_gaps = "/fixtures/causes/analyzer/";
  for (const fs::path& p : files) {
    if (!bash_accepts(p) || p.string().find(known_gaps) != std::string::npos) continue;
    ++accepted;
    auto r = sbr::test::render_text(sbr::test::read_file(p.string()), p.filename().string());
    for (const auto& problem : r.problems) {
      INFO(p.string() << ":" << problem.at.line << ":" << problem.at.column << ": "
                      << problem.message);
      CHECK(problem.kind != sbr::ProblemKind::ParseError);
    }
  }
  CHECK(accepted > 50);
}

// Heredocs inside command substitutions, the forms launchers use to hold an nft ruleset or a
// config in a variable: bash accepts each, so the renderer must too.
TEST_CASE("heredocs inside $( ) parse as bash parses them", "[bash-syntax]") {
  const std::vector<std::string> snippets = {
      "rules=\"$(cat <<EOF\ntable inet f { chain o { policy drop; } }\nEOF\n)\"\necho \"$rules\"\n",
      "r=$(cat <<'EOF'\nit's ) here \"q\"\nEOF\n)\n",
      "y=\"$(cat <<-EOF\n\ta $HOME\n\tEOF\n)\"\n",
      "w=\"$(sed 's/a/b/' <<EOF | tr a b\nc\nEOF\n)\"\n",
      "nft -f /dev/stdin <<< \"$(cat <<EOF\ntable inet f { }\nEOF\n)\"\n",
      "printf '%s\\n' \"$(cat <<EOF\na\nEOF\n)\" second\n",
      "f() {\n  local r\n  r=$(cat <<'EOF'\nx\nEOF\n)\n  echo \"$r\"\n}\n",
  };
  fs::path dir = fs::temp_directory_path() / "sbr-heredoc-syntax";
  fs::create_directories(dir);
  int n = 0;
  for (const std::string& s : snippets) {
    fs::path p = dir / ("snippet" + std::to_string(n++) + ".sh");
    std::ofstream(p) << "#!/bin/bash\n" << s;
    INFO(s);
    REQUIRE(bash_accepts(p));
    auto r = sbr::test::render_text("#!/bin/bash\n" + s, p.filename().string());
    for (const auto& problem : r.problems) CHECK(problem.kind != sbr::ProblemKind::ParseError);
  }
  fs::remove_all(dir);
}

// The same for Dockerfiles: a shell-form RUN line that `bash -n` accepts (ARG and ENV already
// substituted, as the frontend renders it) renders without a syntax error.
TEST_CASE("every RUN line that bash -n accepts parses without a syntax error", "[bash-syntax]") {
  std::vector<fs::path> dockerfiles;
  for (const char* top : {"fixtures", "examples"}) {
    fs::path root = fs::path(sbr::test::source_dir()) / top;
    for (auto it = fs::recursive_directory_iterator(root); it != fs::end(it); ++it) {
      if (!it->is_regular_file() || it->is_symlink()) continue;
      const std::string name = it->path().filename().string();
      if (name.find("Dockerfile") != std::string::npos ||
          name.find("Containerfile") != std::string::npos)
        dockerfiles.push_back(it->path());
    }
  }
  std::sort(dockerfiles.begin(), dockerfiles.end());
  REQUIRE(dockerfiles.size() > 10);
  fs::path dir = fs::temp_directory_path() / "sbr-run-syntax";
  fs::create_directories(dir);
  int accepted = 0;
  for (const fs::path& p : dockerfiles) {
    sbr::SourceFile f;
    f.path = p.string();
    f.bytes = sbr::test::read_file(p.string());
    f.readable = true;
    for (const auto& run : sbr::launch::parse_dockerfile(f).run_lines) {
      const std::string& body = run.value;
      if (body.empty() || body.front() == '[') continue;  // exec form: no shell
      fs::path tmp = dir / "run.sh";
      std::ofstream(tmp) << body << "\n";
      if (!bash_accepts(tmp)) continue;
      ++accepted;
      auto r = sbr::test::render_text(body, p.filename().string());
      for (const auto& problem : r.problems) {
        INFO(p.string() << ":" << run.from.at.line << ": " << body);
        CHECK(problem.kind != sbr::ProblemKind::ParseError);
      }
    }
  }
  fs::remove_all(dir);
  CHECK(accepted > 20);
}

}  // namespace bash_syntax_agreement_test
