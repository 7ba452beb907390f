// Source trees: the working tree, a git revision read without a checkout, and memory give the
// same files, paths and invariant-0 findings; symlinks are judged alike in each; the export
// for tools holds regular files only and goes away with its owner.
#include <sys/stat.h>
#include <unistd.h>
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "analyzer/check/catalog.h"
#include "analyzer/check/runner.h"
#include "analyzer/cli/cli.h"
#include "analyzer/pipeline/analysis.h"
#include "analyzer/report/report.h"
#include "analyzer/source/export.h"
#include "analyzer/source/git_tree.h"
#include "analyzer/source/memory_tree.h"
#include "analyzer/source/working_tree.h"
#include "tests/fixture_harness.h"
#include "tests/git_repo.h"
#include "tests/memory_tree_loader.h"
#include "tests/temp_dir.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace source_tree_test {

using namespace sbr;
namespace fs = std::filesystem;

namespace {

struct TempDir : test::TempDir {
  TempDir() : test::TempDir("sbr-tree") {}
  void link(const std::string& rel, const std::string& target) const {
    fs::create_directories((path / rel).parent_path());
    fs::create_symlink(target, path / rel);
  }
};

using test::git;

void commit_all(const fs::path& dir) {
  git(dir, "init -q");
  git(dir, "add -A");
  git(dir, "commit -q -m fixture");
}

std::string json_findings(const Analysis& a) {
  Config config;
  std::vector<Finding> findings = run_checks(a.model, Catalog::embedded(), config, {"2026-06-15"});
  ReportContext ctx{a.model, a.sources, Catalog::embedded(), findings};
  std::ostringstream os;
  write_json(ctx, os);
  return os.str();
}

struct CliRun {
  int code;
  std::string out, err;
};

CliRun cli(const std::vector<std::string>& args) {
  std::ostringstream out, err;
  int code = run_cli(args, out, err);
  return {code, out.str(), err.str()};
}

std::vector<std::pair<ProblemKind, std::string>> problems_of(const Analysis& a) {
  std::vector<std::pair<ProblemKind, std::string>> out;
  for (const auto& p : a.model.problems) out.emplace_back(p.kind, a.model.files.path(p.at.file));
  return out;
}

const char* kPod =
    "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: c\n"
    "    image: x\n";

}  // namespace

TEST_CASE("a git revision and its working tree give byte-identical JSON findings",
          "[source-tree]") {
  TempDir t;
  fs::copy(test::source_dir() + "/examples/agent-sandbox", t.path / "agent-sandbox",
           fs::copy_options::recursive);
  commit_all(t.path);
  CliRun disk =
      cli({"check", "--format", "json", "--fail-on", "none", (t.path / "agent-sandbox").string()});
  CliRun rev = cli({"check", "--format", "json", "--fail-on", "none", "--revision", "HEAD", "-C",
                    t.path.string(), "agent-sandbox"});
  INFO(disk.err << rev.err);
  REQUIRE(disk.code == 0);
  REQUIRE(rev.code == 0);
  CHECK(disk.out.find("\"rule\": \"SB1006\"") != std::string::npos);  // it has findings
  CHECK(disk.out == rev.out);
  // SARIF too: the same %SRCROOT% (the repository's top) and URIs relative to it.
  CliRun disk_sarif =
      cli({"check", "--format", "sarif", "--fail-on", "none", (t.path / "agent-sandbox").string()});
  CliRun rev_sarif = cli({"check", "--format", "sarif", "--fail-on", "none", "--revision", "HEAD",
                          "-C", t.path.string(), "agent-sandbox"});
  CHECK(rev_sarif.out.find("agent-sandbox/k8s/agent.yaml") != std::string::npos);
  CHECK(disk_sarif.out == rev_sarif.out);

  // The revision is read from the object database: a changed working tree does not leak in.
  std::ofstream(t.path / "agent-sandbox/k8s/agent.yaml", std::ios::trunc) << "a: [1, 2\n";
  CliRun later = cli({"check", "--format", "json", "--fail-on", "none", "--revision", "HEAD", "-C",
                      t.path.string(), "agent-sandbox"});
  CHECK(later.out == rev.out);
}

TEST_CASE("links in a git revision follow the working tree's rule", "[source-tree]") {
  TempDir t;
  t.write("pod.yaml", kPod);
  t.write("sub/own.yaml", kPod);
  t.link("abs.yaml", "/etc/hostname");     // absolute: outside
  t.link("up.yaml", "../elsewhere.yaml");  // climbs above the top
  t.link("in.yaml", "pod.yaml");           // inside: its target is read at its own path
  t.link("sub/back.yaml", "../pod.yaml");  // inside the repository, outside `sub`
  t.link("sub/dir", ".");                  // a link to a directory inside `sub`
  t.link("dangling.yaml", "gone.yaml");
  t.link("sub/far.yaml", "../../pod.yaml");  // above the top, even if a pod.yaml is there
  commit_all(t.path);
  auto tree = GitTree::open(t.path.string(), "HEAD");
  REQUIRE(tree);
  Config config;

  Analysis rev = analyze(**tree, config, {});
  using P = std::pair<ProblemKind, std::string>;
  std::vector<P> outside = {{ProblemKind::SymlinkOutside, "abs.yaml"},
                            {ProblemKind::SymlinkOutside, "dangling.yaml"},
                            {ProblemKind::SymlinkOutside, "sub/far.yaml"},
                            {ProblemKind::SymlinkOutside, "up.yaml"}};
  CHECK(problems_of(rev) == outside);
  CHECK(rev.sources.symlinks_inside == 3);
  CHECK(rev.sources.files.size() == 2);

  // The same content on disk (outside the .git directory) is judged the same way.
  WorkingTree disk_tree(t.path.string());
  Analysis disk = analyze(disk_tree, config, {});
  CHECK(problems_of(disk) == outside);
  CHECK(disk.sources.symlinks_inside == rev.sources.symlinks_inside);

  // Below a sub-root, a link to a file above it leaves the root.
  Analysis sub = analyze(std::vector<SourceRoot>{{tree->get(), "sub", "sub"}}, config, {});
  CHECK(problems_of(sub) == std::vector<P>{{ProblemKind::SymlinkOutside, "back.yaml"},
                                           {ProblemKind::SymlinkOutside, "far.yaml"}});
  CHECK(sub.sources.symlinks_inside == 1);
  Analysis disk_sub = analyze({(t.path / "sub").string()}, config, {});
  CHECK(problems_of(disk_sub) == problems_of(sub));

  // And the finding the user sees is SB0003.
  CliRun run = cli({"check", "--format", "json", "--revision", "HEAD", "-C", t.path.string()});
  CHECK(run.code == 1);
  CHECK(run.out.find("\"SB0003\"") != std::string::npos);
}

TEST_CASE("a submodule in a revision is an invariant-0 finding, never skipped", "[source-tree]") {
  TempDir t;
  t.write("pod.yaml", kPod);
  git(t.path, "init -q");
  git(t.path, "add -A");
  git(t.path,
      "update-index --add --cacheinfo 160000,1111111111111111111111111111111111111111,vendor/lib");
  git(t.path, "commit -q -m with-submodule");
  auto tree = GitTree::open(t.path.string(), "HEAD");
  REQUIRE(tree);
  CHECK((*tree)->kind("vendor/lib") == EntryKind::Submodule);
  Analysis a = analyze(**tree, Config{}, {});
  REQUIRE(a.model.problems.size() == 1);
  CHECK(a.model.problems[0].kind == ProblemKind::Unreadable);
  CHECK(a.model.files.path(a.model.problems[0].at.file) == "vendor/lib");
  CHECK(a.model.problems[0].message.find("submodule") != std::string::npos);
}

TEST_CASE("bad revisions, repositories and paths are clear messages and exit 2", "[source-tree]") {
  TempDir t;
  CliRun no_repo = cli({"check", "--revision", "HEAD", "-C", t.path.string()});
  CHECK(no_repo.code == 2);
  CHECK(no_repo.err.find("not in a git repository") != std::string::npos);

  t.write("pod.yaml", kPod);
  commit_all(t.path);
  CliRun bad_rev = cli({"check", "--revision", "no-such-branch", "-C", t.path.string()});
  CHECK(bad_rev.code == 2);
  CHECK(bad_rev.err.find("revision `no-such-branch`") != std::string::npos);

  CliRun above = cli({"check", "--revision", "HEAD", "-C", t.path.string(), "../x"});
  CHECK(above.code == 2);
  CHECK(above.err.find("../x: not a path inside the repository") != std::string::npos);

  CliRun no_rev = cli({"check", "-C", t.path.string()});
  CHECK(no_rev.code == 2);

  // A path the revision does not hold is the same finding as a missing path on disk.
  CliRun missing = cli(
      {"check", "--format", "json", "--revision", "HEAD", "-C", t.path.string(), "nothing-here"});
  CHECK(missing.code == 1);
  CHECK(missing.out.find("\"SB0002\"") != std::string::npos);
}

TEST_CASE("the revision's own .sbreview.yaml is its configuration", "[source-tree]") {
  TempDir t;
  t.write("pod.yaml", kPod);
  t.write(".sbreview.yaml", "fail_on: none\n");
  commit_all(t.path);
  CHECK(cli({"check", "--revision", "HEAD", "-C", t.path.string()}).code == 0);
  // A later working-tree change to the configuration does not apply to the old revision.
  t.write(".sbreview.yaml", "fail_on: low\n");
  CHECK(cli({"check", "--revision", "HEAD", "-C", t.path.string()}).code == 0);
  CHECK(cli({"check", t.path.string()}).code == 1);
}

TEST_CASE("an in-memory copy of a fixture directory gives the working tree's findings",
          "[source-tree]") {
  for (const char* rel : {"examples/agent-sandbox", "fixtures/rules/SB0003-symlink-outside-root",
                          "fixtures/launchers", "fixtures/gates"}) {
    std::string dir = test::source_dir() + "/" + rel;
    MemoryTree tree = test::load_memory_tree(dir);
    Analysis disk = analyze({dir}, Config{}, {});
    Analysis memory = analyze(tree, Config{}, {});
    INFO(rel);
    CHECK(memory.sources.files.size() == disk.sources.files.size());
    CHECK(memory.sources.symlinks_inside == disk.sources.symlinks_inside);
    CHECK(json_findings(memory) == json_findings(disk));
  }
}

TEST_CASE("the in-memory tree reports what the working tree reports for odd entries",
          "[source-tree]") {
  MemoryTree tree;
  tree.add_file("pod.yaml", kPod);
  tree.add_special("pipe.yaml");
  tree.add_unreadable("secret.yaml", "Permission denied");
  tree.add_file("big.yaml", std::string(100, 'a'));
  tree.add_symlink("loop-a", "loop-b");
  tree.add_symlink("loop-b", "loop-a");
  tree.add_symlink("through-file", "pod.yaml/x");
  tree.add_symlink("d/chain", "../hop");
  tree.add_symlink("hop", "pod.yaml");
  Config config;
  config.limits.max_file_bytes = 99;
  Analysis a = analyze(tree, config, AnalyzeOptions{});
  using P = std::pair<ProblemKind, std::string>;
  CHECK(problems_of(a) == std::vector<P>{{ProblemKind::TooLarge, "big.yaml"},
                                         {ProblemKind::Unreadable, "secret.yaml"},
                                         {ProblemKind::SymlinkOutside, "loop-a"},
                                         {ProblemKind::SymlinkOutside, "loop-b"},
                                         {ProblemKind::SpecialFile, "pipe.yaml"},
                                         {ProblemKind::SymlinkOutside, "through-file"}});
  CHECK(a.model.problems[0].message ==
        "file not analysed: file is 100 bytes, over the limit of 99");
  CHECK(a.sources.symlinks_inside == 2);  // d/chain → hop → pod.yaml, and hop itself
  CHECK(tree.resolve_link("d/chain") == std::optional<std::string>("pod.yaml"));
  CHECK_THROWS(tree.add_file("../x", ""));
  CHECK_THROWS(tree.add_file("pod.yaml/x", ""));
}

TEST_CASE("the export holds regular files only and is removed with its owner", "[source-tree]") {
  TempDir t;
  t.write("a.yaml", "a\n");
  t.write("deep/er/b.sh", "#!/bin/sh\necho b\n");
  t.link("in.yaml", "a.yaml");
  t.link("out.yaml", "/etc/hostname");
  t.link("deep/dir", "..");
  commit_all(t.path);
  auto tree = GitTree::open(t.path.string(), "HEAD");
  REQUIRE(tree);
  WorkingTree disk(t.path.string());
  MemoryTree memory = test::load_memory_tree(t.path.string());
  for (const SourceTree* source : std::vector<const SourceTree*>{tree->get(), &disk, &memory}) {
    std::string where;
    {
      auto exported = export_tree(*source);
      REQUIRE(exported);
      where = exported->path();
      CHECK(exported->files() == std::vector<std::string>{"a.yaml", "deep/er/b.sh"});
      struct stat st {};
      REQUIRE(lstat(where.c_str(), &st) == 0);
      CHECK((st.st_mode & 07777) == 0700);
      size_t entries = 0;
      for (const auto& e : fs::recursive_directory_iterator(where)) {
        ++entries;
        CHECK_FALSE(e.is_symlink());
        CHECK((e.is_regular_file() || e.is_directory()));
      }
      CHECK(entries == 4);  // a.yaml, deep, deep/er, deep/er/b.sh
      std::ifstream in(where + "/deep/er/b.sh");
      std::stringstream ss;
      ss << in.rdbuf();
      CHECK(ss.str() == "#!/bin/sh\necho b\n");
    }
    CHECK_FALSE(fs::exists(where));
  }

  SourceSet bad;
  bad.files.push_back({0, "../escape.yaml", FileType::Yaml, "x", true});
  auto refused = export_files(bad);
  REQUIRE_FALSE(refused);
  CHECK(refused.error().message.find("../escape.yaml") != std::string::npos);
}

TEST_CASE("the size limit is the same finding in a revision as on disk", "[source-tree]") {
  TempDir t;
  t.write("big.yaml", std::string(4096, '#'));
  t.write("run.sh", "#!/bin/sh\necho hi\n");
  git(t.path, "init -q");
  git(t.path, "add -A");
  git(t.path, "update-index --chmod=+x run.sh");
  git(t.path, "commit -q -m sizes");
  auto tree = GitTree::open(t.path.string(), "HEAD");
  REQUIRE(tree);
  CHECK((*tree)->kind("run.sh") == EntryKind::File);  // mode 100755 is a regular file
  Config config;
  config.limits.max_file_bytes = 1000;
  Analysis rev = analyze(**tree, config, AnalyzeOptions{});
  WorkingTree disk_tree(t.path.string());
  Analysis disk = analyze(disk_tree, config, AnalyzeOptions{});
  REQUIRE(rev.model.problems.size() == 1);
  CHECK(rev.model.problems[0].kind == ProblemKind::TooLarge);
  CHECK(rev.model.problems[0].message ==
        "file not analysed: file is 4096 bytes, over the limit of 1000");
  CHECK(json_findings(rev) == json_findings(disk));
}

}  // namespace source_tree_test
