// A dependency that is not vendored in charts/ but that the repository holds: bitnami's charts
// depend on `common` from their OCI registry, and bitnami/common is its source in the same
// repository; a `file://` repository names the directory helm copies from.
#include <catch2/catch.hpp>

#include <string>

#include "analyzer/render/helm/helm.h"
#include "tests/source_file.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace helm_local_dependency_test {

using namespace sbr;

namespace {

const char* const kCommon = "apiVersion: v2\nname: common\nversion: 2.31.10\ntype: library\n";
const char* const kHelpers =
    "{{- define \"common.names.fullname\" -}}{{ .Release.Name }}-{{ .Chart.Name }}{{- end -}}\n";

std::string parent(const std::string& repository, const std::string& version) {
  return "apiVersion: v2\nname: redis\nversion: 20.0.0\ndependencies:\n"
         "  - name: common\n    repository: " +
         repository + "\n    version: " + version + "\n";
}

render::RenderOutput render_tree(const std::string& chart_yaml) {
  SourceSet set;
  auto add = [&](const std::string& path, const std::string& text) {
    set.files.push_back(
        test::file_of(static_cast<FileId>(set.files.size()), path, FileType::Yaml, text));
  };
  add("bitnami/common/Chart.yaml", kCommon);
  add("bitnami/common/templates/_names.tpl", kHelpers);
  add("bitnami/redis/Chart.yaml", chart_yaml);
  add("bitnami/redis/templates/svc.yaml",
      "kind: Service\nmetadata:\n  name: {{ include \"common.names.fullname\" . }}\n");
  render::RenderOutput out;
  render::render_helm_charts(set, {}, out);
  return out;
}

bool renders_service(const render::RenderOutput& out) {
  for (const auto& s : out.streams) {
    if (s.text.find("name: release-name-redis") != std::string::npos) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("a registry dependency the repository holds stands in, with a note", "[helm][chart]") {
  auto out = render_tree(parent("oci://registry-1.docker.io/bitnamicharts", "2.x.x"));
  CHECK(renders_service(out));
  REQUIRE(out.problems.size() == 1);
  CHECK(out.problems[0].kind == ProblemKind::SourceUnresolved);
  CHECK(out.problems[0].cause == Cause::Environment);
  CHECK(out.problems[0].message.find("rendered with the repository's own chart bitnami/common "
                                     "(version 2.31.10, which meets 2.x.x)") != std::string::npos);
}

TEST_CASE("a file repository is the directory helm copies from", "[helm][chart]") {
  auto out = render_tree(parent("file://../common", "\"*\""));
  CHECK(renders_service(out));
  REQUIRE(out.problems.size() == 1);
  CHECK(out.problems[0].message.find("rendered with bitnami/common, where its `repository: "
                                     "file://../common` points") != std::string::npos);
}

TEST_CASE("a chart of the same name but another version does not stand in", "[helm][chart]") {
  auto out = render_tree(parent("oci://registry-1.docker.io/bitnamicharts", "1.x.x"));
  CHECK_FALSE(renders_service(out));
  bool not_vendored = false;
  for (const auto& p : out.problems) {
    not_vendored = not_vendored || (p.kind == ProblemKind::RenderFailed &&
                                    p.message.find("is not vendored") != std::string::npos);
  }
  CHECK(not_vendored);
}

}  // namespace helm_local_dependency_test
