// The render contract: a rendered stream's positions exist only in memory, so every fact read
// from it must be located through its source map, at the values line when values fed it.
#include <catch2/catch.hpp>

#include "analyzer/frontends/k8s/k8s_frontend.h"
#include "analyzer/render/render_roots.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace render_map_test {

using namespace sbr;

namespace {

render::Origin origin(FileId file, std::uint32_t line, FileId values = kNoFile,
                      std::uint32_t values_line = 0) {
  render::Origin o;
  o.at = Location{file, line, 1};
  if (values != kNoFile) o.values = Location{values, values_line, 3};
  o.note = values != kNoFile ? "securityContext.privileged" : "";
  return o;
}

}  // namespace

TEST_CASE("a source map finds the segment that covers a position", "[render]") {
  render::SourceMap map;
  map.fallback = origin(7, 1);
  map.segments = {{2, 1, origin(1, 10)}, {2, 9, origin(1, 11)}, {5, 1, origin(1, 20)}};
  CHECK(map.find(1, 4).at.file == 7);   // before any segment: the root file
  CHECK(map.find(2, 1).at.line == 10);  // a segment starts where it says
  CHECK(map.find(2, 8).at.line == 10);
  CHECK(map.find(2, 9).at.line == 11);
  CHECK(map.find(4, 30).at.line == 11);  // runs to the next segment
  CHECK(map.find(9, 1).at.line == 20);
}

TEST_CASE("facts of a rendered stream are located at the values line, template line as step",
          "[render]") {
  const FileId tmpl = 3, values = 4, chart = 5;
  render::RenderedStream s;
  s.root = "charts/agent";
  s.engine = "helm";
  s.text =
      "# Source: agent/templates/pod.yaml\n"
      "apiVersion: v1\n"
      "kind: Pod\n"
      "metadata:\n"
      "  name: agent\n"
      "spec:\n"
      "  containers:\n"
      "    - name: agent\n"
      "      image: agent:1\n"
      "      securityContext:\n"
      "        privileged: true\n"
      "  hostPID: true\n";
  s.map.fallback = origin(chart, 1);
  s.map.segments = {
      {2, 1, origin(tmpl, 1)}, {11, 1, origin(tmpl, 12, values, 30)}, {12, 1, origin(tmpl, 14)}};
  FilePart part;
  read_rendered_stream(s, part);
  REQUIRE(part.workloads.size() == 1);
  const Workload& w = part.workloads[0];
  CHECK(w.id.render_root == "charts/agent");
  REQUIRE(w.identity.privileged);
  CHECK(w.identity.privileged->from.at == Location{values, 30, 3});
  REQUIRE(w.identity.privileged->from.via().size() == 1);
  CHECK(w.identity.privileged->from.via()[0].role == StepRole::Template);
  CHECK(w.identity.privileged->from.via()[0].at == Location{tmpl, 12, 1});
  CHECK(w.identity.privileged->from.via()[0].note == "securityContext.privileged");
  REQUIRE(w.network.host_pid);
  CHECK(w.network.host_pid->from.at ==
        Location{tmpl, 14, 1});  // not from values: the template line
}

TEST_CASE("a rendered stream that does not parse is reported where its text came from",
          "[render]") {
  render::RenderedStream s;
  s.root = "charts/agent";
  s.text = "apiVersion: v1\nkind: Pod\nmetadata: {name: [\n";
  s.map.fallback = origin(5, 1);
  s.map.segments = {{3, 1, origin(3, 8)}};
  FilePart part;
  read_rendered_stream(s, part);
  REQUIRE_FALSE(part.problems.empty());
  for (const Problem& p : part.problems) CHECK(p.at.file == 3);
}

}  // namespace render_map_test
