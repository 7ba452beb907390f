// Where Kubernetes findings point (docs/kubernetes.md, "Where a finding points"): a field
// written with a bad value at that field, line and column; a missing field where a person would
// add it. The expected positions are read from the fixture's own text, so the test says which
// field each finding must name and fails when the finding points anywhere else.
#include <catch2/catch.hpp>

#include <sstream>
#include <string>
#include <vector>

#include "analyzer/check/catalog.h"
#include "analyzer/check/runner.h"
#include "analyzer/pipeline/analysis.h"
#include "tests/fixture_harness.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace k8s_locations_test {

using namespace sbr;

namespace {

struct Place {
  unsigned line = 0, column = 0;
};

// The position of `token` on the first line of `text` that contains `line_has` (after it).
Place place_of(const std::string& text, const std::string& line_has, const std::string& token) {
  std::istringstream in(text);
  std::string l;
  for (unsigned n = 1; std::getline(in, l); ++n) {
    auto at = l.find(line_has);
    if (at == std::string::npos) continue;
    auto col = l.find(token, at);
    if (col == std::string::npos) col = l.find(token);
    REQUIRE(col != std::string::npos);
    return {n, static_cast<unsigned>(col) + 1};
  }
  FAIL("no line contains " << line_has);
  return {};
}

struct Run {
  Analysis an;
  std::vector<Finding> findings;
};

Run run_dir(const std::string& dir) {
  Config config;
  Run r{analyze({dir}, config, {}), {}};
  r.findings = run_checks(r.an.model, Catalog::embedded(), config, {"2026-01-01"});
  return r;
}

std::string path_of(const Run& r, const Finding& f) {
  std::string p = r.an.model.files.path(f.at.file);
  return p.substr(p.rfind('/') + 1);
}

// Every finding of `rule` in `file`, as positions.
std::vector<Place> places(const Run& r, const std::string& file, const std::string& rule) {
  std::vector<Place> out;
  for (const Finding& f : r.findings) {
    if (f.rule_id == rule && path_of(r, f) == file) out.push_back({f.at.line, f.at.column});
  }
  return out;
}

bool has(const std::vector<Place>& ps, Place p) {
  for (const Place& q : ps) {
    if (q.line == p.line && q.column == p.column) return true;
  }
  return false;
}

struct Expect {
  const char* rule;
  const char* line_has;
  const char* token;
};

}  // namespace

TEST_CASE("a present field with a bad value is reported at that field", "[k8s][locations]") {
  const std::string dir = test::source_dir() + "/fixtures/k8s/field-locations";
  const std::string file = "refactor-agent.yaml";
  const std::string text = test::read_file(dir + "/manifests/" + file);
  Run r = run_dir(dir);
  const Expect expects[] = {
      {"SB1003", "hostNetwork:", "true"},
      {"SB1002", "hostPID:", "true"},
      {"SB1004", "hostIPC:", "true"},
      {"SB4004", "automountServiceAccountToken:", "true"},
      {"SB5008", "hostPort:", "9102"},
      {"SB2005", "allowPrivilegeEscalation:", "true"},
      {"SB2006", "runAsNonRoot:", "false"},
      {"SB2008", "readOnlyRootFilesystem:", "false"},
      {"SB1008", "procMount:", "Unmasked"},
      {"SB2002", "- NET_RAW", "NET_RAW"},
      {"SB2004", "- NET_ADMIN", "NET_ADMIN"},
      {"SB2004", "- SYS_PTRACE", "SYS_PTRACE"},
      {"SB2009", "type: Unconfined", "Unconfined"},
      {"SB1005", "path: /var/run/docker.sock", "/var/run/docker.sock"},
      {"SB4001", "secretRef:", "secretRef"},
  };
  for (const Expect& e : expects) {
    Place want = place_of(text, e.line_has, e.token);
    INFO(e.rule << " expected at " << want.line << ":" << want.column << " (" << e.line_has << ")");
    CHECK(has(places(r, file, e.rule), want));
  }
  // Each secretKeyRef of the environment is its own related location, at its own key.
  bool egress_seen = false;
  for (const Finding& f : r.findings) {
    if (f.rule_id != "SB5002" || path_of(r, f) != file) continue;
    egress_seen = true;
    for (const char* name : {"GITHUB_TOKEN", "ANTHROPIC_API_KEY"}) {
      std::string after = text.substr(text.find(std::string("name: ") + name));
      Place key = place_of(after, "secretKeyRef:", "secretKeyRef");
      key.line += place_of(text, std::string("name: ") + name, name).line - 1;
      bool found = false;
      for (const Related& rel : f.related) {
        found = found || (rel.at.line == key.line && rel.at.column == key.column);
      }
      INFO(name << " secretKeyRef expected at " << key.line << ":" << key.column);
      CHECK(found);
    }
  }
  CHECK(egress_seen);
}

TEST_CASE("an absent field is reported where a person would add it", "[k8s][locations]") {
  const std::string dir = test::source_dir() + "/fixtures/k8s/field-locations";
  const std::string file = "review-bot.yaml";
  const std::string text = test::read_file(dir + "/manifests/" + file);
  Run r = run_dir(dir);
  // The container without a securityContext: its `- name:` entry.
  Place fetch = place_of(text, "- name: fetch", "name");
  // The container with one: its `securityContext:` key.
  Place reviewer_sc = place_of(text, "runAsNonRoot: true", "runAsNonRoot");
  reviewer_sc = {reviewer_sc.line - 1, reviewer_sc.column - 2};
  for (const char* rule : {"SB2001", "SB2005", "SB2008"}) {
    INFO(rule);
    auto ps = places(r, file, rule);
    CHECK(has(ps, fetch));
    CHECK(has(ps, reviewer_sc));
    CHECK(ps.size() == 2);
  }
  // A pod field missing from a pod securityContext that exists: at that securityContext.
  Place pod_sc = place_of(text, "      securityContext:", "securityContext");
  CHECK(has(places(r, file, "SB2009"), pod_sc));
  // Resource limits are not securityContext fields: they stay at the container entry.
  CHECK(places(r, file, "SB6001").empty());
}

}  // namespace k8s_locations_test
