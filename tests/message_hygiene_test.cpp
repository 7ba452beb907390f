// Every finding message and remediation over the fixture suite and the examples reads as
// written prose: no doubled punctuation, no double spaces, no unexpanded `${` (issue 8, §7).
// Text in backticks is quoted input (a publish spec `127.0.0.1::80`, a path `../x`, a line of
// a script such as `"${BASH_SOURCE[0]}"`) and is exempt; for compose and devcontainer findings
// even quoted `${` is a defect: their values are interpolated before any message is written.
#include <catch2/catch.hpp>

#include <map>
#include <regex>
#include <string>
#include <tuple>

#include "analyzer/check/catalog.h"
#include "tests/fixture_harness.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace message_hygiene_test {

namespace {

// Each backtick span becomes one `Q`, so what surrounds it keeps its own spacing.
std::string outside_backticks(const std::string& s) {
  std::string out;
  bool in = false;
  for (char c : s) {
    if (c == '`') {
      if (!in) out += 'Q';
      in = !in;
    } else if (!in) {
      out += c;
    }
  }
  return out;
}

// What an unknown value left behind in `text`, quoted or not (issue 34 §4): the identity of an
// unknown value (`$name@file:line`) shown to a reader, or an empty substitution (a word that
// ends in `-`, a flag before a lone comma, `//` inside a path, a path that starts `/.` as
// `$DIR/.token` does with DIR unknown). `127.0.0.1::80` is docker's own syntax, and `//` in a
// URL (`https://`, kustomize's `github.com/org/repo//dir`) is not a path's: neither is one.
std::string debris(const std::string& text) {
  static const std::regex kIdentity(R"(\$\{?[A-Za-z_][A-Za-z0-9_]*\}?@)");
  static const std::regex kEmptyTail(R"([A-Za-z0-9]-( |`|$))");
  // A path starts with `/`, `$`, `~` or `.` (after a backtick); its `//` follows a name.
  static const std::regex kEmptyInPath(R"((^|[ `(])[/$~.][^ `:]*[A-Za-z0-9_.-]//)");
  static const std::regex kEmptyDirectory(R"((^|[ `(])/\.[A-Za-z_])");
  if (std::regex_search(text, kIdentity)) return "an unknown value's identity";
  if (std::regex_search(text, kEmptyTail)) return "an empty substitution after -";
  if (text.find(" ,") != std::string::npos) return "an empty substitution before ,";
  if (std::regex_search(text, kEmptyInPath)) return "an empty substitution inside a path";
  if (std::regex_search(text, kEmptyDirectory)) return "an empty substitution before /.";
  return "";
}

// Whether `s` is well-formed UTF-8: a text cut inside a character is a replacement character in
// every report.
bool valid_utf8(const std::string& s) {
  std::size_t need = 0;
  for (char ch : s) {
    auto c = static_cast<unsigned char>(ch);
    if (need > 0) {
      if ((c & 0xC0) != 0x80) return false;
      --need;
    } else if (c >= 0x80) {
      if ((c & 0xE0) == 0xC0)
        need = 1;
      else if ((c & 0xF0) == 0xE0)
        need = 2;
      else if ((c & 0xF8) == 0xF0)
        need = 3;
      else
        return false;
    }
  }
  return need == 0;
}

// What is wrong with `text`, or "" when nothing is.
std::string defect(const std::string& text, bool interpolated_input = true) {
  if (!valid_utf8(text)) return "a character cut in half";
  static const std::regex kDots(R"((^|[^./])\.\.($|[^./]))");
  // `::` inside an IPv6 address (fe80::/10, ::1) is not punctuation; before a space it is.
  static const std::regex kColons(R"(::(\s|$))");
  const std::string prose = outside_backticks(text);
  if (std::regex_search(prose, kColons)) return "doubled colon";
  if (prose.find(", ,") != std::string::npos || prose.find(",,") != std::string::npos) {
    return "doubled comma";
  }
  if (prose.find("  ") != std::string::npos) return "double space";
  if (std::regex_search(prose, kDots)) return "doubled full stop";
  // A launch is named by its file, function and line, each place once (issue 7 §3).
  static const std::regex kLaunchNumber(R"(\blaunch #?[0-9]+\b)");
  static const std::regex kRepeatedPlace(R"(([^(),]+, line [0-9]+), \1\b)");
  if (std::regex_search(prose, kLaunchNumber)) return "launch named by a number";
  if (std::regex_search(prose, kRepeatedPlace)) return "place named twice";
  const std::string& scanned = interpolated_input ? text : prose;
  if (scanned.find("${") != std::string::npos) return "unexpanded ${";
  return debris(text);
}

// What is wrong with the path condition of a finding: it names the path in words a reader
// knows, never the shell's own test syntax (issue 7 §3).
std::string condition_defect(const std::string& text) {
  static const std::regex kShellTest(R"((^|when |and )(not )?(-[a-zA-Z]{1,2} |! |\[))");
  const std::string prose = outside_backticks(text);
  if (std::regex_search(prose, kShellTest)) return "shell test syntax";
  if (prose.find("not Q") != std::string::npos) return "negated quoted code";
  return defect(text, false);
}

// No two findings of one rule at one file, line and column (issue 34 §3).
void check_one_per_place(const std::vector<sbr::Finding>& findings) {
  std::map<std::tuple<std::string, sbr::FileId, std::uint32_t, std::uint32_t>, std::string> seen;
  for (const auto& f : findings) {
    auto [it, fresh] = seen.emplace(
        std::make_tuple(std::string(f.rule_id.str()), f.at.file, f.at.line, f.at.column),
        f.message.str());
    INFO(f.rule_id.str() << " at line " << f.at.line << ": " << f.message
                         << "\nand: " << it->second);
    CHECK((fresh || !f.at.valid()));
    // A related location never repeats the finding's own place (issue 34 §4).
    for (const auto& r : f.related) CHECK_FALSE(r.at == f.at);
  }
}

void scan(const std::string& rel) {
  auto r = sbr::test::run_fixture_dir(sbr::test::source_dir() + "/" + rel, {}, true);
  REQUIRE_FALSE(r.findings.empty());
  check_one_per_place(r.findings);
  const auto& catalog = sbr::Catalog::embedded();
  for (const auto& f : r.findings) {
    const sbr::Rule* rule = catalog.find(f.rule_id.str());
    const bool interpolated = f.engine == "compose" || f.engine == "devcontainer";
    std::string what = defect(f.message, interpolated);
    INFO(f.rule_id.str() << " " << f.subject << ": " << f.message);
    CHECK(what.empty());
    if (!f.condition().always()) {
      INFO("condition: " << f.condition().text);
      CHECK(condition_defect(f.condition().text).empty());
    }
    if (rule != nullptr) {
      const std::string& shown = rule->remediation_for(f.engine);
      std::string remedy = defect(shown, interpolated);
      INFO("remediation: " << shown);
      CHECK(remedy.empty());
    }
  }
}

}  // namespace

TEST_CASE("finding messages and remediations read cleanly over every fixture", "[hygiene]") {
  CHECK(defect("sets no user:: the image").size() > 0);  // the test can fail
  CHECK(defect("when `confirm \"Docker\xE3\x83...` succeeds").size() > 0);
  CHECK(defect("when `confirm \"Dockerボリュ...` succeeds").empty());
  CHECK(defect("mounts host path ${CAGE_WORKSPACE writable").size() > 0);
  CHECK(defect("publish `127.0.0.1::80` from `../data`").empty());
  CHECK(defect("reaches fe80::/10 and ::1").empty());
  CHECK(defect("env X, default  reaches").size() > 0);
  CHECK(defect("a script's `${X:-y}` reaches", false).empty());
  CHECK(defect("a script's `${X:-y}` reaches", true).size() > 0);
  CHECK(defect("launcher run.sh (launch 19) sets").size() > 0);
  CHECK(defect("launcher run.sh (f, line 3, f, line 3) sets").size() > 0);
  CHECK(defect("launcher run.sh (f, line 3, g, line 3) sets").empty());
  CHECK(defect("container gem-$project_name@bin/run:390 mounts").size() > 0);
  CHECK(defect("names the container `cage-` and").size() > 0);
  CHECK(defect("runs with `--runtime ,` and").size() > 0);
  CHECK(defect("publishes `127.0.0.1:<unknown: $PORT>:2000` from `cage-<unknown: $id>`").empty());
  CHECK(defect("mounts host path $HOME/.sb/tools//home writable").size() > 0);
  CHECK(defect("mounts host path /x//y writable").size() > 0);
  CHECK(defect("token is written to /.resume-token without").size() > 0);
  CHECK(defect("mounts host path $HOME/.sb/tools/<unknown: $1>/home writable").empty());
  CHECK(defect("token is written to <unknown: $DIR>/.resume-token without").empty());
  CHECK(defect("fetches https://example.com/x and file:///etc/hosts").empty());
  CHECK(defect("`github.com/example-org/agent-platform//deploy/base?ref=v1` is remote").empty());
  CHECK(condition_defect("when -S /var/run/docker.sock").size() > 0);
  CHECK(condition_defect("when not `! command -v iptables`").size() > 0);
  CHECK(condition_defect("when AGENT_NET=host and not -e /etc/x").size() > 0);
  CHECK(condition_defect("when `iptables` is not installed").empty());
  CHECK(condition_defect("when `/var/run/docker.sock` is a socket").empty());
  scan("fixtures");
}

TEST_CASE("finding messages and remediations read cleanly over the examples", "[hygiene]") {
  scan("examples");
}

}  // namespace message_hygiene_test
