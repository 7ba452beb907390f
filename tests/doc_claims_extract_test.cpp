// The Markdown claim extractor (analyzer/frontends/markdown): cmark-gfm positions, claims tables,
// the prose vocabulary, and how a sentence's words change a claim (docs/doc-claims.md).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "analyzer/frontends/markdown/claims_extract.h"
#include "analyzer/frontends/markdown/markdown.h"
#include "analyzer/frontends/markdown/markdown_tree.h"
#include "analyzer/frontends/markdown/vocabulary.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace doc_claims_extract_test {

using namespace sbr;

namespace {

md::Extracted extract(const std::string& text) {
  return md::extract_claims(md::parse_markdown(text), 0);
}

std::vector<Claim> prose(const std::string& text) {
  return extract(text).claims;
}

const Claim* find(const std::vector<Claim>& claims, ClaimForm f) {
  for (const Claim& c : claims) {
    if (c.form == f) return &c;
  }
  return nullptr;
}

const char* kTable =
    "# Threat model\n"                                                          // 1
    "\n"                                                                        // 2
    "| Attack | Stopped by | Evidence |\n"                                      // 3
    "|---|---|---|\n"                                                           // 4
    "| Setuid root | `--security-opt no-new-privileges` + `--cap-drop=ALL` | "  // 5
    "`tests/e2e/caps.bats`, [net](tests/e2e/net.sh:12) |\n"                     //
    "| Disk filling | `--tmpfs` sizes | container config |\n"                   // 6
    "| Exfiltration | netfilter `policy drop` | `tests/e2e/net.sh` |\n";        // 7

}  // namespace

TEST_CASE("cmark-gfm: code spans in table cells and prose keep their line and column",
          "[doc-claims]") {
  md::Tree t = md::parse_markdown(kTable);
  REQUIRE(t.tables.size() == 1);
  const md::Inline& cell = t.tables[0].rows[0][1];
  REQUIRE(cell.pieces.size() >= 3);
  CHECK(cell.pieces[0].kind == md::Piece::Kind::Code);
  CHECK(cell.pieces[0].text == "--security-opt no-new-privileges");
  CHECK(cell.pieces[0].line == 5);
  CHECK(cell.pieces[0].column == 18);  // the literal, one after the backtick at 17
  md::Tree p = md::parse_markdown("Some *text* and\na `--pids-limit=512` here.\n");
  REQUIRE(p.paragraphs.size() == 1);
  bool found = false;
  for (const md::Piece& piece : p.paragraphs[0].pieces) {
    if (piece.kind != md::Piece::Kind::Code) continue;
    found = true;
    CHECK(piece.line == 2);
    CHECK(piece.column == 4);
  }
  CHECK(found);
}

TEST_CASE("a claims table: each control span is a claim, its evidence paths cite them",
          "[doc-claims]") {
  md::Extracted x = extract(kTable);
  REQUIRE(x.claims.size() == 4);
  CHECK(x.claims[0].form == ClaimForm::NoNewPrivileges);
  CHECK(x.claims[0].origin == ClaimOrigin::Table);
  CHECK(x.claims[0].family == ClaimFamily::Launch);
  CHECK(x.claims[0].tokens == std::vector<std::string>{"no-new-privileges"});
  CHECK(x.claims[0].at.line == 5);
  CHECK(x.claims[0].at.column == 18);
  CHECK(x.claims[1].form == ClaimForm::CapDropAll);
  CHECK(x.claims[1].at.column == 55);
  CHECK(x.claims[1].tokens == std::vector<std::string>{"--cap-drop"});
  // A flag the vocabulary does not know is still a claim of the control column.
  CHECK(x.claims[2].form == ClaimForm::Unknown);
  CHECK(x.claims[2].control == "--tmpfs");
  CHECK(x.claims[3].form == ClaimForm::EgressDefaultDeny);
  CHECK(x.claims[3].family == ClaimFamily::Any);
  // Rows 5 and 7 cite files; row 6's "container config" is no path.
  REQUIRE(x.rows.size() == 2);
  REQUIRE(x.rows[0].evidence.size() == 2);
  CHECK(x.rows[0].evidence[0].path == "tests/e2e/caps.bats");
  CHECK(x.rows[0].evidence[1].path == "tests/e2e/net.sh");  // a link, its line suffix dropped
  CHECK(x.rows[0].claims == std::vector<std::size_t>{0, 1});
  CHECK(x.rows[1].claims == std::vector<std::size_t>{3});
}

TEST_CASE("a table without a control column claims nothing", "[doc-claims]") {
  CHECK(extract("| Flag | Meaning |\n|---|---|\n| `--read-only` | read-only root |\n")
            .claims.empty());
}

TEST_CASE("prose phrases of the vocabulary, with their columns", "[doc-claims]") {
  auto c = prose("The agent drops all capabilities and has pids and memory limits.\n");
  REQUIRE(c.size() == 3);
  CHECK(c[0].form == ClaimForm::CapDropAll);
  CHECK(c[0].at.column == 11);
  CHECK(c[0].control == "drops all capabilities");
  CHECK_FALSE(c[0].literal);
  CHECK(c[1].form == ClaimForm::PidsLimit);
  CHECK(c[1].at.column == 42);
  CHECK(c[2].form == ClaimForm::MemoryLimit);
  CHECK(c[2].at.column == 51);
  for (const Claim& x : c) CHECK(x.mood == ClaimMood::Asserted);

  auto d = prose("Outbound traffic is blocked by default.\nIt runs under gVisor.\n");
  REQUIRE(d.size() == 2);
  CHECK(d[0].form == ClaimForm::EgressDefaultDeny);
  CHECK(d[1].form == ClaimForm::HardenedRuntime);
  CHECK(d[1].value == "gvisor");
  CHECK(d[1].at.line == 2);

  // A phrase that ends in a code span takes the whole span.
  auto e = prose("Published ports bind `127.0.0.1` by default.\n");
  REQUIRE(e.size() == 1);
  CHECK(e[0].form == ClaimForm::LoopbackPublish);
  CHECK(e[0].control == "Published ports bind `127.0.0.1`");
  CHECK(prose("A bare `-p` binds every interface; a non-loopback address warns.\n").empty());
  CHECK(prose("There is no network policy in this namespace.\n").empty());
}

TEST_CASE("negations: next to the control they unmake the claim", "[doc-claims]") {
  auto a = prose("We do not use `--read-only` yet.\n");
  REQUIRE(a.size() == 1);
  CHECK(a[0].mood == ClaimMood::Negated);
  CHECK(a[0].marker == "not");
  auto b = prose("`--read-only` is not set on the dev image.\n");
  REQUIRE(b.size() == 1);
  CHECK(b[0].mood == ClaimMood::Negated);
  // A negation inside the phrase, right before the value it names.
  auto c = prose("The mistake: it ran under runc instead of gVisor.\n");
  REQUIRE(c.size() == 1);
  CHECK(c[0].form == ClaimForm::HardenedRuntime);
  CHECK(c[0].mood == ClaimMood::Negated);
  CHECK(c[0].marker == "instead");
  auto curly = prose("The gate doesn’t use `--read-only`.\n");
  REQUIRE(curly.size() == 1);
  CHECK(curly[0].mood == ClaimMood::Negated);
  // A conjunction starts another statement, except directly before the claim (a list).
  auto list = prose("It does not set `--read-only` or `--cap-drop=ALL`.\n");
  REQUIRE(list.size() == 2);
  CHECK(list[1].mood == ClaimMood::Negated);
  auto next = prose("It cannot reach the host and it runs under gVisor.\n");
  REQUIRE(next.size() == 2);
  CHECK(next[0].form == ClaimForm::NoInternalReach);
  CHECK(next[1].form == ClaimForm::HardenedRuntime);
  CHECK(next[1].mood == ClaimMood::Asserted);
  // A negation elsewhere in the clause does not govern the control.
  auto d =
      prose("The agent cannot rewrite its skills, because `~/.agents` is mounted read-only.\n");
  REQUIRE(d.size() == 1);
  CHECK(d[0].form == ClaimForm::MountReadOnly);
  CHECK(d[0].mood == ClaimMood::Asserted);
  // A comma ends the reach of what follows.
  auto e = prose("The gate runs as an unprivileged user, not on the host.\n");
  REQUIRE(e.size() == 1);
  CHECK(e[0].form == ClaimForm::NonRootUser);
  CHECK(e[0].mood == ClaimMood::Asserted);
}

TEST_CASE("a weakness is a claim only when negated", "[doc-claims]") {
  auto a = prose("No container is ever started with `--privileged`.\n");
  REQUIRE(a.size() == 1);
  CHECK(a[0].form == ClaimForm::NotPrivileged);
  CHECK(a[0].mood == ClaimMood::Asserted);
  CHECK(prose("The debug overlay runs with `--privileged` for strace.\n").empty());
  CHECK(prose("The overlay is not hardened and runs with `--privileged`.\n").empty());
}

TEST_CASE("conditions, hedges, advice and exceptions", "[doc-claims]") {
  auto cond = prose("When `--strict` is given, the root filesystem is read-only.\n");
  REQUIRE(cond.size() == 1);
  CHECK(cond[0].form == ClaimForm::ReadOnlyRoot);
  CHECK(cond[0].mood == ClaimMood::Conditional);
  CHECK(cond[0].marker == "when");
  // A fail-closed claim is conditional by nature.
  auto fail = prose("If the gate fails to load, the launcher refuses to start.\n");
  REQUIRE(fail.size() == 1);
  CHECK(fail[0].form == ClaimForm::FailClosed);
  CHECK(fail[0].mood == ClaimMood::Asserted);
  auto hedge = prose("A read-only-ish image, with an optional `--read-only`.\n");
  REQUIRE(hedge.size() == 1);
  CHECK(hedge[0].form == ClaimForm::ReadOnlyRoot);
  CHECK(hedge[0].mood == ClaimMood::Hedged);
  auto advice = prose("Add `--cap-drop=ALL` to your own launcher.\n");
  REQUIRE(advice.size() == 1);
  CHECK(advice[0].mood == ClaimMood::Advice);
  auto should = prose("Sandboxes should run under gVisor.\n");
  REQUIRE(should.size() == 1);
  CHECK(should[0].mood == ClaimMood::Advice);
  CHECK(should[0].marker == "should");
  // In a control cell an imperative describes the control, it is not advice.
  auto cell =
      extract("| Threat | Mitigation |\n|---|---|\n| escalation | Drop `--cap-drop=ALL` |\n");
  REQUIRE(cell.claims.size() == 1);
  CHECK(cell.claims[0].mood == ClaimMood::Asserted);
  auto unless = prose("Egress is denied by default unless `--net full` is given.\n");
  REQUIRE(unless.size() == 1);
  CHECK(unless[0].mood == ClaimMood::Asserted);
  CHECK(unless[0].unless == "unless `--net full` is given");
  CHECK(unless[0].paths == ClaimPaths::Default);
  // A platform named in the clause: judged on that platform's paths of a launcher.
  auto mac = prose("Sessions run in a microVM on macOS.\n");
  REQUIRE(mac.size() == 1);
  CHECK(mac[0].mood == ClaimMood::Asserted);
  CHECK(mac[0].platform == "macos");
  CHECK(mac[0].marker == "on macOS");
  // One the launchers' platform tests cannot tell apart stays conditional.
  auto silicon = prose("Sessions run in a microVM on Apple silicon.\n");
  REQUIRE(silicon.size() == 1);
  CHECK(silicon[0].mood == ClaimMood::Conditional);
  auto always = prose("The launcher always blocks all outbound traffic.\n");
  REQUIRE(always.size() == 1);
  CHECK(always[0].paths == ClaimPaths::Every);
}

TEST_CASE("mount claims: the nearest access word decides, quotes are not claims", "[doc-claims]") {
  auto m = prose("`~/.agents` and `~/.gitconfig` are mounted read-only, `$PWD` read-write.\n");
  REQUIRE(m.size() == 2);
  CHECK(m[0].arguments == std::vector<std::string>{"~/.agents"});
  CHECK(m[1].arguments == std::vector<std::string>{"~/.gitconfig"});
  CHECK(m[0].at.column == 2);
  auto spec = prose("Skills arrive as `~/.agents:/home/agent/.agents:ro`.\n");
  REQUIRE(spec.size() == 1);
  CHECK(spec[0].form == ClaimForm::MountReadOnly);
  CHECK(spec[0].arguments == std::vector<std::string>{"~/.agents"});
  auto only = prose("`$PWD` is the only writable mount.\n");
  REQUIRE(only.size() == 1);
  CHECK(only[0].form == ClaimForm::OnlyMounts);
  CHECK(only[0].writable_only);
  CHECK(prose("This is an exception to \"only your project directory is mounted\".\n").empty());
}

TEST_CASE("a block that starts with a path is about it", "[doc-claims]") {
  auto c = prose("- `overlays/gvisor/`: production; runs the Job under gVisor.\n");
  REQUIRE(c.size() == 1);
  CHECK(c[0].subject == "overlays/gvisor/");
  CHECK(c[0].form == ClaimForm::HardenedRuntime);
  CHECK(prose("It runs under gVisor (`overlays/gvisor/`).\n")[0].subject.empty());
  // A host path set apart is the subject of a mount claim about itself.
  auto skills = prose("`~/.agents`: read-only, so skills cannot be planted.\n");
  REQUIRE(skills.size() == 1);
  CHECK(skills[0].form == ClaimForm::MountReadOnly);
  CHECK(skills[0].arguments == std::vector<std::string>{"~/.agents"});
}

TEST_CASE("code spans: the vocabulary's flags, fields and rule names", "[doc-claims]") {
  struct Case {
    const char* span;
    ClaimForm form;
    const char* value;
  };
  for (const Case& c :
       {Case{"--pids-limit=512", ClaimForm::PidsLimit, "512"},
        Case{"--memory 4g", ClaimForm::MemoryLimit, "4g"},
        Case{"runtimeClassName: gvisor", ClaimForm::HardenedRuntime, "gvisor"},
        Case{"--runtime=kata-fc", ClaimForm::HardenedRuntime, "microvm"},
        Case{"readOnlyRootFilesystem: true", ClaimForm::ReadOnlyRoot, ""},
        Case{"drop: [ALL]", ClaimForm::CapDropAll, ""},
        Case{"--user=1000:1000", ClaimForm::NonRootUser, "1000:1000"},
        Case{"http_access deny all", ClaimForm::ProxyDenyAll, ""},
        Case{"-p 127.0.0.1:8080:8080", ClaimForm::LoopbackPublish, "127.0.0.1:8080:8080"}}) {
    INFO(c.span);
    auto ctl = md::classify_span(c.span);
    REQUIRE(ctl);
    CHECK(ctl->form == c.form);
    CHECK(ctl->value == c.value);
  }
  // Values that name the opposite of the control are no claim of it.
  CHECK_FALSE(md::classify_span("--user 0"));
  CHECK_FALSE(md::classify_span("--runtime=runc"));
  CHECK_FALSE(md::classify_span("--security-opt seccomp=unconfined"));
  CHECK_FALSE(md::classify_span("~/.agents"));
  CHECK(md::looks_like_path("~/.agents"));
  CHECK(md::looks_like_path("deploy/agent.yaml"));
  CHECK_FALSE(md::looks_like_path("--read-only"));
}

TEST_CASE("which Markdown files are read for claims by default", "[doc-claims]") {
  CHECK(default_claims_document("README.md"));
  CHECK(default_claims_document("sub/Security.md"));
  CHECK(default_claims_document("THREAT_MODEL.md"));
  CHECK(default_claims_document("docs/threat-model.md"));
  CHECK(default_claims_document("docs/networking.md"));
  CHECK_FALSE(default_claims_document("CHANGELOG.md"));
  CHECK_FALSE(default_claims_document("workspace/NOTES.md"));
}

}  // namespace doc_claims_extract_test
