// The Markdown summary: a count table by invariant and severity, one line per finding with a
// link to its rule's page, new-only for diff, bounded length. Rendered here with cmark-gfm (the
// GFM that GitHub renders step summaries and comments with) to prove that text from the
// reviewed repository stays text: no HTML, link, image, table break or mention.
#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm-extension_api.h>
#include <cmark-gfm.h>

#include <fmt/format.h>
#include <catch2/catch.hpp>

#include <regex>

#include "tests/report_fixture.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace report_markdown_test {

using namespace sbr;

namespace {

std::string markdown(const ReportContext& ctx, size_t max_bytes = kMarkdownMaxBytes) {
  std::ostringstream s;
  write_markdown(ctx, s, max_bytes);
  return s.str();
}

// GitHub's flavour: tables, autolinks, strikethrough and the tag filter. Raw HTML is let
// through (CMARK_OPT_UNSAFE) so that any HTML the summary leaked would show in the result.
std::string render(const std::string& md) {
  cmark_gfm_core_extensions_ensure_registered();
  cmark_parser* parser = cmark_parser_new(CMARK_OPT_UNSAFE);
  for (const char* name : {"table", "autolink", "strikethrough", "tagfilter"}) {
    cmark_parser_attach_syntax_extension(parser, cmark_find_syntax_extension(name));
  }
  cmark_parser_feed(parser, md.data(), md.size());
  cmark_node* doc = cmark_parser_finish(parser);
  char* html = cmark_render_html(doc, CMARK_OPT_UNSAFE, cmark_parser_get_syntax_extensions(parser));
  std::string out = html;
  free(html);  // NOLINT(cppcoreguidelines-no-malloc): cmark allocates with malloc
  cmark_node_free(doc);
  cmark_parser_free(parser);
  return out;
}

size_t count(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
  return n;
}

std::vector<std::string> hrefs(const std::string& html) {
  std::vector<std::string> out;
  std::regex href("href=\"([^\"]*)\"");
  for (auto it = std::sregex_iterator(html.begin(), html.end(), href); it != std::sregex_iterator();
       ++it) {
    out.push_back((*it)[1]);
  }
  return out;
}

}  // namespace

TEST_CASE("markdown: a count table, then each finding with its place and rule link", "[report]") {
  test::ReportFixture fx;
  std::string md = markdown(fx.ctx());
  CHECK(md.rfind("## sbreview: 6 findings\n\n", 0) == 0);
  CHECK(md.find("| invariant | critical | high | medium | low | note |\n"
                "|---|---:|---:|---:|---:|---:|\n"
                "| 0 integrity | 0 | 1 | 0 | 0 | 0 |\n"
                "| 1 isolation | 2 | 0 | 0 | 0 | 0 |\n"
                "| 4 secrets | 0 | 1 | 0 | 0 | 0 |\n"
                "| 6 resources | 0 | 0 | 0 | 0 | 1 |\n"
                "| 7 lifecycle | 0 | 0 | 0 | 1 | 0 |\n"
                "| **total** | 2 | 2 | 0 | 1 | 1 |\n") != std::string::npos);
  CHECK(md.find("- **critical** [SB1001](https://github.com/sbreview/sbreview/blob/main/docs/"
                "rules/SB1001-privileged-container.md) k8s/agent&#46;yaml\\:10\\:7: container "
                "main of Pod/default/agent is privileged (invariant 1)\n") != std::string::npos);
  // Most severe first, file order within a severity.
  size_t critical = md.find(
      "\n- **critical** [SB1001](https://github.com/sbreview/sbreview/blob/"
      "main/docs/rules/SB1001-privileged-container.md) k8s/");
  size_t second = md.find("\n- **critical** [SB1001](", critical + 1);
  size_t high = md.find("\n- **high** ");
  size_t low = md.find("\n- **low** ");
  size_t note = md.find("\n- **note** ");
  CHECK(critical < second);
  CHECK(md.find("unicode&#46;yaml", critical) > second);
  CHECK(second < high);
  CHECK(high < low);
  CHECK(low < note);
  CHECK(note != std::string::npos);
  std::string html = render(md);
  CHECK(count(html, "<tr>") == 7);  // the header, five invariants and the total
  CHECK(html.find("k8s/agent.yaml:10:7: container main of Pod/default/agent is privileged") !=
        std::string::npos);
  CHECK(html.find(test::kDbPassword) == std::string::npos);
  CHECK(html.find(test::kAnthropicKey) == std::string::npos);
  CHECK(markdown(fx.ctx()) == md);
}

TEST_CASE("markdown: hostile messages and file names render as plain text", "[report]") {
  test::ReportFixture fx;
  FileId evil = fx.model.files.add("x](https://evil.example/a) <img src=x>.yaml");
  for (Finding& f : fx.findings) {
    f.message =
        "<script>alert(1)</script> ![t](https://evil.example/p.png) [click](javascript:x) "
        "www.evil.example https://evil.example/x | cell | ~~gone~~ @octocat &lt; `code` "
        "*bold* <!-- hide --> $x^2$\n\n# heading\n- item";
  }
  fx.findings[2].at = {evil, 1, 1};
  std::string html = render(markdown(fx.ctx()));
  // The only links are the rule pages, one per finding.
  auto links = hrefs(html);
  CHECK(links.size() == fx.findings.size());
  for (const auto& l : links) {
    CHECK(l.rfind("https://github.com/sbreview/sbreview/blob/main/docs/rules/", 0) == 0);
  }
  for (const char* tag : {"<script", "<img", "<del>", "<h1>", "<code>", "<em>", "<!--"}) {
    CAPTURE(tag);
    CHECK(html.find(tag) == std::string::npos);
  }
  CHECK(count(html, "<tr>") == 7);  // no message broke or added a table row
  CHECK(count(html, "<li>") == fx.findings.size());
  // The text is still there, readable; '@' is followed by a zero-width space.
  CHECK(html.find("&lt;script&gt;alert(1)&lt;/script&gt;") != std::string::npos);
  CHECK(html.find("@\u200Boctocat") != std::string::npos);
  CHECK(html.find("&amp;lt;") != std::string::npos);
}

TEST_CASE("markdown: diff shows new findings, fixed ones with --show-fixed", "[report]") {
  test::ReportFixture fx;
  ReportContext ctx = fx.ctx();
  ctx.diff_range = "origin/main..HEAD";
  ctx.baseline_states.assign(fx.findings.size(), "unchanged");
  ctx.baseline_states[2] = "new";
  std::string md = markdown(ctx);
  CHECK(md.rfind("## sbreview diff origin/main&#46;&#46;HEAD: 1 new finding\n\n", 0) == 0);
  CHECK(md.find("| **total** | 1 | 0 | 0 | 0 | 0 |\n") != std::string::npos);
  CHECK(md.find("### New findings\n\n- **critical** [SB1001]") != std::string::npos);
  CHECK(count(md, "\n- ") == 1);
  CHECK(md.find("### Fixed") == std::string::npos);

  Finding old = fx.findings[4];
  old.at.file = fx.model.files.add("old/launch.sh");  // diff relocates BASE's findings so
  ctx.fixed.push_back(old);
  md = markdown(ctx);
  CHECK(md.rfind("## sbreview diff origin/main&#46;&#46;HEAD: 1 new finding, 1 fixed\n\n", 0) == 0);
  CHECK(md.find("### Fixed\n\n- **low** [SB7001](") != std::string::npos);
  CHECK(md.find(") old/launch&#46;sh\\:3\\:2: podman run is privileged") != std::string::npos);

  ctx.baseline_states.assign(fx.findings.size(), "unchanged");
  ctx.fixed.clear();
  md = markdown(ctx);
  CHECK(md == "## sbreview diff origin/main&#46;&#46;HEAD: 0 new findings\n\n");
}

TEST_CASE("markdown: the summary is capped and says how much it left out", "[report]") {
  test::ReportFixture fx;
  std::vector<Finding> many;
  for (int i = 0; i < 5000; ++i) {
    Finding f = fx.findings[2];
    f.message = std::string(2000, 'm');  // each line is cut to about 1000 characters
    many.push_back(f);
  }
  ReportContext ctx{fx.model, fx.sources, fx.catalog, many, "/work/repo"};
  std::string md = markdown(ctx);
  constexpr size_t kMiB = size_t{1024} * 1024;
  CHECK(md.size() < kMiB);  // GitHub's step summary limit
  size_t shown = count(md, "\n- **critical**");
  CHECK(shown > 500);
  CHECK(shown < 5000);
  CHECK(md.find(fmt::format("\n_{} more lines left out: the summary is capped at 1000000 bytes.",
                            5000 - shown)) != std::string::npos);
  // The table still counts every finding.
  CHECK(md.find("| **total** | 5000 | 0 | 0 | 0 | 0 |\n") != std::string::npos);
  // A small cap: the heading and table stay, every line is counted as left out.
  std::string tiny = markdown(ctx, 100);
  CHECK(tiny.find("\n_5001 more lines left out") != std::string::npos);
}

}  // namespace report_markdown_test
