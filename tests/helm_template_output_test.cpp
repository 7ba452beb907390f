// Conformance of `sbreview render helm` with Helm v4's `helm template`: the expected outputs
// are written from Helm's documented behaviour (pkg/cmd/template.go, pkg/action's
// renderResources, pkg/release/v1/util's SplitManifests, SortManifests and InstallOrder),
// for charts of our own: documents sorted by kind with unknown kinds last and alphabetical,
// hooks after every manifest, unknown hook events dropped, `<no value>` printed as nothing,
// trailing whitespace kept where SplitManifests keeps it, and the flags that change output.
#include <catch2/catch.hpp>

#include <sstream>

#include "analyzer/cli/cli.h"
#include "analyzer/render/helm/helm_template.h"
#include "analyzer/render/helm/manifests.h"
#include "analyzer/source/memory_tree.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace helm_template_output_test {

using namespace sbr;

namespace {

MemoryTree conform_chart() {
  MemoryTree t;
  t.add_file("conform/Chart.yaml",
             "apiVersion: v2\nname: conform\nversion: 0.1.0\nkubeVersion: \">=1.20.0-0\"\n");
  t.add_file("conform/values.yaml", "replicas: 2\nservice:\n  port: 8080\n");
  t.add_file("conform/motd.txt", "welcome\n");
  t.add_file("conform/crds/widget.yaml",
             "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n"
             "metadata:\n  name: widgets.example.com\n");
  t.add_file("conform/templates/_helpers.tpl",
             "{{- define \"conform.name\" -}}{{ .Chart.Name }}-{{ .Release.Name }}{{- end }}\n");
  t.add_file("conform/templates/NOTES.txt", "installed {{ .Release.Name }}\n");
  t.add_file("conform/templates/deployment.yaml",
             "apiVersion: apps/v1\n"
             "kind: Deployment\n"
             "metadata:\n"
             "  name: {{ include \"conform.name\" . }}\n"
             "  namespace: {{ .Release.Namespace }}\n"
             "spec:\n"
             "  replicas: {{ .Values.replicas }}\n"
             "  missing: {{ .Values.nothing }}\n"
             "  {{- with .Values.motd }}\n"
             "  motd: {{ . | trim | quote }}\n"
             "  {{- end }}\n");
  t.add_file("conform/templates/service.yaml",
             "apiVersion: v1\n"
             "kind: Service\n"
             "metadata:\n"
             "  name: svc\n"
             "spec:\n"
             "  ports:\n"
             "    - port: {{ .Values.service.port }}\n");
  t.add_file("conform/templates/zz-multi.yaml",
             "apiVersion: v1\n"
             "kind: ConfigMap\n"
             "metadata:\n"
             "  name: cm\n"
             "data:\n"
             "  kube: {{ .Capabilities.KubeVersion.Version }}\n"
             "  has: {{ .Capabilities.APIVersions.Has \"example.com/v1\" | quote }}\n"
             "---\n"
             "apiVersion: example.com/v1\n"
             "kind: Widget\n"
             "metadata:\n"
             "  name: w\n"
             "\n"
             "---\n"
             "apiVersion: example.com/v1\n"
             "kind: Alpha\n"
             "metadata:\n"
             "  name: a\n");
  t.add_file("conform/templates/hooks.yaml",
             "apiVersion: batch/v1\n"
             "kind: Job\n"
             "metadata:\n"
             "  name: migrate\n"
             "  annotations:\n"
             "    \"helm.sh/hook\": pre-install,pre-upgrade\n"
             "spec: {}\n"
             "---\n"
             "apiVersion: v1\n"
             "kind: Pod\n"
             "metadata:\n"
             "  name: smoke\n"
             "  annotations:\n"
             "    helm.sh/hook: test\n"
             "spec: {}\n"
             "---\n"
             "apiVersion: v1\n"
             "kind: ConfigMap\n"
             "metadata:\n"
             "  name: legacy\n"
             "  annotations:\n"
             "    helm.sh/hook: crd-install\n");
  return t;
}

struct Rendered {
  std::string out, error;
};

Rendered helm_template(const MemoryTree& t, render::helm::TemplateRequest req) {
  FileTable files;
  SourceSet sources = walk_trees({{&t, "", ""}}, WalkOptions{}, files);
  req.chart_dir = "conform";
  render::helm::TemplateResult r = render::helm::helm_template(sources, req);
  return {r.out, r.error};
}

const char* const kManifests =
    "---\n"
    "# Source: conform/templates/zz-multi.yaml\n"
    "apiVersion: v1\n"
    "kind: ConfigMap\n"
    "metadata:\n"
    "  name: cm\n"
    "data:\n"
    "  kube: v1.33.0\n"
    "  has: \"false\"\n"
    "---\n"
    "# Source: conform/templates/service.yaml\n"
    "apiVersion: v1\n"
    "kind: Service\n"
    "metadata:\n"
    "  name: svc\n"
    "spec:\n"
    "  ports:\n"
    "    - port: 8080\n"
    "\n"
    "---\n"
    "# Source: conform/templates/deployment.yaml\n"
    "apiVersion: apps/v1\n"
    "kind: Deployment\n"
    "metadata:\n"
    "  name: conform-rel\n"
    "  namespace: team\n"
    "spec:\n"
    "  replicas: 2\n"
    "  missing: \n"
    "\n"
    "---\n"
    "# Source: conform/templates/zz-multi.yaml\n"
    "apiVersion: example.com/v1\n"
    "kind: Alpha\n"
    "metadata:\n"
    "  name: a\n"
    "\n"
    "---\n"
    "# Source: conform/templates/zz-multi.yaml\n"
    "apiVersion: example.com/v1\n"
    "kind: Widget\n"
    "metadata:\n"
    "  name: w\n";

const char* const kTestHook =
    "---\n"
    "# Source: conform/templates/hooks.yaml\n"
    "apiVersion: v1\n"
    "kind: Pod\n"
    "metadata:\n"
    "  name: smoke\n"
    "  annotations:\n"
    "    helm.sh/hook: test\n"
    "spec: {}\n";

const char* const kInstallHook =
    "---\n"
    "# Source: conform/templates/hooks.yaml\n"
    "apiVersion: batch/v1\n"
    "kind: Job\n"
    "metadata:\n"
    "  name: migrate\n"
    "  annotations:\n"
    "    \"helm.sh/hook\": pre-install,pre-upgrade\n"
    "spec: {}\n";

render::helm::TemplateRequest named(const std::string& name, const std::string& ns) {
  render::helm::TemplateRequest req;
  req.release_name = name;
  req.ns = ns;
  return req;
}

}  // namespace

TEST_CASE("helm template: kinds in install order, unknown kinds last, hooks after everything",
          "[helm][conformance]") {
  Rendered r = helm_template(conform_chart(), named("rel", "team"));
  INFO(r.error);
  CHECK(r.error.empty());
  CHECK(r.out == std::string(kManifests) + kTestHook + kInstallHook);
}

TEST_CASE("helm template --skip-tests drops test hooks, --include-crds prints crds/ first",
          "[helm][conformance]") {
  auto req = named("rel", "team");
  req.skip_tests = true;
  req.include_crds = true;
  Rendered r = helm_template(conform_chart(), req);
  CHECK(r.out == std::string("---\n# Source: conform/crds/widget.yaml\n"
                             "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n"
                             "metadata:\n  name: widgets.example.com\n\n") +
                     kManifests + kInstallHook);
}

TEST_CASE("helm template --show-only: every matching document, in pattern order",
          "[helm][conformance]") {
  auto req = named("rel", "team");
  req.show_only = {"templates/service.yaml", "templates/zz-*"};
  Rendered r = helm_template(conform_chart(), req);
  CHECK(r.error.empty());
  const std::string out = r.out;
  CHECK(out.find("# Source: conform/templates/service.yaml") <
        out.find("# Source: conform/templates/zz-multi.yaml"));
  CHECK(out.find("kind: Deployment") == std::string::npos);
  std::size_t zz = 0;
  for (std::size_t at = 0; (at = out.find("zz-multi.yaml", at)) != std::string::npos; ++at) ++zz;
  CHECK(zz == 3);
  req.show_only = {"templates/nothing.yaml"};
  Rendered missing = helm_template(conform_chart(), req);
  CHECK(missing.error == "could not find template templates/nothing.yaml in chart");
}

TEST_CASE("helm template: --kube-version, --api-versions, --name-template, --set-file",
          "[helm][conformance]") {
  render::helm::TemplateRequest req;
  req.options.kube_version = "1.29";
  req.options.api_versions = {"example.com/v1,other.io/v2"};
  req.name_template = "nightly-{{ \"ab\" | upper }}";
  req.options.helm_set_file = {"motd=conform/motd.txt"};
  Rendered r = helm_template(conform_chart(), req);
  INFO(r.error);
  CHECK(r.out.find("  kube: v1.29.0\n  has: \"true\"\n") != std::string::npos);
  CHECK(r.out.find("  name: conform-nightly-AB\n  namespace: default\n") != std::string::npos);
  CHECK(r.out.find("  missing: \n  motd: \"welcome\"\n") != std::string::npos);

  req.options.kube_version = "1.19.3";
  Rendered old = helm_template(conform_chart(), req);
  CHECK(old.error ==
        "chart requires kubeVersion: >=1.20.0-0 which is incompatible with Kubernetes v1.19.3");
  CHECK(old.out.empty());
}

TEST_CASE("SplitManifests keeps what Helm keeps around `---`", "[helm][conformance]") {
  using render::helm::split_manifests;
  CHECK(split_manifests("a: 1\n---\nb: 2\n") == std::vector<std::string>{"a: 1", "b: 2\n"});
  CHECK(split_manifests("\n\n---\na: 1\n  \n---   \n\nb: 2") ==
        std::vector<std::string>{"a: 1", "b: 2"});
  // `---` glued to text still separates, as Helm's regular expression does.
  CHECK(split_manifests("a: 1\n---b: 2\n") == std::vector<std::string>{"a: 1", "b: 2\n"});
  CHECK(split_manifests("# only a comment\n") == std::vector<std::string>{"# only a comment\n"});
}

TEST_CASE("Go's path.Match as --show-only uses it", "[helm][conformance]") {
  using render::helm::go_path_match;
  CHECK(go_path_match("templates/*.yaml", "templates/a.yaml"));
  CHECK_FALSE(go_path_match("templates/*.yaml", "templates/sub/a.yaml"));
  CHECK(go_path_match("templates/sub/role*", "templates/sub/rolebinding.yaml"));
  CHECK(go_path_match("templates/[a-c]?.yaml", "templates/b1.yaml"));
  CHECK_FALSE(go_path_match("templates/[^a-c]?.yaml", "templates/b1.yaml"));
  CHECK(go_path_match("charts/\\*x", "charts/*x"));
}

TEST_CASE("sbreview render helm takes helm template's command line", "[helm][cli]") {
  std::ostringstream out, err;
  int code = run_cli({"render", "helm", "--namespace=ops", "-f", "/nonexistent/values.yaml", "demo",
                      "/nonexistent/chart"},
                     out, err);
  CHECK(code == 1);
  CHECK(err.str().find("no Chart.yaml") != std::string::npos);
  std::ostringstream out2, err2;
  CHECK(run_cli({"render", "helm", "--wait", "chart"}, out2, err2) == 2);
  CHECK(err2.str().find("unknown flag: --wait") != std::string::npos);
}

TEST_CASE("sbreview render helm renders a chart directory or a packaged chart", "[helm][cli]") {
  const std::string fixtures = std::string(SBR_SOURCE_DIR) + "/fixtures/helm";
  std::ostringstream out, err;
  int code = run_cli({"render", "helm", "ci", fixtures + "/sandbox-switches", "--set",
                      "debug.enabled=true", "-s", "templates/job.yaml"},
                     out, err);
  INFO(err.str());
  CHECK(code == 0);
  CHECK(out.str().rfind("---\n# Source: coding-agent/templates/job.yaml\n", 0) == 0);
  CHECK(out.str().find("  name: ci-coding-agent\n") != std::string::npos);
  CHECK(out.str().find("        - name: strace\n") != std::string::npos);
  CHECK(out.str().find("kind: NetworkPolicy") == std::string::npos);

  std::ostringstream packed, packed_err;
  code = run_cli({"render", "helm", fixtures + "/packaged-subchart/charts/redis-lite-1.2.0.tgz"},
                 packed, packed_err);
  INFO(packed_err.str());
  CHECK(code == 0);
  CHECK(packed.str().rfind("---\n# Source: redis-lite/templates/deployment.yaml\n", 0) == 0);
  CHECK(packed.str().find("  name: release-name-redis-lite\n") != std::string::npos);
}

}  // namespace helm_template_output_test
