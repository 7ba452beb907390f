// A switch's flipped render runs again only the templates that used the switch's value: the
// default render records which values each template used, and the flipped render takes the
// others' output from it. What it takes must be what a whole render would have printed.
#include <catch2/catch.hpp>

#include <algorithm>

#include "analyzer/render/helm/chart.h"
#include "analyzer/render/helm/chart_streams.h"
#include "analyzer/render/helm/switches.h"
#include "analyzer/render/helm/user_values.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace helm_switch_reuse_test {

using namespace sbr;
using namespace sbr::render::helm;

namespace {

struct Tree {
  SourceSet set;
  void add(const std::string& path, const std::string& bytes) {
    SourceFile f;
    f.id = static_cast<FileId>(set.files.size());
    f.path = path;
    f.bytes = bytes;
    f.readable = true;
    f.type = FileType::Yaml;
    set.files.push_back(f);
  }
};

// An agent chart in the style of `helm create`, with a vendored subchart (its own switch and a
// global one) and templates that read values every way charts do.
Tree agent_chart() {
  Tree t;
  t.add("deploy/agent/Chart.yaml",
        "apiVersion: v2\nname: agent\nversion: 0.3.0\ndependencies:\n"
        "  - name: proxy\n    version: 1.x\n");
  t.add("deploy/agent/values.yaml",
        "nameOverride: \"\"\n"
        "debug:\n  enabled: false\n  level: info\n"
        "autoscaling:\n  enabled: false\n"
        "hostNetwork: false\n"
        "podSecurityContext: {runAsNonRoot: true}\n"
        "global:\n  strict: true\n"
        "proxy:\n  audit: true\n");
  t.add("deploy/agent/templates/_helpers.tpl",
        "{{- define \"agent.name\" -}}\n"
        "{{- default .Chart.Name .Values.nameOverride | trunc 63 }}\n"
        "{{- end }}\n"
        "{{- define \"agent.net\" -}}\n"
        "{{- if .Values.hostNetwork }}hostNetwork: true{{ end }}\n"
        "{{- end }}\n");
  t.add("deploy/agent/templates/deployment.yaml",
        "kind: Deployment\n"
        "metadata:\n  name: {{ include \"agent.name\" . }}\n"
        "spec:\n"
        "  {{- if not .Values.autoscaling.enabled }}\n  replicas: 1\n  {{- end }}\n"
        "  template:\n    spec:\n      {{- include \"agent.net\" . | nindent 6 }}\n"
        "      securityContext: {{- toYaml .Values.podSecurityContext | nindent 8 }}\n");
  t.add("deploy/agent/templates/configmap.yaml",
        "kind: ConfigMap\n"
        "metadata:\n  name: {{ include \"agent.name\" . }}-debug\n"
        "data:\n  {{- toYaml .Values.debug | nindent 2 }}\n");
  t.add("deploy/agent/templates/service.yaml",
        "kind: Service\nmetadata:\n  name: {{ include \"agent.name\" . }}\n"
        "spec:\n  ports: [{port: 8080}]\n");
  t.add("deploy/agent/templates/everything.yaml",
        "kind: ConfigMap\nmetadata:\n  name: all-values\n"
        "data:\n  values: {{ index .Values \"debug\" | toJson | quote }}\n");
  t.add("deploy/agent/charts/proxy/Chart.yaml", "apiVersion: v2\nname: proxy\nversion: 1.2.0\n");
  t.add("deploy/agent/charts/proxy/values.yaml", "audit: false\nlisten: 3128\n");
  t.add("deploy/agent/charts/proxy/templates/proxy.yaml",
        "kind: ConfigMap\nmetadata:\n  name: proxy\n"
        "data:\n  listen: {{ .Values.listen | quote }}\n"
        "  {{- if .Values.audit }}\n  audit: \"on\"\n  {{- end }}\n"
        "  {{- with $.Values.global }}\n  strict: {{ .strict | quote }}\n  {{- end }}\n");
  return t;
}

struct Loaded {
  Chart chart;
  Value values;
  Rendering base;
};

Loaded load(const Tree& t) {
  Loaded l;
  REQUIRE(load_chart(t.set, "deploy/agent", l.chart));
  import_values(l.chart);
  render::RenderOutput out;
  REQUIRE(user_values(t.set, render::RenderOptions{}, l.chart, l.values, out));
  ChartSettings settings;
  settings.record_guards = true;
  l.base = render_values(l.chart, l.values, settings);
  REQUIRE(l.base.render.problems.empty());
  return l;
}

Value flipped(const Value& values, const std::string& path) {
  Value copy = deep_copy(values);
  Value v = *find_path(values, path);
  v.b = !v.b;
  set_path(copy, path, v);
  return copy;
}

std::vector<std::string> names(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  return v;
}

}  // namespace

TEST_CASE("the default render records which templates used each value", "[helm][switches]") {
  Tree t = agent_chart();
  Loaded l = load(t);
  using V = std::vector<std::string>;
  // A guard in the template's own text.
  CHECK(names(switch_readers(l.chart, l.base.render, "autoscaling.enabled")) ==
        V{"agent/templates/deployment.yaml", "agent/templates/everything.yaml"});
  // A guard in a helper the template includes; `toYaml` of the map that holds the value.
  CHECK(names(switch_readers(l.chart, l.base.render, "hostNetwork")) ==
        V{"agent/templates/deployment.yaml", "agent/templates/everything.yaml"});
  CHECK(names(switch_readers(l.chart, l.base.render, "debug.enabled")) ==
        V{"agent/templates/configmap.yaml", "agent/templates/everything.yaml"});
  // A subchart's value, seen from the top, and a global read through `$`.
  CHECK(names(switch_readers(l.chart, l.base.render, "proxy.audit")) ==
        V{"agent/charts/proxy/templates/proxy.yaml", "agent/templates/everything.yaml"});
  CHECK(names(switch_readers(l.chart, l.base.render, "global.strict")) ==
        V{"agent/charts/proxy/templates/proxy.yaml", "agent/templates/everything.yaml"});
  CHECK_FALSE(l.base.render.shared_state);
}

TEST_CASE("a flipped render that reruns the readers alone prints what a whole render prints",
          "[helm][switches]") {
  Tree t = agent_chart();
  Loaded l = load(t);
  for (const char* path :
       {"autoscaling.enabled", "hostNetwork", "debug.enabled", "proxy.audit", "global.strict"}) {
    INFO(path);
    Value values = flipped(l.values, path);
    Rendering whole = render_values(l.chart, values, ChartSettings{});
    std::vector<std::string> rerun = switch_readers(l.chart, l.base.render, path);
    ChartSettings partial;
    partial.reuse = &l.base.render;
    partial.rerun = &rerun;
    Rendering part = render_values(l.chart, values, partial);
    REQUIRE(part.render.templates.size() == whole.render.templates.size());
    bool changed = false;
    for (std::size_t k = 0; k < whole.render.templates.size(); ++k) {
      const RenderedTemplate& a = whole.render.templates[k];
      const RenderedTemplate& b = part.render.templates[k];
      CHECK(a.name == b.name);
      CHECK(a.out.text == b.out.text);
      CHECK(a.out.spans.size() == b.out.spans.size());
      changed = changed || a.out.text != l.base.render.templates[k].out.text;
    }
    CHECK(changed);  // each of these switches changes some output
  }
}

TEST_CASE("a flipped render takes the other templates' output from the default render",
          "[helm][switches]") {
  Tree t = agent_chart();
  Loaded l = load(t);
  // Mark the default render's Service: a rerun would print it afresh, a reuse keeps the mark.
  ChartRender marked = l.base.render;
  for (RenderedTemplate& r : marked.templates) {
    if (r.name == "agent/templates/service.yaml") r.out.text += "# reused\n";
  }
  std::vector<std::string> rerun = switch_readers(l.chart, marked, "debug.enabled");
  ChartSettings partial;
  partial.reuse = &marked;
  partial.rerun = &rerun;
  Rendering part = render_values(l.chart, flipped(l.values, "debug.enabled"), partial);
  for (const RenderedTemplate& r : part.render.templates) {
    bool reused = r.out.text.find("# reused") != std::string::npos;
    CHECK(reused == (r.name == "agent/templates/service.yaml"));
  }
}

TEST_CASE("a template that changes shared state makes every template render again",
          "[helm][switches]") {
  Tree t = agent_chart();
  t.add("deploy/agent/templates/zz-defaults.yaml",
        "{{- $_ := set .Values \"nameOverride\" \"changed\" }}\n");
  Loaded l = load(t);
  CHECK(l.base.render.shared_state);
  ChartRender marked = l.base.render;
  for (RenderedTemplate& r : marked.templates) r.out.text += "# reused\n";
  std::vector<std::string> rerun;  // even with nothing named, nothing is taken over
  ChartSettings partial;
  partial.reuse = &marked;
  partial.rerun = &rerun;
  Rendering part = render_values(l.chart, flipped(l.values, "debug.enabled"), partial);
  REQUIRE_FALSE(part.render.templates.empty());
  for (const RenderedTemplate& r : part.render.templates)
    CHECK(r.out.text.find("# reused") == std::string::npos);
}

}  // namespace helm_switch_reuse_test
