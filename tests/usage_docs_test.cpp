// The man page and the bash completion are generated from the usage text (docs/install.md):
// the usage text must parse into what the option parser accepts, and what is generated from it
// must say it.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "analyzer/cli/completion.h"
#include "analyzer/cli/man_page.h"
#include "analyzer/cli/options.h"
#include "analyzer/cli/usage_spec.h"
#include "tests/temp_dir.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace usage_docs_test {

using namespace sbr;

namespace {

const UsageOption* find_option(const UsageSpec& u, const std::string& name) {
  for (const UsageOption& o : u.options) {
    for (const std::string& n : o.names) {
      if (n == name) return &o;
    }
  }
  return nullptr;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Runs the completion function on `words` (the last one is completed; no single quotes)
// and returns COMPREPLY.
std::string complete(const std::string& script, const std::string& words) {
  std::string cmd = "bash -c 'source \"$0\"; COMP_WORDS=(" + words +
                    "); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _sbreview; " +
                    "echo \"${COMPREPLY[*]}\"' '" + script + "' 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  REQUIRE(p != nullptr);
  std::string out;
  char buf[4096];
  while (size_t n = fread(buf, 1, sizeof buf, p)) out.append(buf, n);
  pclose(p);
  if (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

}  // namespace

TEST_CASE("usage: the help text reads back as commands and options", "[usage]") {
  UsageSpec u = parse_usage(kUsage);
  CHECK(u.commands == std::vector<std::string>{"check", "diff", "baseline", "render", "prove",
                                               "rules", "explain", "test-rules", "completion"});
  const UsageOption* format = find_option(u, "--format");
  REQUIRE(format);
  CHECK(format->metavar == "FORMAT");
  CHECK(format->choices == std::vector<std::string>{"text", "json", "sarif", "github", "markdown"});
  const UsageOption* output = find_option(u, "-o");
  REQUIRE(output);
  CHECK(output->names == std::vector<std::string>{"-o", "--output"});
  const UsageOption* render = find_option(u, "--render");
  REQUIRE(render);
  CHECK(render->written_inline);
  CHECK(render->choices == std::vector<std::string>{"on", "off"});
  const UsageOption* dump = find_option(u, "--dump-model");
  REQUIRE(dump);
  CHECK(dump->metavar.empty());
  CHECK(find_option(u, "--config")->help.find("with --revision") != std::string::npos);
  CHECK_FALSE(u.description.empty());
  CHECK_FALSE(u.epilogue.empty());
}

TEST_CASE("usage: every option the help lists is one the parser accepts", "[usage]") {
  for (const UsageOption& o : parse_usage(kUsage).options) {
    for (const std::string& name : o.names) {
      std::vector<std::string> args{"check", name};
      if (!o.metavar.empty()) args.push_back(o.choices.empty() ? "x" : o.choices.front());
      if (name == "--revision" || name == "-C") args = {"check", "--revision", "x", "-C", "x"};
      if (name == "--jobs" || name == "-j") args.back() = "2";
      if (name == "--fail-on") args.back() = "high";
      Options opts;
      bool help = false, version = false;
      auto error = parse_args(args, opts, help, version);
      INFO(name);
      CHECK((!error || error->find("unknown option") == std::string::npos));
    }
  }
}

TEST_CASE("man page: sections from the help and from docs/usage.md", "[usage]") {
  std::string md = read_file(std::string(SBR_SOURCE_DIR) + "/docs/usage.md");
  std::ostringstream out;
  write_man_page(parse_usage(kUsage), md, "/usr/share/doc/sbreview", out);
  std::string page = out.str();
  CHECK(page.find(".TH SBREVIEW 1") != std::string::npos);
  CHECK(page.find(".SH NAME\nsbreview \\- reviews the configuration") != std::string::npos);
  CHECK(page.find("sbreview diff BASE[..HEAD]") != std::string::npos);
  // Every option of the help, as a tag of OPTIONS.
  for (const UsageOption& o : parse_usage(kUsage).options) {
    std::string roff_name;
    for (char c : o.names.back()) roff_name += c == '-' ? std::string("\\-") : std::string(1, c);
    INFO(o.names.back());
    CHECK(page.find("\\fB" + roff_name + "\\fR") != std::string::npos);
  }
  // The docs' sections, one level up; their options table is not repeated.
  CHECK(page.find(".SH\nEXIT STATUS") != std::string::npos);
  CHECK(page.find(".SH\nA GIT REVISION") != std::string::npos);
  CHECK(page.find(".SS\nThreat classes and annotations") != std::string::npos);
  CHECK(page.find("Using sbreview") == std::string::npos);
  CHECK(page.find("output format. Repeatable") == std::string::npos);
  // Tables are tagged paragraphs, not tbl input.
  CHECK(page.find(".TS") == std::string::npos);
  CHECK(page.find("meaning: the format version") != std::string::npos);
  CHECK(page.find(".SH SEE ALSO\nThe documentation in \\fI/usr/share/doc/sbreview") !=
        std::string::npos);
}

TEST_CASE("completion: commands, option values, operands and rule ids", "[usage]") {
  test::TempDir dir("sbr-completion");
  UsageSpec u = parse_usage(kUsage);
  std::ostringstream script;
  write_bash_completion(u, {"SB1001", "SB1002", "SB5001"}, script);
  std::string path = (dir.path / "sbreview").string();
  std::ofstream(path) << script.str();
  REQUIRE(std::system(("bash -n '" + path + "'").c_str()) == 0);

  CHECK(complete(path, R"(sbreview "")") ==
        "check diff baseline render prove rules explain test-rules completion");
  CHECK(complete(path, "sbreview prove --self") == "--self-test");
  CHECK(complete(path, "sbreview ch") == "check");
  CHECK(complete(path, "sbreview check --fo") == "--format");
  CHECK(complete(path, "sbreview check --format s") == "sarif");
  CHECK(complete(path, "sbreview check --fail-on h") == "high");
  CHECK(complete(path, "sbreview check --render = o") == "on off");
  CHECK(complete(path, R"(sbreview completion "")") == "bash");
  CHECK(complete(path, "sbreview explain SB1") == "SB1001 SB1002");
  // An option's value is not the command: `--jobs 2 check` still completes check's options.
  CHECK(complete(path, "sbreview --jobs 2 check --dump") == "--dump-model");
  CHECK(complete(path, "sbreview -j 2 explain SB5") == "SB5001");
}

}  // namespace usage_docs_test
