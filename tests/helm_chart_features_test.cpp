// Chart features beyond templates: values.schema.json, import-values, packaged subcharts
// unpacked in memory, --set-file, the configuration's values per chart, toToml, hooks.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "analyzer/render/helm/archive.h"
#include "analyzer/render/helm/helm.h"
#include "analyzer/render/helm/schema.h"
#include "analyzer/source/memory_tree.h"
#include "tests/fixture_harness.h"
#include "tests/helm_engine_helpers.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace helm_chart_features_test {

using namespace sbr;

namespace {

struct Rendered {
  FileTable files;
  SourceSet sources;
  render::RenderOutput out;
};

Rendered render_tree(const MemoryTree& t, render::RenderOptions o = {}) {
  Rendered r;
  r.sources = walk_trees({{&t, "", ""}}, WalkOptions{}, r.files);
  o.switches = false;
  o.virtual_base = static_cast<FileId>(r.files.paths.size());
  render::render_helm_charts(r.sources, o, r.out);
  for (const std::string& p : r.out.virtual_files) r.files.add(p);
  return r;
}

const render::RenderedStream* stream(const Rendered& r, const std::string& source) {
  for (const auto& s : r.out.streams) {
    if (s.text.rfind("# Source: " + source + "\n", 0) == 0) return &s;
  }
  return nullptr;
}

std::string read_disk(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream b;
  b << in.rdbuf();
  return b.str();
}

render::helm::Value values_of(const std::string& yaml) {
  render::helm::Value v;
  std::string error;
  REQUIRE(render::helm::parse_yaml_value(yaml, 4, "", v, error));
  return v;
}

std::vector<std::string> schema_errors(const std::string& schema, const std::string& yaml) {
  std::vector<render::helm::SchemaError> errors;
  std::string parse_error;
  REQUIRE(render::helm::validate_schema(schema, values_of(yaml), errors, parse_error));
  std::vector<std::string> out;
  for (const auto& e : errors) out.push_back(e.pointer + ": " + e.message);
  return out;
}

}  // namespace

TEST_CASE("values.schema.json: the keywords charts use", "[helm][schema]") {
  const std::string schema = R"({
    "type": "object",
    "required": ["image"],
    "additionalProperties": false,
    "properties": {
      "image": {"type": "string", "pattern": "^ghcr\\.io/"},
      "replicas": {"type": "integer", "minimum": 1, "maximum": 5},
      "mode": {"enum": ["strict", "audit"]},
      "ports": {"type": "array", "items": {"type": "integer"}, "uniqueItems": true},
      "tls": {"$ref": "#/$defs/tls"},
      "level": {"oneOf": [{"type": "integer"}, {"type": "string", "maxLength": 5}]}
    },
    "$defs": {"tls": {"type": "object", "required": ["secret"]}}
  })";
  CHECK(schema_errors(schema, "image: ghcr.io/x\nreplicas: 3\nmode: audit\nports: [80, 443]\n")
            .empty());
  // YAML numbers are floats, as Helm reads them: 3 is still an integer, 2.5 is not.
  CHECK(schema_errors(schema, "image: ghcr.io/x\nreplicas: 2.5\n") ==
        std::vector<std::string>{"/replicas: got number, want integer"});
  CHECK(schema_errors(schema, "replicas: 9\nmode: loud\nextra: 1\nports: [1, 1]\n") ==
        std::vector<std::string>{
            ": missing property 'image'", "/mode: value must be one of [\"strict\",\"audit\"]",
            "/ports: items at 0 and 1 are equal", "/replicas: must be <= 5 but found 9",
            ": additional properties 'extra' not allowed"});  // properties, then the extras
  CHECK(schema_errors(schema, "image: docker.io/x\ntls: {}\nlevel: verbose\n") ==
        std::vector<std::string>{"/image: 'docker.io/x' does not match pattern '^ghcr\\.io/'",
                                 "/level: oneOf failed: the value matches none of the schemas",
                                 "/tls: missing property 'secret'"});
  std::vector<render::helm::SchemaError> errors;
  std::string parse_error;
  CHECK_FALSE(render::helm::validate_schema("{not json", values_of("a: 1\n"), errors, parse_error));
}

TEST_CASE("a schema violation is reported at the values line, and the chart still renders",
          "[helm][schema]") {
  MemoryTree t;
  t.add_file("c/Chart.yaml", "apiVersion: v2\nname: c\nversion: 1.0.0\n");
  t.add_file("c/values.yaml", "agent:\n  timeout: \"30\"\n");
  t.add_file("c/values.schema.json",
             R"({"properties": {"agent": {"properties": {"timeout": {"type": "integer"}}}}})");
  t.add_file("c/templates/cm.yaml", "kind: ConfigMap\ntimeout: {{ .Values.agent.timeout }}\n");
  Rendered r = render_tree(t);
  REQUIRE(r.out.problems.size() == 1);
  CHECK(r.files.path(r.out.problems[0].at.file) == "c/values.yaml");
  CHECK(r.out.problems[0].at.line == 2);
  CHECK_THAT(r.out.problems[0].message,
             Catch::Contains("at '/agent/timeout': got string, want integer"));
  CHECK(stream(r, "c/templates/cm.yaml") != nullptr);
}

TEST_CASE("import-values: exports and child/parent maps, below the parent's own values",
          "[helm][chart]") {
  MemoryTree t;
  t.add_file("p/Chart.yaml",
             "apiVersion: v2\nname: p\nversion: 1.0.0\ndependencies:\n"
             "  - name: db\n    import-values:\n      - conn\n"
             "      - child: tuning.pool\n        parent: pool\n");
  t.add_file("p/values.yaml", "port: 7000\n");
  t.add_file("p/charts/db/Chart.yaml", "apiVersion: v2\nname: db\nversion: 1.0.0\n");
  t.add_file("p/charts/db/values.yaml",
             "exports:\n  conn:\n    host: db\n    port: 5432\ntuning:\n  pool:\n    size: 10\n");
  t.add_file("p/templates/cm.yaml",
             "host: {{ .Values.host }}\nport: {{ .Values.port }}\npool: {{ .Values.pool.size }}\n");
  Rendered r = render_tree(t);
  const auto* cm = stream(r, "p/templates/cm.yaml");
  REQUIRE(cm != nullptr);
  CHECK(cm->text == "# Source: p/templates/cm.yaml\nhost: db\nport: 7000\npool: 10\n");
  // An imported value keeps where it was written: the child's values.yaml.
  render::RenderOptions set;
  set.helm_set = {"pool.size=3"};
  CHECK(stream(render_tree(t, set), "p/templates/cm.yaml")->text.find("pool: 3") !=
        std::string::npos);
}

TEST_CASE("a packaged subchart is unpacked in memory and located inside its archive",
          "[helm][archive]") {
  MemoryTree t;
  const std::string dir = test::source_dir() + "/fixtures/helm/packaged-subchart";
  for (const char* f :
       {"Chart.yaml", "values.yaml", "templates/job.yaml", "charts/redis-lite-1.2.0.tgz"})
    t.add_file(std::string("bot/") + f, read_disk(dir + "/" + f));
  Rendered r = render_tree(t);
  const auto* redis = stream(r, "review-bot/charts/redis-lite/templates/deployment.yaml");
  REQUIRE(redis != nullptr);
  CHECK(redis->text.find("image: docker.io/library/redis:7.2.5") != std::string::npos);
  // Its lines map into the archive's member.
  const auto& o = redis->map.find(3, 1);
  CHECK(r.files.path(o.at.file) == "bot/charts/redis-lite-1.2.0.tgz/templates/deployment.yaml");
  CHECK(o.at.line == 2);
  // import-values from the packaged chart's exports.
  CHECK(stream(r, "review-bot/templates/job.yaml")->text.find("redis://redis-lite:6379/0") !=
        std::string::npos);
}

TEST_CASE("archives that are not charts are refused, never followed", "[helm][archive]") {
  std::vector<std::pair<std::string, std::string>> files;
  std::string error;
  CHECK_FALSE(render::helm::unpack_tgz("not gzip", {}, files, error));
  CHECK_THAT(error, Catch::Contains("not a gzip archive"));
  render::helm::ArchiveLimits tiny;
  tiny.max_bytes = 100;
  const std::string tgz = read_disk(test::source_dir() +
                                    "/fixtures/helm/packaged-subchart/charts/redis-lite-1.2.0.tgz");
  CHECK_FALSE(render::helm::unpack_tgz(tgz, tiny, files, error));
  CHECK_THAT(error, Catch::Contains("more than 100 bytes"));
  files.clear();
  REQUIRE(render::helm::unpack_tgz(tgz, {}, files, error));
  std::vector<std::string> names;
  for (const auto& f : files) names.push_back(f.first);
  std::sort(names.begin(), names.end());
  CHECK(names ==
        std::vector<std::string>{"Chart.yaml", "templates/deployment.yaml", "values.yaml"});
}

TEST_CASE("values from --set-file, --kube-version and the configuration, per chart",
          "[helm][chart]") {
  MemoryTree t;
  t.add_file("a/Chart.yaml", "apiVersion: v2\nname: a\nversion: 1.0.0\n");
  t.add_file("a/values.yaml", "mode: dev\n");
  t.add_file("a/prod.yaml", "mode: prod\n");
  t.add_file("a/banner.txt", "hello\n");
  t.add_file("a/templates/cm.yaml",
             "mode: {{ .Values.mode }}\nbanner: {{ .Values.banner | trim }}\n"
             "kube: {{ .Capabilities.KubeVersion.Minor }}\n");
  t.add_file("b/Chart.yaml", "apiVersion: v2\nname: b\nversion: 1.0.0\n");
  t.add_file("b/templates/cm.yaml", "mode: {{ .Values.mode | default \"none\" }}\n");
  render::RenderOptions o;
  o.charts.push_back({"a", {"a/prod.yaml"}, {}, {}, {"banner=a/banner.txt"}, {}});
  o.kube_version = "v1.28.3";
  Rendered r = render_tree(t, o);
  CHECK(stream(r, "a/templates/cm.yaml")->text ==
        "# Source: a/templates/cm.yaml\nmode: prod\nbanner: hello\nkube: 28\n");
  CHECK(stream(r, "b/templates/cm.yaml")->text == "# Source: b/templates/cm.yaml\nmode: none\n");
  // The command line comes after the configuration.
  o.helm_set = {"mode=cli"};
  CHECK(stream(render_tree(t, o), "a/templates/cm.yaml")->text.find("mode: cli") !=
        std::string::npos);
  o.kube_version = "latest";
  Rendered bad = render_tree(t, o);
  REQUIRE_FALSE(bad.out.problems.empty());
  CHECK_THAT(bad.out.problems[0].message, Catch::Contains("invalid kube version 'latest'"));
}

TEST_CASE("toToml prints TOML as Helm's encoder does", "[helm][functions]") {
  using test::render_ok;
  CHECK(render_ok("{{ toToml .Values }}", "foo: bar\n") == "foo = \"bar\"\n");
  CHECK(render_ok("{{ toToml .Values }}", "mast:\n  sail: white\n") ==
        "[mast]\n  sail = \"white\"\n");
  CHECK(render_ok("{{ toToml .Values }}",
                  "z: 1\nlist: [a, b]\nt:\n  x: true\n  deep:\n    y: 2.5\n"
                  "items:\n  - name: one\n  - name: two\n\"a b\": 1\n") ==
        "\"a b\" = 1.0\nlist = [\"a\", \"b\"]\nz = 1.0\n"
        "\n[[items]]\n  name = \"one\"\n\n[[items]]\n  name = \"two\"\n"
        "\n[t]\n  x = true\n  [t.deep]\n    y = 2.5\n");
  CHECK(render_ok("{{ toToml \"text\" }}") == "toml: top-level values must be Go maps or structs");
}

TEST_CASE("a dependency not vendored: the parent renders with its own values for it",
          "[helm][chart]") {
  // In the style of an app platform's chart: the database is a bitnami dependency that is not
  // committed, and the API reads its values beside the sandbox Deployment.
  MemoryTree t;
  t.add_file("app/Chart.yaml",
             "apiVersion: v2\nname: app\nversion: 1.0.0\ndependencies:\n  - name: postgresql\n"
             "    version: 12.x.x\n    repository: oci://registry-1.docker.io/bitnamicharts\n"
             "    condition: postgresql.enabled\n  - name: redis\n    alias: cache\n"
             "    repository: oci://registry-1.docker.io/bitnamicharts\n");
  t.add_file("app/values.yaml", "postgresql:\n  enabled: true\n  auth:\n    database: app\n");
  t.add_file("app/templates/api.yaml",
             "kind: ConfigMap\ndata:\n  db: {{ .Values.postgresql.auth.database }}\n"
             "  host: {{ .Values.postgresql.primary.service.name | default \"db\" }}\n"
             "  cache: {{ (.Values.cache).master.port | default 6379 }}\n");
  t.add_file("app/templates/other.yaml", "kind: Secret\nx: {{ .Values.other.deep.key }}\n");
  Rendered r = render_tree(t);
  const render::RenderedStream* api = stream(r, "app/templates/api.yaml");
  REQUIRE(api != nullptr);
  CHECK(api->text.find("db: app\n  host: db\n  cache: 6379") != std::string::npos);
  std::vector<std::string> messages;
  for (const auto& p : r.out.problems) messages.push_back(p.message);
  // The dependency itself, one stand-in read for api.yaml (its first, at line 4), and the
  // chart's own nil pointer, which no dependency would fill, still an error of the engine.
  REQUIRE(r.out.problems.size() == 4);
  const Problem* read = nullptr;
  const Problem* own = nullptr;
  for (const auto& p : r.out.problems) {
    if (p.message.find("rendered with .Values.postgresql.primary.service empty here") !=
        std::string::npos)
      read = &p;
    if (p.message.find("nil pointer evaluating interface {}.deep") != std::string::npos) own = &p;
  }
  REQUIRE(read != nullptr);
  CHECK(read->at.line == 4);
  CHECK(read->cause == Cause::Environment);
  REQUIRE(own != nullptr);
  CHECK(own->cause == Cause::Analyzer);
  // Go's words are followed by what they mean to the chart's reader (issue 34 §4).
  CHECK(own->message.find("nil pointer evaluating interface {}.deep: the template reads `.deep` "
                          "of a value that is not set") != std::string::npos);
}

TEST_CASE("a template that passes a dependency's missing value to a helper is the dependency's gap",
          "[helm][chart]") {
  // bitnami's jupyterhub: `include "common.images.image" (dict "imageRoot"
  // .Values.postgresql.image ...)` with postgresql not vendored. The helper reads `.registry`
  // of the nil and stops: the engine followed helm; the dependency's values.yaml is missing.
  MemoryTree t;
  t.add_file("hub/Chart.yaml",
             "apiVersion: v2\nname: hub\nversion: 1.0.0\ndependencies:\n  - name: postgresql\n"
             "    version: 16.x.x\n    repository: oci://registry-1.docker.io/bitnamicharts\n");
  t.add_file("hub/values.yaml", "image:\n  registry: docker.io\n  repository: hub\n");
  t.add_file("hub/templates/_images.tpl",
             "{{- define \"hub.image\" -}}\n"
             "{{ .imageRoot.registry }}/{{ .imageRoot.repository }}\n"
             "{{- end -}}\n");
  t.add_file("hub/templates/deployment.yaml",
             "kind: Deployment\nspec:\n  image: {{ include \"hub.image\" (dict \"imageRoot\" "
             ".Values.image) }}\n"
             "  initImage: {{ include \"hub.image\" (dict \"imageRoot\" .Values.postgresql.image) "
             "}}\n");
  Rendered r = render_tree(t);
  const Problem* stopped = nullptr;
  for (const auto& p : r.out.problems)
    if (p.message.find("template hub/templates/deployment.yaml") != std::string::npos) stopped = &p;
  REQUIRE(stopped != nullptr);
  CHECK(stopped->cause == Cause::Environment);
  CHECK(stopped->message.find("it read .Values.postgresql.image, which is empty here (the "
                              "dependency \"postgresql\"") != std::string::npos);
  CHECK(stopped->message.find("nil pointer evaluating interface {}.registry") != std::string::npos);
}

}  // namespace helm_chart_features_test
