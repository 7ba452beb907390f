// Kustomize run for real: the child's isolation (clean environment, no network, time limit,
// nothing outside the tree), the map from its output to base and patch lines, and how a
// failing build is reported. Tests that need kubectl or kustomize say so and stop when absent
// (Catch2 v2 has no SKIP: a WARN names what was not tested).
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include <chrono>
#include <cstdlib>
#include <filesystem>

#include "analyzer/render/kustomize/internal.h"
#include "analyzer/render/kustomize/kustomize.h"
#include "tests/fixture_harness.h"
#include "tests/temp_dir.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace kustomize_render_test {

using namespace sbr;
namespace fs = std::filesystem;

namespace {

bool have_kustomize() {
  const render::kz::Tool& t = render::kz::find_tool();
  if (t.recent_enough) return true;
  WARN("SKIPPED: no kubectl/kustomize " << render::kz::kMinimumVersion << " or newer installed");
  return false;
}

struct Rendered {
  FileTable table;
  SourceSet sources;
  render::RenderOutput out;
};

Rendered render_dir(const std::string& dir, const render::RenderOptions& options = {}) {
  Rendered r;
  r.sources = walk_sources({dir}, {}, r.table);
  render::render_kustomizations(r.sources, options, r.out);
  return r;
}

FileId id_of(const SourceSet& s, const std::string& path) {
  for (const SourceFile& f : s.files) {
    if (f.path == path) return f.id;
  }
  return kNoFile;
}

const render::RenderedStream* stream_of(const Rendered& r, const std::string& root) {
  for (const auto& s : r.out.streams) {
    if (s.root == root) return &s;
  }
  return nullptr;
}

// The origin of the first line of `stream` that contains `text`, `skip` columns into it.
const render::Origin& origin_of(const render::RenderedStream& s, const std::string& text,
                                std::uint32_t skip = 0) {
  std::uint32_t line = 1;
  for (size_t start = 0; start < s.text.size(); ++line) {
    size_t end = s.text.find('\n', start);
    std::string l = s.text.substr(start, end - start);
    if (size_t col = l.find(text); col != std::string::npos) {
      return s.map.find(line, static_cast<std::uint32_t>(col + 1) + skip);
    }
    start = end == std::string::npos ? s.text.size() : end + 1;
  }
  FAIL("no line with " << text);
  return s.map.fallback;
}

const char* kJob =
    "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: runner\nspec:\n  template:\n"
    "    spec:\n      restartPolicy: Never\n      containers:\n      - name: agent\n"
    "        image: agent:1\n";

}  // namespace

TEST_CASE("the renderer's child has a clean environment and a private empty HOME",
          "[kustomize][isolation]") {
  setenv("KUBECONFIG", "/home/user/.kube/config", 1);
  setenv("HTTPS_PROXY", "http://proxy.corp:3128", 1);
  setenv("KUSTOMIZE_PLUGIN_HOME", "/home/user/plugins", 1);
  render::kz::RunResult r = render::kz::run_isolated({"/usr/bin/env"}, "", {});
  unsetenv("KUBECONFIG");
  unsetenv("HTTPS_PROXY");
  unsetenv("KUSTOMIZE_PLUGIN_HOME");
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("KUBECONFIG") == std::string::npos);
  CHECK(r.out.find("PROXY") == std::string::npos);
  CHECK(r.out.find("KUSTOMIZE_PLUGIN_HOME") == std::string::npos);
  size_t home = r.out.find("HOME=");
  REQUIRE(home != std::string::npos);
  std::string dir = r.out.substr(home + 5, r.out.find('\n', home) - home - 5);
  CHECK(dir.find("sbr-home-") != std::string::npos);
  CHECK_FALSE(fs::exists(dir));  // removed after the run
}

TEST_CASE("the renderer's child has no network where the machine allows it",
          "[kustomize][isolation]") {
  if (!render::kz::network_namespace_available()) {
    WARN("SKIPPED: unshare -rn is not allowed here; the pre-scan is the only guard");
    return;
  }
  render::kz::RunResult r = render::kz::run_isolated({"/bin/cat", "/proc/net/dev"}, "", {});
  REQUIRE(r.exit_code == 0);
  size_t interfaces = 0;
  for (size_t at = r.out.find(':'); at != std::string::npos; at = r.out.find(':', at + 1)) {
    ++interfaces;
  }
  CHECK(interfaces == 1);  // the loopback only
  CHECK(r.out.find("lo:") != std::string::npos);
}

TEST_CASE("a run over its time limit is killed with its process group", "[kustomize][isolation]") {
  test::TempDir t("sbr-kz-timeout");
  t.write("hang.sh", "#!/bin/sh\nsleep 30 &\nexec sleep 30\n");
  chmod((t.path / "hang.sh").c_str(), 0700);
  render::kz::RunLimits limits;
  limits.timeout_ms = 300;
  auto start = std::chrono::steady_clock::now();
  render::kz::RunResult r = render::kz::run_isolated({(t.path / "hang.sh").string()}, "", limits);
  CHECK(r.timed_out);
  CHECK(r.exit_code == -1);
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));

  t.write("app/kustomization.yaml", "resources:\n- job.yaml\n");
  t.write("app/job.yaml", kJob);
  FileTable table;
  SourceSet s = walk_sources({(t.path / "app").string()}, {}, table);
  render::kz::Tool hang{(t.path / "hang.sh").string(), {}, "v5.5.0", true};
  render::RenderOptions options;
  options.timeout_ms = 300;
  render::RenderOutput out;
  render::kz::render_with_tool(s, options, &hang, out);
  REQUIRE(out.problems.size() == 1);
  CHECK_THAT(out.problems[0].message, Catch::Contains("did not finish within 300 ms"));
  CHECK(out.streams.empty());
  CHECK(out.consumed.size() == 2);
}

TEST_CASE("a child filling both pipes is read to the end", "[kustomize][isolation]") {
  test::TempDir t("sbr-kz-pipes");
  t.write("both.sh",
          "#!/bin/sh\nhead -c 300000 /dev/zero >&2\nhead -c 400000 /dev/zero\n"
          "head -c 200000 /dev/zero >&2\n");
  chmod((t.path / "both.sh").c_str(), 0700);
  render::kz::RunLimits limits;
  limits.timeout_ms = 10'000;
  render::kz::RunResult r = render::kz::run_isolated({(t.path / "both.sh").string()}, "", limits);
  CHECK(r.exit_code == 0);
  CHECK(r.out.size() == 400000);
  CHECK(r.err.size() == 500000);
}

TEST_CASE("output over the size cap is not read", "[kustomize][isolation]") {
  render::kz::RunLimits limits;
  limits.max_output_bytes = 4096;
  render::kz::RunResult r = render::kz::run_isolated({"/usr/bin/yes"}, "", limits);
  CHECK(r.too_large);
  CHECK(r.out.size() < 4096 + 65536);
}

TEST_CASE("a symlink out of the tree is never exported to the renderer", "[kustomize][isolation]") {
  if (!have_kustomize()) return;
  test::TempDir outside("sbr-kz-outside");
  outside.write("secret.yaml", "apiVersion: v1\nkind: Secret\nmetadata: {name: TOPSECRET}\n");
  test::TempDir t("sbr-kz-link");
  t.write("kustomization.yaml", "resources:\n- job.yaml\n- secret.yaml\n");
  t.write("job.yaml", kJob);
  fs::create_symlink(outside.path / "secret.yaml", t.path / "secret.yaml");
  Rendered r = render_dir(t.path.string());
  CHECK(r.out.streams.empty());
  REQUIRE(r.out.problems.size() == 1);
  CHECK_THAT(r.out.problems[0].message,
             Catch::Contains("kustomize failed") && Catch::Contains("secret.yaml"));
  CHECK(r.out.problems[0].message.find("TOPSECRET") == std::string::npos);
  CHECK(r.out.problems[0].message.find("sbr-export") == std::string::npos);
}

TEST_CASE("a failing build is one problem at its kustomization with kustomize's error",
          "[kustomize]") {
  if (!have_kustomize()) return;
  test::TempDir t("sbr-kz-fail");
  t.write("overlays/dev/kustomization.yaml", "resources:\n- deployment.yaml\n");
  t.write("overlays/dev/notes.yaml", kJob);
  Rendered r = render_dir(t.path.string());
  REQUIRE(r.out.problems.size() == 1);
  CHECK(r.out.problems[0].at ==
        Location{id_of(r.sources, "overlays/dev/kustomization.yaml"), 1, 1});
  CHECK_THAT(r.out.problems[0].message,
             Catch::StartsWith("kustomization `overlays/dev/kustomization.yaml` is not rendered: "
                               "kustomize failed: ") &&
                 Catch::Contains("overlays/dev/deployment.yaml"));
  CHECK(r.out.problems[0].message.find(t.path.string()) == std::string::npos);
}

TEST_CASE("rendered fields map to the base line, patched ones to the patch line", "[kustomize]") {
  if (!have_kustomize()) return;
  Rendered r = render_dir(test::source_dir() + "/fixtures/kustomize");
  const auto* debug = stream_of(r, "overlays/debug");
  REQUIRE(debug != nullptr);
  CHECK(debug->engine == "kustomize");
  CHECK(debug->text.find("config.kubernetes.io/origin") == std::string::npos);
  CHECK(debug->text.find("annotations:") == std::string::npos);

  const FileId patch = id_of(r.sources, "overlays/debug/debug-shell.yaml");
  CHECK(origin_of(*debug, "privileged: true").at == Location{patch, 20, 11});  // the key
  const render::Origin& privileged = origin_of(*debug, "privileged: true", 12);
  CHECK(privileged.at == Location{patch, 20, 23});
  CHECK(privileged.role == StepRole::Patched);
  CHECK(privileged.note == "overlays/debug/debug-shell.yaml");
  const render::Origin& runtime = origin_of(*debug, "runtimeClassName: gvisor");
  CHECK(runtime.at.file == id_of(r.sources, "overlays/gvisor/runtime-class.yaml"));
  CHECK(runtime.at.line == 9);
  const render::Origin& image = origin_of(*debug, "image: ghcr.io");
  CHECK(image.at.file == id_of(r.sources, "base/job.yaml"));
  CHECK(image.at.line == 29);
  CHECK(image.role == StepRole::Template);
  const render::Origin& handler = origin_of(*debug, "handler: runsc");
  CHECK(handler.at == Location{id_of(r.sources, "overlays/gvisor/runtimeclass.yaml"), 5, 1});

  const auto* hostnet = stream_of(r, "overlays/hostnet");
  REQUIRE(hostnet != nullptr);
  const FileId kust = id_of(r.sources, "overlays/hostnet/kustomization.yaml");
  CHECK(origin_of(*hostnet, "hostNetwork: true").at == Location{kust, 13, 13});  // `path:`
  const render::Origin& host = origin_of(*hostnet, "hostNetwork: true", 13);
  CHECK(host.at == Location{kust, 17, 14});  // `value:`
  CHECK(host.note == "inline patch in overlays/hostnet/kustomization.yaml");

  // The bases are rendered through their users only; the remote overlay is refused.
  CHECK(r.out.streams.size() == 3);
  CHECK(id_of(r.sources, "overlays/remote/pin-image.yaml") != kNoFile);
}

TEST_CASE("the gVisor overlay alone reports nothing", "[kustomize][fixtures]") {
  if (!have_kustomize()) return;
  test::TempDir t("sbr-kz-gvisor");
  const fs::path from = test::source_dir() + "/fixtures/kustomize";
  fs::copy(from / "base", t.path / "base", fs::copy_options::recursive);
  fs::create_directories(t.path / "overlays");
  fs::copy(from / "overlays/gvisor", t.path / "overlays/gvisor", fs::copy_options::recursive);
  fs::copy(from / ".sbreview.yaml", t.path / ".sbreview.yaml");
  auto r = test::run_fixture_dir(t.path.string(), {}, true);
  INFO(r.describe());
  // Only the note that NetworkPolicies need an enforcing CNI, at the base's policy.
  REQUIRE(r.findings.size() == 1);
  CHECK(r.findings[0].rule_id.str() == "SB5012");
  CHECK(r.findings[0].at.line == 3);
}

TEST_CASE("the Kustomize fixture reports exactly what it annotates", "[kustomize][fixtures]") {
  if (!have_kustomize()) return;
  auto r = test::run_fixture_dir(test::source_dir() + "/fixtures/kustomize", {}, true);
  INFO(r.describe());
  CHECK(r.matches());
  CHECK(r.expected.size() == 8);
}

TEST_CASE("legacy patch fields map too: patchesJson6902 files, inline patchesStrategicMerge",
          "[kustomize]") {
  if (!have_kustomize()) return;
  test::TempDir t("sbr-kz-legacy");
  t.write("app/job.yaml", kJob);
  t.write("app/kustomization.yaml",
          "resources:\n- job.yaml\n"
          "patchesJson6902:\n- target: {group: batch, version: v1, kind: Job, name: runner}\n"
          "  path: host-pid.json\n"
          "patchesStrategicMerge:\n- |-\n  apiVersion: batch/v1\n  kind: Job\n"
          "  metadata:\n    name: runner\n  spec:\n    template:\n      spec:\n"
          "        hostIPC: true\n");
  t.write(
      "app/host-pid.json",
      "[\n  {\"op\": \"add\", \"path\": \"/spec/template/spec/hostPID\", \"value\": true}\n]\n");
  Rendered r = render_dir(t.path.string());
  REQUIRE(r.out.streams.size() == 1);
  const render::RenderedStream& s = r.out.streams[0];
  CHECK(s.root == "app");
  const render::Origin& pid = origin_of(s, "hostPID: true", 9);
  CHECK(pid.at == Location{id_of(r.sources, "app/host-pid.json"), 2, 65});
  CHECK(pid.role == StepRole::Patched);
  const render::Origin& ipc = origin_of(s, "hostIPC: true", 9);
  CHECK(ipc.at == Location{id_of(r.sources, "app/kustomization.yaml"), 15, 18});
  CHECK(ipc.note == "inline patch in app/kustomization.yaml");
  CHECK(origin_of(s, "image: agent:1").at == Location{id_of(r.sources, "app/job.yaml"), 11, 9});
}

TEST_CASE("values a transformer rewrote map to the transformer's line", "[kustomize]") {
  if (!have_kustomize()) return;
  test::TempDir t("sbr-kz-transform");
  t.write("base/job.yaml", kJob);
  t.write("base/kustomization.yaml", "resources:\n- job.yaml\n");
  t.write("prod/kustomization.yaml",
          "resources:\n- ../base\nnamespace: sandbox\nimages:\n- name: agent\n  newTag: \"2\"\n");
  Rendered r = render_dir(t.path.string());
  REQUIRE(r.out.streams.size() == 1);
  const render::RenderedStream& s = r.out.streams[0];
  const FileId prod = id_of(r.sources, "prod/kustomization.yaml");
  const render::Origin& image = origin_of(s, "image: agent:2", 7);
  CHECK(image.at == Location{prod, 5, 3});
  CHECK(image.note == "images: in prod/kustomization.yaml");
  CHECK(origin_of(s, "namespace: sandbox", 11).at == Location{prod, 3, 12});
  // The key stays where the base wrote it.
  CHECK(origin_of(s, "image: agent:2").at == Location{id_of(r.sources, "base/job.yaml"), 11, 9});
}

TEST_CASE("two renders of the same tree are identical, text and map", "[kustomize]") {
  if (!have_kustomize()) return;
  Rendered a = render_dir(test::source_dir() + "/fixtures/kustomize");
  Rendered b = render_dir(test::source_dir() + "/fixtures/kustomize");
  REQUIRE(a.out.streams.size() == b.out.streams.size());
  CHECK(a.out.consumed == b.out.consumed);
  for (size_t i = 0; i < a.out.streams.size(); ++i) {
    const auto& x = a.out.streams[i];
    const auto& y = b.out.streams[i];
    CHECK(x.root == y.root);
    CHECK(x.text == y.text);
    REQUIRE(x.map.segments.size() == y.map.segments.size());
    for (size_t j = 0; j < x.map.segments.size(); ++j) {
      CHECK(x.map.segments[j].line == y.map.segments[j].line);
      CHECK(x.map.segments[j].origin.at == y.map.segments[j].origin.at);
    }
  }
}

TEST_CASE("a vendored helmCharts chart is rendered by the chart engine and fed to kustomize",
          "[kustomize][helm]") {
  if (!have_kustomize()) return;
  Rendered r = render_dir(test::source_dir() + "/fixtures/kustomize");
  const auto* audit = stream_of(r, "overlays/audit");
  REQUIRE(audit != nullptr);
  for (const Problem& p : r.out.problems) INFO(p.message);
  CHECK(audit->text.find("name: nightly-transcript-audit") != std::string::npos);
  // A value of valuesInline maps to its line in the kustomization, the template as its step.
  const FileId kust = id_of(r.sources, "overlays/audit/kustomization.yaml");
  const render::Origin& ro = origin_of(*audit, "readOnlyRootFilesystem: false", 24);
  CHECK(ro.values.file == kust);
  CHECK(ro.values.line == 15);
  CHECK(ro.values.column == 7);  // the key, as for a values file
  CHECK(ro.at.file ==
        id_of(r.sources, "overlays/audit/charts/transcript-audit/templates/job.yaml"));
  CHECK(ro.at.line == 31);  // the toYaml line that printed the values
  // Text the template wrote maps to the template line.
  const render::Origin& deadline = origin_of(*audit, "activeDeadlineSeconds: 900");
  CHECK(deadline.at.line == 11);
  CHECK_FALSE(deadline.values.valid());
  // The chart's files are read through the overlay only; the generated file is no source.
  CHECK(std::find(r.out.consumed.begin(), r.out.consumed.end(),
                  id_of(r.sources, "overlays/audit/charts/transcript-audit/templates/job.yaml")) !=
        r.out.consumed.end());
  CHECK(render::kustomize_inflated_charts(r.sources) ==
        std::vector<std::string>{"overlays/audit/charts/transcript-audit"});
}

TEST_CASE("a helmCharts chart that is not vendored is refused, and kustomize never pulls it",
          "[kustomize][helm]") {
  test::TempDir t("sbr-kz-helm-remote");
  t.write("app/kustomization.yaml",
          "helmCharts:\n- name: minio\n  repo: https://charts.min.io\n  version: 5.0.0\n");
  Rendered r = render_dir(t.path.string());
  REQUIRE(r.out.problems.size() == 1);
  CHECK(r.out.problems[0].at.line == 2);
  CHECK_THAT(r.out.problems[0].message, Catch::Contains("no chart vendored under charts/"));
  CHECK(r.out.streams.empty());
}

TEST_CASE("the private copy lists rendered charts as resources, without helmCharts",
          "[kustomize][helm]") {
  using render::kz::with_generated_resources;
  CHECK(with_generated_resources("resources:\n- a.yaml\nhelmCharts:\n- name: x\n  valuesInline:\n"
                                 "    k: v\nnamespace: n\n",
                                 {".sbreview-helm-0-x.yaml"}) ==
        "resources:\n- .sbreview-helm-0-x.yaml\n- a.yaml\nnamespace: n\n");
  CHECK(with_generated_resources("helmGlobals:\n  chartHome: vendor\nhelmCharts:\n  - name: x\n",
                                 {"g.yaml"}) == "resources:\n- g.yaml\n");
  CHECK(with_generated_resources("resources: [a.yaml]\nhelmCharts:\n- name: x\n", {"g.yaml"}) ==
        "resources: [g.yaml, a.yaml]\n");
  CHECK(with_generated_resources("kind: Kustomization\nresources:\n  - a.yaml\n", {"g.yaml"}) ==
        "kind: Kustomization\nresources:\n  - g.yaml\n  - a.yaml\n");
}

TEST_CASE("replicas:, replacements: and JSON 6902 list indexes map to what set them",
          "[kustomize]") {
  if (!have_kustomize()) return;
  test::TempDir t("sbr-kz-setters");
  t.write("base/deploy.yaml",
          "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: agent\nspec:\n  replicas: 1\n"
          "  selector: {matchLabels: {app: a}}\n  template:\n    metadata: {labels: {app: a}}\n"
          "    spec:\n      containers:\n      - name: agent\n        image: agent:1\n"
          "      - name: proxy\n        image: proxy:1\n");
  t.write("base/config.yaml",
          "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  mode: strict\n");
  t.write("base/kustomization.yaml", "resources:\n- deploy.yaml\n- config.yaml\n");
  t.write("prod/kustomization.yaml",
          "resources:\n- ../base\n"
          "replicas:\n- name: agent\n  count: 3\n"
          "patches:\n"
          "- target: {kind: Deployment, name: agent}\n"
          "  patch: |-\n"
          "    - op: add\n      path: /spec/template/spec/containers/1/securityContext\n"
          "      value: {privileged: true}\n"
          "    - op: add\n      path: /spec/template/spec/containers/0\n"
          "      value: {name: debug-shell, image: 'busybox:1'}\n"
          "replacements:\n"
          "- source: {kind: ConfigMap, name: settings, fieldPath: data.mode}\n"
          "  targets:\n"
          "  - select: {kind: Deployment, name: agent}\n"
          "    fieldPaths:\n"
          "    - spec.template.metadata.labels.mode\n"
          "    options: {create: true}\n");
  Rendered r = render_dir(t.path.string());
  REQUIRE(r.out.streams.size() == 1);
  const render::RenderedStream& s = r.out.streams[0];
  const FileId prod = id_of(r.sources, "prod/kustomization.yaml");
  const render::Origin& replicas = origin_of(s, "replicas: 3", 10);
  CHECK(replicas.at == Location{prod, 4, 3});
  CHECK(replicas.note == "replicas: in prod/kustomization.yaml");
  const render::Origin& mode = origin_of(s, "      mode: strict", 12);  // the label, not the data
  CHECK(mode.at == Location{prod, 20, 7});
  // Index 1 was the proxy when the patch applied; after the add at 0 the agent is at 1 in the
  // output, and the patch still maps to the proxy only.
  const render::Origin& privileged = origin_of(s, "privileged: true", 12);
  CHECK(privileged.at.file == prod);
  CHECK(privileged.at.line == 11);
  CHECK(privileged.role == StepRole::Patched);
  CHECK(origin_of(s, "name: debug-shell", 6).at.line == 14);
  CHECK(origin_of(s, "image: agent:1", 7).at.file == id_of(r.sources, "base/deploy.yaml"));
}

}  // namespace kustomize_render_test
