// Placeholders that decide a guard (issue 31 §3): `.Release.IsUpgrade`, `IsInstall` and
// `Revision` are a switch (the chart is rendered once more as an upgrade); `lookup`, `now` and
// the random functions are reported at the guard they decide (SB0020).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "analyzer/check/catalog.h"
#include "analyzer/check/runner.h"
#include "analyzer/pipeline/analysis.h"
#include "analyzer/render/helm/helm.h"
#include "analyzer/source/memory_tree.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace helm_placeholders_test {

using namespace sbr;

namespace {

// A hardened pod whose `spec` is completed by `extra` (a guarded privileged container).
MemoryTree pod_chart(const std::string& extra, const std::string& helpers = "") {
  MemoryTree t;
  t.add_file("c/Chart.yaml", "apiVersion: v2\nname: c\nversion: 1.0.0\n");
  t.add_file("c/values.yaml", "migrate: {enabled: false}\n");
  if (!helpers.empty()) t.add_file("c/templates/_helpers.tpl", helpers);
  t.add_file("c/templates/pod.yaml",
             "apiVersion: v1\n"
             "kind: Pod\n"
             "metadata:\n"
             "  name: agent\n"
             "spec:\n"
             "  automountServiceAccountToken: false\n"
             "  containers:\n"
             "    - name: agent\n"
             "      image: ghcr.io/example/agent:1.0\n" +
                 extra);
  return t;
}

// A chart of one template, `c/templates/t.yaml`, over `values`.
MemoryTree one_template(const std::string& values, const std::string& templ) {
  MemoryTree t;
  t.add_file("c/Chart.yaml", "apiVersion: v2\nname: c\nversion: 1.0.0\n");
  t.add_file("c/values.yaml", values);
  t.add_file("c/templates/t.yaml", templ);
  return t;
}

const char* const kPrivileged =
    "    - name: migrate\n"
    "      image: ghcr.io/example/agent:1.0\n"
    "      securityContext:\n"
    "        privileged: true\n";

struct Outcome {
  Analysis an;
  std::vector<Finding> findings;
};

Outcome review(const MemoryTree& t) {
  Config config;
  Outcome r{analyze(t, config, {}), {}};
  r.findings = run_checks(r.an.model, Catalog::embedded(), config, {"2026-01-01"});
  return r;
}

std::vector<const Finding*> findings_of(const Outcome& r, const std::string& rule) {
  std::vector<const Finding*> out;
  for (const Finding& f : r.findings) {
    if (f.rule_id.str() == rule) out.push_back(&f);
  }
  return out;
}

// The conditions of the streams a chart renders into ("" for the default render).
std::vector<std::string> stream_conditions(const MemoryTree& t, render::RenderOutput& out) {
  FileTable files;
  SourceSet sources = walk_trees({{&t, "", ""}}, WalkOptions{}, files);
  render::render_helm_charts(sources, render::RenderOptions{}, out);
  std::vector<std::string> conditions;
  for (const auto& s : out.streams) conditions.push_back(s.condition.text);
  return conditions;
}

}  // namespace

TEST_CASE("a privileged container only an upgrade renders is a conditional finding",
          "[helm][placeholder]") {
  Outcome r = review(
      pod_chart("  {{- if .Release.IsUpgrade }}\n" + std::string(kPrivileged) + "  {{- end }}\n"));
  auto privileged = findings_of(r, "SB1001");
  REQUIRE(privileged.size() == 1);
  const Finding& f = *privileged[0];
  CHECK(f.severity == Severity::High);  // critical, one level lower: it needs an upgrade
  CHECK(f.condition().needs_switch);
  CHECK(f.condition().text == "when `.Release.IsUpgrade=true`");
  CHECK(f.at.line == 14);  // `privileged: true`
  CHECK(findings_of(r, "SB0020").empty());
}

TEST_CASE("IsInstall read through a helper's dict context decides a guard", "[helm][placeholder]") {
  // bitnami's style: `(dict "context" $)` and `.context.Release...` in a define.
  MemoryTree t = pod_chart("  {{- if not (include \"c.firstInstall\" (dict \"context\" $)) }}\n" +
                               std::string(kPrivileged) + "  {{- end }}\n",
                           "{{- define \"c.firstInstall\" -}}\n"
                           "{{- if .context.Release.IsInstall }}true{{ end -}}\n"
                           "{{- end -}}\n");
  Outcome r = review(t);
  auto privileged = findings_of(r, "SB1001");
  REQUIRE(privileged.size() == 1);
  CHECK(privileged[0]->condition().text == "when `.Release.IsUpgrade=true`");
}

TEST_CASE("ternary's condition on an upgrade placeholder is a switch", "[helm][placeholder]") {
  Outcome r = review(pod_chart(
      "    - name: migrate\n"
      "      image: ghcr.io/example/agent:1.0\n"
      "      securityContext:\n"
      "        privileged: {{ ternary \"true\" \"false\" (gt (int .Release.Revision) 1) }}\n"));
  auto privileged = findings_of(r, "SB1001");
  REQUIRE(privileged.size() == 1);
  CHECK(privileged[0]->condition().text == "when `.Release.IsUpgrade=true`");
}

TEST_CASE("a guard that lookup or now decides is an SB0020 finding at the guard",
          "[helm][placeholder]") {
  MemoryTree t =
      one_template("name: state\n",
                   "{{- if not (lookup \"v1\" \"ConfigMap\" .Release.Namespace .Values.name) }}\n"
                   "kind: ConfigMap\n"
                   "metadata: {name: state}\n"
                   "{{- else }}\n"
                   "kind: ConfigMap\n"
                   "metadata: {name: state-seen}\n"
                   "{{- end }}\n"
                   "{{- if ne (now | date \"2006\") \"2000\" }}\n"
                   "---\n"
                   "kind: ConfigMap\n"
                   "metadata: {name: y2k}\n"
                   "{{- end }}\n");
  Outcome r = review(t);
  auto notes = findings_of(r, "SB0020");
  REQUIRE(notes.size() == 2);
  CHECK(notes[0]->at.line == 1);
  CHECK(notes[0]->message.find("decided by `lookup`, which is empty here") != std::string::npos);
  CHECK(notes[0]->message.find("it rendered the true one") != std::string::npos);
  CHECK(notes[1]->at.line == 8);
  CHECK(notes[1]->message.find("decided by `now`") != std::string::npos);
  CHECK(notes[0]->severity == Severity::Low);
}

TEST_CASE("a variable set from a placeholder carries it to the guard that reads it",
          "[helm][placeholder]") {
  // kagenti's operators and kata-deploy: `$ns := lookup ...` first, `if $ns` later.
  MemoryTree lookup = one_template(
      "name: state\n",
      "{{- $existing := lookup \"v1\" \"ConfigMap\" .Release.Namespace .Values.name -}}\n"
      "{{- $seen := $existing -}}\n"
      "{{- if $seen }}\n"
      "kind: ConfigMap\n"
      "metadata: {name: state-seen}\n"
      "{{- end }}\n");
  Outcome seen = review(lookup);
  auto notes = findings_of(seen, "SB0020");
  REQUIRE(notes.size() == 1);
  CHECK(notes[0]->at.line == 3);
  CHECK(notes[0]->message.find("decided by `lookup`") != std::string::npos);
  CHECK(notes[0]->message.find("it rendered the false one") != std::string::npos);

  Outcome upgrade =
      review(pod_chart("  {{- $upgrading := .Release.IsUpgrade }}\n"
                       "  {{- if $upgrading }}\n" +
                       std::string(kPrivileged) + "  {{- end }}\n"));
  auto privileged = findings_of(upgrade, "SB1001");
  REQUIRE(privileged.size() == 1);
  CHECK(privileged[0]->condition().text == "when `.Release.IsUpgrade=true`");
}

TEST_CASE("a placeholder guard whose other branch writes nothing is not reported",
          "[helm][placeholder]") {
  // Create-if-missing (`if not (lookup ...)` without else) and a branch that only fails: the
  // branch a real install could take instead has nothing to review.
  MemoryTree t = one_template(
      "ns: agents\n",
      "{{- $ns := lookup \"v1\" \"Namespace\" \"\" .Values.ns }}\n"
      "{{- if and $ns (eq ($ns.status.phase | default \"Active\") \"Terminating\") }}\n"
      "{{- fail \"the namespace is terminating\" }}\n"
      "{{- end }}\n"
      "{{- if not $ns }}\n"
      "apiVersion: v1\nkind: Namespace\n"
      "metadata: {name: agents}\n"
      "{{- end }}\n");
  Outcome r = review(t);
  CHECK(findings_of(r, "SB0020").empty());
  REQUIRE(r.an.model.cluster.namespaces.size() == 1);  // the branch the render takes is read
  CHECK(r.an.model.cluster.namespaces[0].ref.name == "agents");
}

TEST_CASE("placeholders outside guards and the release name decide nothing",
          "[helm][placeholder]") {
  // The fullname helper of `helm create` guards on the release name in nearly every chart.
  MemoryTree t =
      pod_chart("  {{- if contains \"agent\" .Release.Name }}\n" + std::string(kPrivileged) +
                "  {{- end }}\n"
                "  # revision {{ .Release.Revision }}, token {{ randAlphaNum 8 }}, {{ uuidv4 }}\n");
  Outcome r = review(t);
  CHECK(findings_of(r, "SB0020").empty());
  CHECK(findings_of(r, "SB1001").empty());
  render::RenderOutput out;
  CHECK(stream_conditions(t, out) == std::vector<std::string>{""});
}

TEST_CASE("the upgrade render comes before the value switches", "[helm][placeholder]") {
  MemoryTree t = pod_chart("  {{- if or .Release.IsUpgrade .Values.migrate.enabled }}\n" +
                           std::string(kPrivileged) + "  {{- end }}\n");
  render::RenderOutput out;
  CHECK(stream_conditions(t, out) == std::vector<std::string>{"", "when `.Release.IsUpgrade=true`",
                                                              "when `migrate.enabled=true`"});
  CHECK(out.problems.empty());
}

}  // namespace helm_placeholders_test
