// Switches: a boolean value that guards template content is also rendered flipped, and what
// only the flipped render shows is a conditional finding one severity lower; a field a guard
// left out is reported at the guard, with the values key as a related location.
#include <catch2/catch.hpp>

#include <algorithm>

#include "analyzer/check/catalog.h"
#include "analyzer/check/runner.h"
#include "analyzer/pipeline/analysis.h"
#include "analyzer/render/helm/helm.h"
#include "analyzer/source/memory_tree.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace helm_switches_test {

using namespace sbr;

namespace {

// A hardened agent Deployment whose debug sidecar and host network are switches.
MemoryTree agent_chart(const std::string& values) {
  MemoryTree t;
  t.add_file("chart/Chart.yaml", "apiVersion: v2\nname: agent\nversion: 1.0.0\n");
  t.add_file("chart/values.yaml", values);
  t.add_file("chart/templates/deployment.yaml",
             "apiVersion: apps/v1\n"
             "kind: Deployment\n"
             "metadata:\n"
             "  name: agent\n"
             "spec:\n"
             "  selector:\n"
             "    matchLabels: {app: agent}\n"
             "  template:\n"
             "    metadata:\n"
             "      labels: {app: agent}\n"
             "    spec:\n"
             "      automountServiceAccountToken: false\n"
             "      {{- with .Values.runtimeClassName }}\n"
             "      runtimeClassName: {{ . }}\n"
             "      {{- end }}\n"
             "      {{- with .Values.hostNetwork }}\n"
             "      hostNetwork: {{ . }}\n"
             "      {{- end }}\n"
             "      securityContext:\n"
             "        runAsNonRoot: true\n"
             "        runAsUser: 10001\n"
             "        seccompProfile: {type: RuntimeDefault}\n"
             "      containers:\n"
             "        - name: agent\n"
             "          image: ghcr.io/example/agent:1.0\n"
             "          {{- if .Values.securityContext.enabled }}\n"
             "          securityContext:\n"
             "            allowPrivilegeEscalation: false\n"
             "            readOnlyRootFilesystem: true\n"
             "            capabilities: {drop: [ALL]}\n"
             "          {{- end }}\n"
             "          resources:\n"
             "            limits: {cpu: '1', memory: 1Gi, ephemeral-storage: 1Gi}\n"
             "        {{- if .Values.debug.enabled }}\n"
             "        - name: debug\n"
             "          image: busybox:1.36\n"
             "          securityContext:\n"
             "            privileged: true\n"
             "        {{- end }}\n");
  return t;
}

const char* const kValues =
    "runtimeClassName: gvisor\n"
    "hostNetwork: false\n"
    "securityContext:\n"
    "  enabled: true\n"
    "debug:\n"
    "  enabled: false\n";

struct Run {
  Analysis an;
  std::vector<Finding> findings;
};

Run check(const MemoryTree& t, AnalyzeOptions ao = {}) {
  Config config;
  Run r{analyze(t, config, ao), {}};
  r.findings = run_checks(r.an.model, Catalog::embedded(), config, {"2026-01-01"});
  return r;
}

std::vector<const Finding*> of_rule(const Run& r, const std::string& rule) {
  std::vector<const Finding*> out;
  for (const Finding& f : r.findings) {
    if (f.rule_id.str() == rule) out.push_back(&f);
  }
  return out;
}

std::uint32_t line_of(const std::string& text, const std::string& needle) {
  auto at = text.find(needle);
  REQUIRE(at != std::string::npos);
  return static_cast<std::uint32_t>(std::count(text.begin(), text.begin() + at, '\n')) + 1;
}

std::string file_text(const MemoryTree& t, const std::string& path) {
  std::string bytes;
  t.read(path, 1 << 20, bytes);
  return bytes;
}

}  // namespace

TEST_CASE("a finding only a flipped switch causes is conditional, one level lower",
          "[helm][switch]") {
  MemoryTree t = agent_chart(kValues);
  Run r = check(t);
  auto privileged = of_rule(r, "SB1001");
  REQUIRE(privileged.size() == 1);
  const Finding& f = *privileged[0];
  CHECK(f.severity == Severity::High);  // critical, one level lower: it needs the switch
  CHECK(f.condition().needs_switch);
  CHECK(f.condition().text == "when `debug.enabled=true`");
  CHECK(f.message.find("[only when `debug.enabled=true`, a non-default switch]") !=
        std::string::npos);
  CHECK(r.an.model.files.path(f.at.file) == "chart/templates/deployment.yaml");

  auto host_network = of_rule(r, "SB1003");
  REQUIRE(host_network.size() == 1);
  CHECK(host_network[0]->condition().text == "when `hostNetwork=true`");
  // `hostNetwork: {{ . }}` printed the flipped value: reported at its values line.
  CHECK(r.an.model.files.path(host_network[0]->at.file) == "chart/values.yaml");
  CHECK(host_network[0]->at.line == line_of(kValues, "hostNetwork:"));
}

TEST_CASE("findings of the default render are not repeated by flipped renders", "[helm][switch]") {
  // No NetworkPolicy: the default render reports open egress; every flipped render would
  // report it again for the same container, and must not.
  Run r = check(agent_chart(kValues));
  for (const Finding& f : r.findings) {
    if (f.condition().always()) continue;
    for (const Finding& g : r.findings) {
      if (!g.condition().always()) continue;
      INFO(f.rule_id.str() << " " << f.message);
      CHECK_FALSE(
          (g.rule_id == f.rule_id && g.identity == f.identity && g.fact_path == f.fact_path));
    }
  }
  // The flipped renders themselves exist: the debug container's findings are conditional.
  CHECK(std::any_of(r.findings.begin(), r.findings.end(), [](const Finding& f) {
    return f.label.view().find("debug") != std::string_view::npos;
  }));
}

TEST_CASE("a switch whose flipped output is the same adds nothing, the bound is reported",
          "[helm][switch]") {
  MemoryTree t;
  t.add_file("c/Chart.yaml", "apiVersion: v2\nname: c\nversion: 1.0.0\n");
  t.add_file("c/values.yaml", "a: true\nb: false\nc: false\nname: x\n");
  t.add_file("c/templates/cm.yaml",
             "kind: ConfigMap\n"
             "{{- if .Values.a }}{{ end }}\n"  // guards nothing: flipping it changes nothing
             "{{- if .Values.b }}\nb: on{{ end }}\n"
             "{{- if .Values.c }}\nc: on{{ end }}\n"
             "{{- if .Values.name }}\nname: set{{ end }}\n");  // a string guard: no switch
  SourceSet sources;
  FileTable files;
  sources = walk_trees({{&t, "", ""}}, WalkOptions{}, files);
  render::RenderOptions o;
  render::RenderOutput out;
  render::render_helm_charts(sources, o, out);
  std::vector<std::string> conditions;
  for (const auto& s : out.streams) conditions.push_back(s.condition.text);
  CHECK(conditions == std::vector<std::string>{"", "when `b=true`", "when `c=true`"});
  CHECK(out.problems.empty());

  o.max_switches = 1;
  render::RenderOutput bounded;
  render::render_helm_charts(sources, o, bounded);
  REQUIRE(bounded.problems.size() == 1);
  CHECK(bounded.problems[0].kind == ProblemKind::SwitchNotRendered);
  CHECK(bounded.problems[0].message.find("`b`") != std::string::npos);
  CHECK(bounded.problems[0].at.line == 3);  // the guard of the first switch not flipped
}

TEST_CASE("a template that fails only with a switch flipped is an SB0020 finding",
          "[helm][switch]") {
  MemoryTree t;
  t.add_file("c/Chart.yaml", "apiVersion: v2\nname: c\nversion: 1.0.0\n");
  t.add_file("c/values.yaml", "ingress:\n  enabled: false\n");
  t.add_file("c/templates/ingress.yaml",
             "{{- if .Values.ingress.enabled }}\n"
             "kind: Ingress\n"
             "host: {{ required \"ingress.host is required\" .Values.ingress.host }}\n"
             "{{- end }}\n");
  t.add_file("c/templates/cm.yaml", "kind: ConfigMap\nmetadata: {name: c}\n");
  Run r = check(t);
  auto sb0020 = of_rule(r, "SB0020");
  REQUIRE(sb0020.size() == 1);
  CHECK(sb0020[0]->message.find("`ingress.enabled=true`") != std::string::npos);
  CHECK(sb0020[0]->message.find("ingress.host is required") != std::string::npos);
  CHECK(of_rule(r, "SB0011").empty());  // the default render is fine
}

TEST_CASE("a flipped render's objects shape only its own workloads", "[helm][switch]") {
  MemoryTree t = agent_chart(kValues);
  t.add_file("chart/templates/netpol.yaml",
             "{{- if .Values.networkPolicy.enabled }}\n"
             "apiVersion: networking.k8s.io/v1\n"
             "kind: NetworkPolicy\n"
             "metadata:\n"
             "  name: deny\n"
             "spec:\n"
             "  podSelector: {}\n"
             "  policyTypes: [Egress, Ingress]\n"
             "{{- end }}\n");
  t.add_file("chart/values.yaml", std::string(kValues) + "networkPolicy:\n  enabled: false\n");
  Run r = check(t);
  // Without the policy (the default), egress is open for the agent: reported unconditionally,
  // whatever the flipped render with the policy says.
  auto egress = of_rule(r, "SB5011");
  REQUIRE_FALSE(egress.empty());
  CHECK(std::any_of(egress.begin(), egress.end(),
                    [](const Finding* f) { return f->condition().always(); }));
}

TEST_CASE("a field a guard left out is reported at the guard, the values key related",
          "[helm][guard]") {
  const std::string values =
      "runtimeClassName: \"\"\n"
      "hostNetwork: false\n"
      "securityContext:\n"
      "  enabled: false\n"
      "debug:\n"
      "  enabled: false\n";
  MemoryTree t = agent_chart(values);
  const std::string tmpl = file_text(t, "chart/templates/deployment.yaml");
  AnalyzeOptions ao;
  ao.render.switches = false;
  Run r = check(t, ao);

  auto runtime = of_rule(r, "SB1006");
  REQUIRE(runtime.size() == 1);
  CHECK(r.an.model.files.path(runtime[0]->at.file) == "chart/templates/deployment.yaml");
  CHECK(runtime[0]->at.line == line_of(tmpl, "{{- with .Values.runtimeClassName }}"));
  REQUIRE(runtime[0]->via().size() == 1);
  CHECK(runtime[0]->via()[0].role == StepRole::Values);
  CHECK(r.an.model.files.path(runtime[0]->via()[0].at.file) == "chart/values.yaml");
  CHECK(runtime[0]->via()[0].at.line == 1);
  CHECK(runtime[0]->via()[0].note == "runtimeClassName");

  // No securityContext: every missing container field lands at the guard.
  const std::uint32_t guard = line_of(tmpl, "{{- if .Values.securityContext.enabled }}");
  for (const char* rule : {"SB2001", "SB2005", "SB2008"}) {
    auto found = of_rule(r, rule);
    INFO(rule);
    REQUIRE(found.size() == 1);
    CHECK(found[0]->at.line == guard);
    REQUIRE_FALSE(found[0]->via().empty());
    CHECK(found[0]->via()[0].at.line == line_of(values, "enabled: false"));
  }
}

}  // namespace helm_switches_test
