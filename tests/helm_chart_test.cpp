// Chart semantics and the integration contract: chart roots, subcharts, globals, library
// charts, dependency conditions, value precedence, consumed files, failures, the source map.
#include <catch2/catch.hpp>

#include <algorithm>

#include "analyzer/render/helm/helm.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace helm_chart_test {

using namespace sbr;

namespace {

struct Tree {
  SourceSet set;
  FileId add(const std::string& path, const std::string& bytes) {
    SourceFile f;
    f.id = static_cast<FileId>(set.files.size());
    f.path = path;
    f.bytes = bytes;
    f.readable = true;
    f.type = FileType::Yaml;
    set.files.push_back(f);
    return f.id;
  }
  // As the walk gives them: sorted by path, files[i].id == i.
  void sort_by_path() {
    std::sort(set.files.begin(), set.files.end(),
              [](const SourceFile& a, const SourceFile& b) { return a.path < b.path; });
    for (std::size_t k = 0; k < set.files.size(); ++k) set.files[k].id = static_cast<FileId>(k);
  }
  FileId id(const std::string& path) const {
    for (const SourceFile& f : set.files) {
      if (f.path == path) return f.id;
    }
    return kNoFile;
  }
};

render::RenderOutput render_charts(const Tree& t, const render::RenderOptions& o = {}) {
  render::RenderOutput out;
  render::render_helm_charts(t.set, o, out);
  return out;
}

const render::RenderedStream* stream(const render::RenderOutput& out, const std::string& source) {
  for (const auto& s : out.streams) {
    if (s.text.rfind("# Source: " + source + "\n", 0) == 0) return &s;
  }
  return nullptr;
}

// The output line (1-based) holding `needle`.
std::uint32_t line_of(const std::string& text, const std::string& needle) {
  auto at = text.find(needle);
  REQUIRE(at != std::string::npos);
  return static_cast<std::uint32_t>(
             std::count(text.begin(), text.begin() + static_cast<long>(at), '\n')) +
         1;
}

Tree agent_chart() {
  Tree t;
  t.add("deploy/agent/Chart.yaml",
        "apiVersion: v2\nname: agent\nversion: 1.0.0\ndependencies:\n  - name: proxy\n    "
        "condition: proxy.enabled\n  - name: lib\n");
  t.add("deploy/agent/charts/lib/Chart.yaml",
        "apiVersion: v2\nname: lib\nversion: 0.1.0\ntype: library\n");
  t.add("deploy/agent/charts/lib/templates/_names.tpl",
        "{{- define \"lib.tier\" -}}tier-{{ .Values.global.tier }}{{- end -}}\n");
  t.add("deploy/agent/charts/proxy/Chart.yaml", "apiVersion: v2\nname: proxy\nversion: 0.2.0\n");
  t.add("deploy/agent/charts/proxy/values.yaml", "port: 3128\nglobal:\n  tier: sub\n");
  t.add("deploy/agent/charts/proxy/templates/svc.yaml",
        "kind: Service\nport: {{ .Values.port }}\ntier: {{ .Values.global.tier }}\n");
  t.add("deploy/agent/templates/NOTES.txt", "Thanks {{ .Release.Name }}\n");
  t.add("deploy/agent/templates/_helpers.tpl",
        "{{- define \"agent.name\" -}}{{ .Release.Name }}-{{ .Chart.Name }}{{- end -}}\n");
  t.add("deploy/agent/templates/pod.yaml",
        "apiVersion: v1\n"
        "kind: Pod\n"
        "metadata:\n"
        "  name: {{ include \"agent.name\" . }}\n"
        "  labels:\n"
        "    tier: {{ include \"lib.tier\" . }}\n"
        "spec:\n"
        "  containers:\n"
        "    - name: agent\n"
        "      image: {{ .Values.image | quote }}\n"
        "      securityContext:\n"
        "        {{- toYaml .Values.securityContext | nindent 8 }}\n");
  t.add("deploy/agent/templates/tests/t.yaml", "kind: Pod\n");
  t.add("deploy/agent/values.yaml",
        "image: agent:1\n"
        "global:\n"
        "  tier: top\n"
        "proxy:\n"
        "  enabled: true\n"
        "securityContext:\n"
        "  runAsUser: 0\n"
        "  privileged: true\n");
  t.add("deploy/agent/files/entry.sh", "#!/bin/sh\n");
  t.sort_by_path();
  return t;
}

}  // namespace

TEST_CASE("a chart renders one stream per template, as helm template names them", "[helm][chart]") {
  Tree t = agent_chart();
  auto out = render_charts(t);
  INFO((out.problems.empty() ? "" : out.problems[0].message));
  CHECK(out.problems.empty());
  // pod.yaml, the proxy's svc.yaml and tests/t.yaml (helm installs it: it is no test hook
  // without the annotation, and a test hook runs in the cluster too); not NOTES or partials.
  REQUIRE(out.streams.size() == 3);
  CHECK(stream(out, "agent/templates/tests/t.yaml"));
  const auto* pod = stream(out, "agent/templates/pod.yaml");
  REQUIRE(pod);
  CHECK(pod->root == "deploy/agent");
  CHECK(pod->engine == "helm");
  CHECK(pod->text.find("name: release-name-agent\n") != std::string::npos);
  CHECK(pod->text.find("tier: tier-top\n") != std::string::npos);  // a library chart's define
  CHECK(pod->text.find("image: \"agent:1\"\n") != std::string::npos);
  CHECK(
      pod->text.find("      securityContext:\n        privileged: true\n        runAsUser: 0\n") !=
      std::string::npos);
  const auto* svc = stream(out, "agent/charts/proxy/templates/svc.yaml");
  REQUIRE(svc);
  CHECK(svc->text ==
        "# Source: agent/charts/proxy/templates/svc.yaml\nkind: Service\nport: 3128\ntier: top\n");
}

TEST_CASE("a template file is a template of its own name: the checksum idiom renders",
          "[helm][chart]") {
  Tree t;
  t.add("agent/Chart.yaml", "apiVersion: v2\nname: agent\nversion: 1.0.0\n");
  t.add("agent/values.yaml", "mode: strict\n");
  t.add("agent/templates/configmap.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: agent-config\ndata:\n"
        "  mode: {{ .Values.mode }}\n");
  t.add("agent/templates/deployment.yaml",
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: agent\nspec:\n"
        "  template:\n    metadata:\n      annotations:\n"
        "        checksum/config: {{ include (print $.Template.BasePath \"/configmap.yaml\") . "
        "| sha256sum }}\n");
  auto out = render_charts(t);
  INFO((out.problems.empty() ? "" : out.problems[0].message));
  CHECK(out.problems.empty());
  const auto* deployment = stream(out, "agent/templates/deployment.yaml");
  REQUIRE(deployment);
  // sha256 of the configmap as rendered (`printf ... | sha256sum` of the text below).
  CHECK(deployment->text.find("checksum/config: "
                              "ddb7a9b341038e9756dbd674c9619f91c18918ca3bb7ec8d7f9c1a4c6bf82fb2") !=
        std::string::npos);
}

TEST_CASE(".helmignore leaves out what helm leaves out of the chart", "[helm][chart]") {
  Tree t;
  t.add("agent/.helmignore", "# editor files\n*.swp\ntemplates/legacy/\n/ci\n");
  t.add("agent/Chart.yaml", "apiVersion: v2\nname: agent\nversion: 1.0.0\n");
  t.add("agent/ci", "not part of the chart\n");
  t.add("agent/files/a.conf", "x=1\n");
  t.add("agent/files/a.conf.swp", "junk\n");
  t.add("agent/templates/.pod.yaml.bak", "kind: Pod\n");  // helm's default: dotfiles
  t.add("agent/templates/legacy/pod.yaml", "kind: Pod\nmetadata:\n  name: old\n");
  t.add(
      "agent/templates/cm.yaml",
      "kind: ConfigMap\nconf: {{ .Files.Get \"files/a.conf\" | quote }}\n"
      "swp: {{ .Files.Get \"files/a.conf.swp\" | quote }}\nci: {{ .Files.Get \"ci\" | quote }}\n");
  t.sort_by_path();
  auto out = render_charts(t);
  INFO((out.problems.empty() ? "" : out.problems[0].message));
  CHECK(out.problems.empty());
  REQUIRE(out.streams.size() == 1);  // cm.yaml: not the ignored folder, not the dotfile
  const auto* cm = stream(out, "agent/templates/cm.yaml");
  REQUIRE(cm);
  CHECK(cm->text.find("conf: \"x=1\\n\"") != std::string::npos);
  CHECK(cm->text.find("swp: \"\"") != std::string::npos);  // *.swp
  CHECK(cm->text.find("ci: \"\"") != std::string::npos);   // /ci, rooted
  // The ignored template is consumed all the same: its text is not read as raw YAML.
  CHECK(std::find(out.consumed.begin(), out.consumed.end(),
                  t.id("agent/templates/legacy/pod.yaml")) != out.consumed.end());
}

TEST_CASE("the source map points values text at the values line, template text at its line",
          "[helm][chart]") {
  Tree t = agent_chart();
  auto out = render_charts(t);
  const auto* pod = stream(out, "agent/templates/pod.yaml");
  REQUIRE(pod);
  const FileId values = t.id("deploy/agent/values.yaml"),
               tmpl = t.id("deploy/agent/templates/pod.yaml");
  const auto& priv = pod->map.find(line_of(pod->text, "privileged: true"), 9);
  CHECK(priv.values == Location{values, 8, 3});
  CHECK(priv.note == "securityContext.privileged");
  CHECK(priv.at.file == tmpl);
  CHECK(priv.at.line == 12);
  const auto& image = pod->map.find(line_of(pod->text, "image: "), 14);
  CHECK(image.values.line == 1);
  CHECK(image.note == "image");
  const auto& kind = pod->map.find(line_of(pod->text, "kind: Pod"), 1);
  CHECK_FALSE(kind.values.valid());
  CHECK(kind.at == Location{tmpl, 2, 1});
}

TEST_CASE("every chart file is consumed, files outside templates stay raw", "[helm][chart]") {
  Tree t = agent_chart();
  auto out = render_charts(t);
  auto consumed = [&](const std::string& p) {
    return std::find(out.consumed.begin(), out.consumed.end(), t.id(p)) != out.consumed.end();
  };
  CHECK(consumed("deploy/agent/Chart.yaml"));
  CHECK(consumed("deploy/agent/values.yaml"));
  CHECK(consumed("deploy/agent/templates/pod.yaml"));
  CHECK(consumed("deploy/agent/templates/NOTES.txt"));
  CHECK(consumed("deploy/agent/charts/proxy/templates/svc.yaml"));
  CHECK(consumed("deploy/agent/charts/lib/templates/_names.tpl"));
  CHECK_FALSE(consumed("deploy/agent/files/entry.sh"));
}

TEST_CASE("values files and --set pairs override chart defaults in order", "[helm][chart]") {
  Tree t = agent_chart();
  render::RenderOptions o;
  o.helm_set = {"image=agent:2", "securityContext.privileged=false,proxy.enabled=false"};
  auto out = render_charts(t, o);
  REQUIRE(out.problems.empty());
  REQUIRE(out.streams.size() == 2);  // the proxy's condition turned it off; pod and tests/t.yaml
  const auto* pod = stream(out, "agent/templates/pod.yaml");
  REQUIRE(pod);
  CHECK(pod->text.find("image: \"agent:2\"") != std::string::npos);
  CHECK(pod->text.find("privileged: false") != std::string::npos);
}

TEST_CASE("a chart's null defaults are no values, a user's null removes a default",
          "[helm][chart]") {
  Tree t;
  t.add("c/Chart.yaml", "apiVersion: v2\nname: c\nversion: 1.0.0\n");
  t.add("c/values.yaml", "top: null\nmap: {a: null, b: {c: null, d: 1}}\nkeep: 1\ngone: 2\n");
  t.add("c/templates/cm.yaml",
        "v: {{ hasKey .Values \"top\" }} {{ toJson .Values.map }} {{ hasKey .Values \"gone\" }} "
        "{{ hasKey .Values \"mine\" }}\n");
  render::RenderOptions o;
  o.helm_set = {"gone=null", "mine=null"};
  auto out = render_charts(t, o);
  REQUIRE(out.streams.size() == 1);
  CHECK(out.streams[0].text ==
        "# Source: c/templates/cm.yaml\nv: false {\"b\":{\"d\":1}} false true\n");
}

TEST_CASE("the --set syntax: list indexes, escaped commas, typed scalars", "[helm][chart]") {
  Tree t;
  t.add("c/Chart.yaml", "apiVersion: v2\nname: c\nversion: 1.0.0\n");
  t.add("c/templates/cm.yaml",
        "a: {{ .Values.list | toJson }}\nb: {{ .Values.text }}\nc: {{ kindOf .Values.n }}\n");
  render::RenderOptions o;
  o.helm_set = {"list[1].name=x", "text=a\\,b", "n=5"};
  auto out = render_charts(t, o);
  REQUIRE(out.streams.size() == 1);
  CHECK(out.streams[0].text ==
        "# Source: c/templates/cm.yaml\na: [null,{\"name\":\"x\"}]\nb: a,b\nc: int\n");
}

TEST_CASE("a --set-string value stays a string, applied after every --set", "[helm][chart]") {
  Tree t;
  t.add("c/Chart.yaml", "apiVersion: v2\nname: c\nversion: 1.0.0\n");
  t.add("c/templates/cm.yaml",
        "tag: {{ .Values.tag }} {{ kindOf .Values.tag }}\nuid: {{ kindOf .Values.uid }}\n");
  render::RenderOptions o;
  o.helm_set = {"tag=1234,uid=1000"};
  auto typed = render_charts(t, o);
  REQUIRE(typed.streams.size() == 1);
  CHECK(typed.streams[0].text == "# Source: c/templates/cm.yaml\ntag: 1234 int\nuid: int\n");
  o.helm_set_string = {"tag=1234"};
  o.helm_set.push_back("tag=2");  // --set-string wins though given first: it is applied last
  auto kept = render_charts(t, o);
  REQUIRE(kept.streams.size() == 1);
  CHECK(kept.streams[0].text == "# Source: c/templates/cm.yaml\ntag: 1234 string\nuid: int\n");
}

TEST_CASE("a function helm does not define fails the chart once, at its template line",
          "[helm][chart]") {
  Tree t;
  t.add("c/Chart.yaml", "apiVersion: v2\nname: c\nversion: 1.0.0\n");
  t.add("c/templates/a.yaml", "kind: ConfigMap\n");
  // helm deletes sprig's env from its function map.
  t.add("c/templates/b.yaml", "kind: ConfigMap\ndata:\n  x: {{ env .Values }}\n");
  auto out = render_charts(t);
  CHECK(out.streams.empty());
  REQUIRE(out.problems.size() == 1);
  CHECK(out.problems[0].kind == ProblemKind::RenderFailed);
  CHECK(out.problems[0].message.find("function \"env\" is not defined") != std::string::npos);
  CHECK(out.problems[0].at == Location{t.id("c/templates/b.yaml"), 3, 9});
  CHECK(out.consumed.size() == 3);
}

TEST_CASE("a missing dependency is a note, the template that needs it fails alone",
          "[helm][chart]") {
  Tree t;
  t.add("c/Chart.yaml",
        "apiVersion: v2\nname: c\nversion: 1.0.0\ndependencies:\n  - name: redis\n    repository: "
        "https://example.com\n");
  t.add("c/templates/a.yaml", "kind: ConfigMap\n");
  t.add("c/templates/b.yaml", "kind: Secret\nhost: {{ include \"redis.fullname\" . }}\n");
  auto out = render_charts(t);
  REQUIRE(out.streams.size() == 1);
  CHECK(out.streams[0].text.find("c/templates/a.yaml") != std::string::npos);
  REQUIRE(out.problems.size() == 2);
  bool note = false, failed = false;
  for (const auto& p : out.problems) {
    note = note || (p.message.find("dependency \"redis\"") != std::string::npos && p.at.line == 5);
    failed = failed || (p.message.find("redis.fullname") != std::string::npos && p.at.line == 2);
  }
  CHECK(note);
  CHECK(failed);
}

TEST_CASE("templates a missing dependency's helpers stop are one finding per chart",
          "[helm][chart]") {
  // bitnami's charts: every template includes `common.*` from a library chart not committed.
  Tree t;
  t.add("c/Chart.yaml",
        "apiVersion: v2\nname: c\nversion: 1.0.0\ndependencies:\n  - name: common\n    "
        "repository: oci://registry-1.docker.io/bitnamicharts\n");
  t.add("c/templates/cm.yaml",
        "kind: ConfigMap\nname: {{ include \"common.names.fullname\" . }}\n");
  t.add("c/templates/sts.yaml",
        "apiVersion: {{ include \"common.capabilities.statefulset.apiVersion\" . }}\n");
  t.add("c/templates/svc.yaml",
        "kind: Service\nname: {{ template \"common.names.fullname\" . }}\n");
  t.add("c/templates/np.yaml", "kind: NetworkPolicy\n");
  auto out = render_charts(t);
  REQUIRE(out.streams.size() == 1);   // np.yaml
  REQUIRE(out.problems.size() == 2);  // the dependency, and the three templates together
  const Problem& p = out.problems[1].message.find("3 templates") != std::string::npos
                         ? out.problems[1]
                         : out.problems[0];
  CHECK(p.message ==
        "3 templates of chart c are not rendered: they include defines no template of the chart "
        "has (\"common.names.fullname\", \"common.capabilities.statefulset.apiVersion\"); the "
        "dependency \"common\" is not vendored in charts/ and probably defines them. What they "
        "would create is not known, the chart's other templates are analysed. Not rendered: "
        "c/templates/cm.yaml, c/templates/sts.yaml, c/templates/svc.yaml");
  CHECK(p.at == Location{t.id("c/templates/cm.yaml"), 2, 10});
  CHECK(p.cause == Cause::Environment);
}

TEST_CASE("chart roots exclude subcharts, a broken Chart.yaml is one problem", "[helm][chart]") {
  Tree t;
  t.add("a/Chart.yaml", "name: [\n");
  t.add("a/templates/x.yaml", "{{ if }}\n");
  t.add("b/Chart.yaml", "apiVersion: v1\nname: b\nversion: 1.0.0\n");
  t.add("b/charts/s/Chart.yaml", "apiVersion: v2\nname: s\nversion: 1.0.0\n");
  t.add("b/charts/s/templates/x.yaml", "kind: {{ .Chart.Name }}\n");
  auto out = render_charts(t);
  REQUIRE(out.problems.size() == 1);
  CHECK(out.problems[0].at.file == t.id("a/Chart.yaml"));
  REQUIRE(out.streams.size() == 1);
  CHECK(out.streams[0].root == "b");
  CHECK(out.streams[0].text == "# Source: b/charts/s/templates/x.yaml\nkind: s\n");
  CHECK(std::find(out.consumed.begin(), out.consumed.end(), t.id("a/templates/x.yaml")) !=
        out.consumed.end());
}

TEST_CASE("rendering is deterministic", "[helm][chart]") {
  Tree t = agent_chart();
  auto a = render_charts(t), b = render_charts(t);
  REQUIRE(a.streams.size() == b.streams.size());
  for (std::size_t k = 0; k < a.streams.size(); ++k) CHECK(a.streams[k].text == b.streams[k].text);
}

TEST_CASE(".Files, .Capabilities and .Template as helm template sets them", "[helm][chart]") {
  Tree t;
  t.add("c/Chart.yaml", "apiVersion: v2\nname: c\nversion: 1.0.0\n");
  t.add("c/files/a.conf", "x=1\n");
  t.add("c/files/b.conf", "y=2\n");
  t.add("c/templates/cm.yaml",
        "get: {{ .Files.Get \"files/a.conf\" | trim }}\n"
        "config:\n"
        "  {{- (.Files.Glob \"files/*.conf\").AsConfig | nindent 2 }}\n"
        "kube: {{ .Capabilities.KubeVersion }} {{ .Capabilities.KubeVersion.Minor }}\n"
        "policy: {{ .Capabilities.APIVersions.Has \"policy/v1\" }} {{ "
        ".Capabilities.APIVersions.Has \"x/v9\" }}\n"
        "name: {{ .Template.Name }} {{ .Template.BasePath }}\n"
        "ns: {{ .Release.Namespace }}\n"
        // .Files is helm's map of path to bytes: its files, not its methods, are entries.
        "files: {{ len .Files }}{{ range $p, $_ := .Files }} {{ $p }}{{ end }} "
        "{{ index .Files \"files/b.conf\" | trim }}\n");
  auto out = render_charts(t);
  REQUIRE(out.streams.size() == 1);
  CHECK(out.streams[0].text ==
        "# Source: c/templates/cm.yaml\n"
        "get: x=1\n"
        "config:\n"
        "  a.conf: |\n"
        "    x=1\n"
        "  b.conf: |\n"
        "    y=2\n"
        "kube: v1.33.0 33\n"
        "policy: true false\n"
        "name: c/templates/cm.yaml c/templates\n"
        "ns: default\n"
        "files: 2 files/a.conf files/b.conf y=2\n");
  // files/ is not a template: it stays analysed raw.
  CHECK(std::find(out.consumed.begin(), out.consumed.end(), t.id("c/files/a.conf")) ==
        out.consumed.end());
}

TEST_CASE(".Files is a map of files: range, len and keys, its methods first", "[helm][chart]") {
  // The idiom of chart after chart: one ConfigMap key per file of a folder.
  Tree t;
  t.add("c/Chart.yaml", "apiVersion: v2\nname: c\nversion: 1.0.0\n");
  t.add("c/author", "me\n");
  t.add("c/scripts/entry.sh", "#!/bin/sh\n");
  t.add("c/scripts/health.sh", "exit 0\n");
  t.add("c/templates/cm.yaml",
        "count: {{ len (.Files.Glob \"scripts/*\") }}\n"
        "data:\n"
        "{{- range $path, $_ := .Files.Glob \"scripts/*\" }}\n"
        "  {{ base $path }}: {{ $.Files.Get $path | quote }}\n"
        "{{- end }}\n"
        "author: {{ .Files.author | toString | trim }}\n"
        "indexed: {{ index .Files \"author\" | toString | trim }}\n");
  auto out = render_charts(t);
  REQUIRE(out.streams.size() == 1);
  CHECK(out.streams[0].text ==
        "# Source: c/templates/cm.yaml\n"
        "count: 2\n"
        "data:\n"
        "  entry.sh: \"#!/bin/sh\\n\"\n"
        "  health.sh: \"exit 0\\n\"\n"
        "author: me\n"
        "indexed: me\n");
}

TEST_CASE(".Chart.IsRoot and .Subcharts as helm v4 sets them", "[helm][chart]") {
  Tree t;
  t.add("p/Chart.yaml",
        "apiVersion: v2\nname: p\nversion: 1.0.0\ndependencies:\n  - name: db\n    alias: store\n");
  t.add("p/values.yaml", "store:\n  port: 5433\n");
  t.add("p/charts/db/Chart.yaml", "apiVersion: v2\nname: db\nversion: 2.0.0\n");
  t.add("p/charts/db/values.yaml", "port: 5432\nuser: app\n");
  t.add("p/charts/db/templates/root.yaml", "db-root: {{ .Chart.IsRoot }}\n");
  t.add("p/templates/cm.yaml",
        "root: {{ .Chart.IsRoot }}\n"
        "sub: {{ .Subcharts.store.Chart.Name }} {{ .Subcharts.store.Chart.Version }} "
        "{{ .Subcharts.store.Values.port }} {{ .Subcharts.store.Values.user }} "
        "{{ .Subcharts.store.Chart.IsRoot }}\n");
  auto out = render_charts(t);
  REQUIRE(out.streams.size() == 2);
  CHECK(out.streams[0].text == "# Source: p/charts/store/templates/root.yaml\ndb-root: false\n");
  CHECK(out.streams[1].text ==
        "# Source: p/templates/cm.yaml\nroot: true\nsub: store 2.0.0 5433 app false\n");
}

TEST_CASE("a chart's default nulls are no keys, as helm v4.2 coalesces them", "[helm][chart]") {
  Tree t;
  t.add("c/Chart.yaml", "apiVersion: v2\nname: c\nversion: 1.0.0\n");
  t.add("c/values.yaml", "nodeSelector:\ntolerations: ~\npod:\n  annotations: null\n  port: 80\n");
  t.add("c/templates/cm.yaml",
        "keys: {{ hasKey .Values \"nodeSelector\" }} {{ hasKey .Values \"tolerations\" }}\n"
        "pod: {{ toJson .Values.pod }}\n");
  auto out = render_charts(t);
  REQUIRE(out.streams.size() == 1);
  CHECK(out.streams[0].text ==
        "# Source: c/templates/cm.yaml\nkeys: false false\npod: {\"port\":80}\n");
}

TEST_CASE("requirements.yaml names the dependencies, as helm's loader reads it", "[helm][chart]") {
  Tree t;
  t.add("c/Chart.yaml", "apiVersion: v1\nname: c\nversion: 1.0.0\n");
  t.add("c/requirements.yaml",
        "dependencies:\n  - name: redis\n    version: 10.x\n"
        "    repository: https://charts.example.com\n");
  t.add("c/templates/cm.yaml", "kind: ConfigMap\n");
  auto out = render_charts(t);
  REQUIRE(out.problems.size() == 1);
  CHECK(out.problems[0].message.find("dependency \"redis\" of chart c is not vendored") !=
        std::string::npos);
  CHECK(out.problems[0].at == Location{t.id("c/requirements.yaml"), 2, 5});
  Tree bad;
  bad.add("c/Chart.yaml", "apiVersion: v1\nname: c\nversion: 1.0.0\n");
  bad.add("c/requirements.yaml", "- just\n- a list\n");
  bad.add("c/templates/cm.yaml", "kind: ConfigMap\n");
  auto refused = render_charts(bad);
  CHECK(refused.streams.empty());
  REQUIRE(refused.problems.size() == 1);
  CHECK(refused.problems[0].cause == Cause::Repository);
}

TEST_CASE("dependency alias names the subchart, tags disable it", "[helm][chart]") {
  Tree t;
  t.add("c/Chart.yaml",
        "apiVersion: v2\nname: c\nversion: 1.0.0\ndependencies:\n"
        "  - name: cache\n    alias: sessions\n"
        "  - name: metrics\n    tags: [observability]\n");
  t.add("c/charts/cache/Chart.yaml", "apiVersion: v2\nname: cache\nversion: 1.0.0\n");
  t.add("c/charts/cache/templates/a.yaml", "name: {{ .Chart.Name }}\nsize: {{ .Values.size }}\n");
  t.add("c/charts/metrics/Chart.yaml", "apiVersion: v2\nname: metrics\nversion: 1.0.0\n");
  t.add("c/charts/metrics/templates/m.yaml", "kind: ServiceMonitor\n");
  t.add("c/values.yaml", "sessions:\n  size: 3\ntags:\n  observability: false\n");
  // .Subcharts holds the enabled subcharts by alias (helm v4), .Chart.IsRoot the top chart.
  t.add("c/templates/s.yaml",
        "subcharts: {{ keys .Subcharts }} {{ .Subcharts.sessions.Values.size }} "
        "{{ .Subcharts.sessions.Chart.IsRoot }} {{ .Chart.IsRoot }}\n");
  auto out = render_charts(t);
  INFO((out.problems.empty() ? "" : out.problems[0].message));
  CHECK(out.problems.empty());
  REQUIRE(out.streams.size() == 2);
  CHECK(out.streams[0].text ==
        "# Source: c/charts/sessions/templates/a.yaml\nname: sessions\nsize: 3\n");
  CHECK(out.streams[1].text ==
        "# Source: c/templates/s.yaml\nsubcharts: [sessions] 3 false true\n");
  render::RenderOptions on;
  on.helm_set = {"tags.observability=true"};
  CHECK(render_charts(t, on).streams.size() == 3);
}

}  // namespace helm_chart_test
