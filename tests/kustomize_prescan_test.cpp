// Kustomize without running it: which kustomizations are render roots, what a root consumes,
// what is refused before anything runs, and the text rewrites of the private copy and of the
// output. None of these tests needs kubectl.
#include <catch2/catch.hpp>

#include <chrono>
#include <utility>

#include "analyzer/render/kustomize/internal.h"
#include "tests/source_file.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace kustomize_prescan_test {

using namespace sbr;
using render::kz::Tool;

namespace {

SourceSet tree_of(std::vector<std::pair<std::string, std::string>> files) {
  std::sort(files.begin(), files.end());
  SourceSet s;
  for (auto& [path, text] : files) {
    s.files.push_back(
        test::file_of(static_cast<FileId>(s.files.size()), path, FileType::Yaml, std::move(text)));
  }
  return s;
}

FileId id_of(const SourceSet& s, const std::string& path) {
  for (const SourceFile& f : s.files) {
    if (f.path == path) return f.id;
  }
  FAIL("no file " << path);
  return kNoFile;
}

// A tool that must never be started: if it were, the render would report it could not be.
Tool never_started() {
  Tool t;
  t.path = "/nonexistent/kubectl";
  t.verb = {"kustomize"};
  t.version = "v5.5.0";
  t.recent_enough = true;
  return t;
}

const char* kJob = "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: runner\n";

render::RenderOutput render_with(const SourceSet& s, const Tool& tool) {
  render::RenderOutput out;
  render::kz::render_with_tool(s, {}, &tool, out);
  return out;
}

bool consumed(const render::RenderOutput& out, FileId id) {
  return std::find(out.consumed.begin(), out.consumed.end(), id) != out.consumed.end();
}

}  // namespace

TEST_CASE("render roots are the kustomizations no other one builds on", "[kustomize]") {
  SourceSet s = tree_of({
      {"deploy/base/kustomization.yaml", "resources:\n- job.yaml\n"},
      {"deploy/base/job.yaml", kJob},
      {"deploy/overlays/gvisor/kustomization.yml", "resources:\n- ../../base\n"},
      {"deploy/overlays/debug/Kustomization", "resources:\n  - ../gvisor/\n"},
      {"deploy/components/tracing/kustomization.yaml",
       "apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\n"},
      {"tools/kustomization.yaml", "resources: [cron.yaml]\n"},
      {"tools/cron.yaml", kJob},
  });
  auto all = render::kz::read_kustomizations(s);
  REQUIRE(all.size() == 5);
  std::vector<FileId> roots = render::kz::render_root_files(all);
  CHECK(roots == std::vector<FileId>{id_of(s, "deploy/overlays/debug/Kustomization"),
                                     id_of(s, "tools/kustomization.yaml")});
  std::vector<FileId> chain = render::kz::chain_of(all, roots[0]);
  CHECK(chain == std::vector<FileId>{id_of(s, "deploy/base/kustomization.yaml"),
                                     id_of(s, "deploy/overlays/gvisor/kustomization.yml"),
                                     id_of(s, "deploy/overlays/debug/Kustomization")});
}

TEST_CASE("a cycle of kustomizations still gets one render root", "[kustomize]") {
  SourceSet s = tree_of({{"a/kustomization.yaml", "resources:\n- ../b\n"},
                         {"b/kustomization.yaml", "resources:\n- ../a\n"}});
  auto all = render::kz::read_kustomizations(s);
  CHECK(render::kz::render_root_files(all) ==
        std::vector<FileId>{id_of(s, "a/kustomization.yaml")});
  CHECK(render::kz::chain_of(all, id_of(s, "a/kustomization.yaml")).size() == 2);
}

TEST_CASE("a remote base is refused before anything runs, and its files are consumed",
          "[kustomize]") {
  SourceSet s = tree_of({
      {"overlays/prod/kustomization.yaml",
       "resources:\n- github.com/acme/platform//deploy/base?ref=v1.2.0\n"
       "patchesStrategicMerge:\n- pin.yaml\n"},
      {"overlays/prod/pin.yaml", kJob},
  });
  auto start = std::chrono::steady_clock::now();
  render::RenderOutput out = render_with(s, never_started());
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(2));
  REQUIRE(out.problems.size() == 1);
  CHECK(out.problems[0].kind == ProblemKind::RenderFailed);
  CHECK(out.problems[0].at == Location{id_of(s, "overlays/prod/kustomization.yaml"), 2, 3});
  CHECK_THAT(out.problems[0].message, Catch::Contains("remote base") &&
                                          Catch::Contains("never downloads") &&
                                          Catch::Contains("vendor it"));
  CHECK(out.streams.empty());
  CHECK(consumed(out, id_of(s, "overlays/prod/pin.yaml")));
  CHECK(consumed(out, id_of(s, "overlays/prod/kustomization.yaml")));
}

TEST_CASE("what is remote and what is local", "[kustomize]") {
  for (const char* remote :
       {"https://github.com/acme/x//base", "github.com/acme/x/base?ref=main",
        "git@github.com:acme/x.git//base", "ssh://git@host/x", "gitlab.com/acme/x//k8s",
        "file:///etc/k8s", "example.com/repo.git//base"}) {
    INFO(remote);
    CHECK(render::kz::is_remote_reference(remote));
  }
  for (const char* local : {"../base", "job.yaml", "./components/tracing", "base/"}) {
    INFO(local);
    CHECK_FALSE(render::kz::is_remote_reference(local));
  }
  CHECK(render::kz::resolve_in_tree("overlays/dev", "../../base") == "base");
  CHECK(render::kz::resolve_in_tree("overlays/dev", "./patch.yaml") == "overlays/dev/patch.yaml");
  CHECK_FALSE(render::kz::resolve_in_tree("overlays/dev", "../../../etc"));
  CHECK_FALSE(render::kz::resolve_in_tree("a", "/etc/passwd"));
}

TEST_CASE("charts not vendored, plugins, exec functions and paths out of the tree are refused",
          "[kustomize]") {
  struct Case {
    std::string name, kustomization, extra_path, extra, says;
    std::uint32_t line;
  };
  const std::vector<Case> cases = {
      {"helm", "resources:\n- job.yaml\nhelmCharts:\n- name: agent\n  repo: https://charts.x\n", "",
       "", "has no chart vendored under charts/ (repo https://charts.x)", 4},
      {"plugin", "resources:\n- job.yaml\ntransformers:\n- sops.yaml\n", "app/sops.yaml",
       "apiVersion: viaduct.ai/v1\nkind: ksops\nmetadata: {name: s}\n", "plugin `ksops`", 4},
      {"function", "resources:\n- job.yaml\ngenerators:\n- gen.yaml\n", "app/gen.yaml",
       "apiVersion: example.com/v1\nkind: Gen\nmetadata:\n  name: g\n  annotations:\n"
       "    config.kubernetes.io/function: |\n      exec: {path: ./gen.sh}\n",
       "KRM function", 4},
      {"escape", "resources:\n- job.yaml\n- ../../outside\n", "", "", "above the repository", 3},
  };
  for (const Case& c : cases) {
    DYNAMIC_SECTION(c.name) {
      std::vector<std::pair<std::string, std::string>> files = {
          {"app/kustomization.yaml", c.kustomization}, {"app/job.yaml", kJob}};
      if (!c.extra_path.empty()) files.emplace_back(c.extra_path, c.extra);
      SourceSet s = tree_of(files);
      render::RenderOutput out = render_with(s, never_started());
      REQUIRE(out.problems.size() == 1);
      CHECK(out.problems[0].at.file == id_of(s, "app/kustomization.yaml"));
      CHECK(out.problems[0].at.line == c.line);
      CHECK_THAT(out.problems[0].message, Catch::Contains(c.says));
      CHECK(out.streams.empty());
      CHECK(consumed(out, id_of(s, "app/job.yaml")));
    }
  }
}

TEST_CASE("builtin generators and transformers are not plugins", "[kustomize]") {
  SourceSet s = tree_of({
      {"app/kustomization.yaml", "resources:\n- job.yaml\ntransformers:\n- labels.yaml\n"},
      {"app/job.yaml", kJob},
      {"app/labels.yaml",
       "apiVersion: builtin\nkind: LabelTransformer\nmetadata: {name: l}\nlabels: {a: b}\n"},
  });
  auto all = render::kz::read_kustomizations(s);
  CHECK(all.at(id_of(s, "app/kustomization.yaml")).refusals.empty());
}

TEST_CASE("without a recent kustomize each root is one problem and its files are consumed",
          "[kustomize]") {
  SourceSet s = tree_of({{"a/kustomization.yaml", "resources:\n- job.yaml\n"},
                         {"a/job.yaml", kJob},
                         {"b/kustomization.yaml", "resources:\n- job.yaml\n"},
                         {"b/job.yaml", kJob}});
  Tool old;
  old.path = "/usr/bin/kubectl";
  old.version = "v2.0.3";
  for (const Tool& tool : {Tool{}, old}) {
    render::RenderOutput out = render_with(s, tool);
    REQUIRE(out.problems.size() == 2);
    CHECK(out.problems[0].at == Location{id_of(s, "a/kustomization.yaml"), 1, 1});
    CHECK_THAT(out.problems[0].message,
               Catch::Contains(tool.path.empty() ? "is installed" : "older than v5.0.0"));
    CHECK(consumed(out, id_of(s, "b/job.yaml")));
    CHECK(out.streams.empty());
  }
}

TEST_CASE("patches are read with where their text starts", "[kustomize]") {
  SourceSet s = tree_of({
      {"app/kustomization.yaml",
       "resources: [job.yaml]\npatches:\n- path: p.yaml\n- target: {kind: Job}\n  patch: |-\n"
       "    - op: add\n      path: /spec/x\n      value: 1\n"},
      {"app/job.yaml", kJob},
      {"app/p.yaml", kJob},
  });
  auto all = render::kz::read_kustomizations(s);
  const auto& patches = all.at(id_of(s, "app/kustomization.yaml")).patches;
  REQUIRE(patches.size() == 2);
  CHECK(patches[0].file == id_of(s, "app/p.yaml"));
  CHECK(patches[0].note == "app/p.yaml");
  CHECK(patches[1].file == id_of(s, "app/kustomization.yaml"));
  CHECK(patches[1].line_offset == 5);  // text line 1 is file line 6
  CHECK(patches[1].column_offset == 4);
  REQUIRE(patches[1].target);
  CHECK(patches[1].target->kind == "Job");
}

TEST_CASE("the private copy turns origin annotations on in place of buildMetadata", "[kustomize]") {
  using render::kz::with_origin_annotations;
  CHECK(with_origin_annotations("resources:\n- a.yaml") ==
        "resources:\n- a.yaml\nbuildMetadata: [originAnnotations]\n");
  CHECK(with_origin_annotations("buildMetadata:\n- managedByLabel\n- transformerAnnotations\n"
                                "resources:\n- a.yaml\n") ==
        "resources:\n- a.yaml\nbuildMetadata: [originAnnotations]\n");
  CHECK(with_origin_annotations("{\"resources\": [\"a.yaml\"]}") ==
        "{\"buildMetadata\": [\"originAnnotations\"], \"resources\": [\"a.yaml\"]}");
}

TEST_CASE("origin annotations are taken out of the output, other annotations stay", "[kustomize]") {
  const std::string out =
      "apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  annotations:\n"
      "    config.kubernetes.io/origin: |\n      path: ../../base/sa.yaml\n  name: sa\n---\n"
      "apiVersion: batch/v1\nkind: Job\nmetadata:\n  annotations:\n    owner: platform\n"
      "    config.kubernetes.io/origin: |\n      path: job.yaml\n  name: runner\nspec: {}\n";
  std::vector<std::string> origins;
  std::string stripped = render::kz::strip_origins(out, origins);
  CHECK(origins == std::vector<std::string>{"../../base/sa.yaml", "job.yaml"});
  CHECK(stripped ==
        "apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: sa\n---\n"
        "apiVersion: batch/v1\nkind: Job\nmetadata:\n  annotations:\n    owner: platform\n"
        "  name: runner\nspec: {}\n");
}

TEST_CASE("kustomize's error line loses the private directory", "[kustomize]") {
  const std::string err =
      "E1202 01:07:04.781635   13025 run.go:72] \"command failed\" err=\"accumulating "
      "resources: accumulation err='accumulating resources from 'missing.yaml': evalsymlink "
      "failure on '/tmp/sbr-export-Ab12/app/missing.yaml' : lstat: no such file\"\n";
  std::string line = render::kz::first_error_line(err, "/tmp/sbr-export-Ab12");
  CHECK(line.find("/tmp/") == std::string::npos);
  CHECK_THAT(line,
             Catch::StartsWith("accumulating resources") && Catch::Contains("'app/missing.yaml'"));
  CHECK(render::kz::first_error_line("Error: no kustomization file\nUsage: ...\n", "/x") ==
        "no kustomization file");
  CHECK(render::kz::version_at_least("v5.5.0", "v5.0.0"));
  CHECK_FALSE(render::kz::version_at_least("v4.5.7", "v5.0.0"));
  CHECK_FALSE(render::kz::version_at_least("", "v5.0.0"));
}

TEST_CASE("a kustomization that does not parse is refused at the parse error", "[kustomize]") {
  SourceSet s = tree_of(
      {{"app/kustomization.yaml", "resources:\n- job.yaml\npatches: [\n"}, {"app/job.yaml", kJob}});
  render::RenderOutput out = render_with(s, Tool{});  // reported even with no tool installed
  REQUIRE(out.problems.size() == 1);
  CHECK(out.problems[0].at.file == id_of(s, "app/kustomization.yaml"));
  CHECK(out.problems[0].at.line >= 3);
  CHECK_THAT(out.problems[0].message, Catch::Contains("does not parse as YAML"));
  CHECK(consumed(out, id_of(s, "app/kustomization.yaml")));
}

TEST_CASE("a component nobody includes is not rendered, and its patches are not objects",
          "[kustomize]") {
  SourceSet s = tree_of({
      {"components/debug/kustomization.yaml",
       "apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\npatches:\n"
       "- path: shell.yaml\n"},
      {"components/debug/shell.yaml", kJob},
  });
  render::RenderOutput out = render_with(s, never_started());
  CHECK(out.problems.empty());
  CHECK(out.streams.empty());
  CHECK(consumed(out, id_of(s, "components/debug/shell.yaml")));
}

}  // namespace kustomize_prescan_test
