// `sbreview render`, and the render options of `check`: --render=off, --helm-values, --helm-set.
#include <catch2/catch.hpp>

#include <sstream>

#include "analyzer/cli/cli.h"
#include "tests/fixture_harness.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace helm_cli_test {

namespace {

struct Run {
  int code = 0;
  std::string out, err;
};

Run cli(const std::vector<std::string>& args) {
  std::ostringstream out, err;
  Run r;
  r.code = sbr::run_cli(args, out, err);
  r.out = out.str();
  r.err = err.str();
  return r;
}

std::string chart() {
  return sbr::test::source_dir() + "/fixtures/helm/agent-sandbox";
}

}  // namespace

TEST_CASE("sbreview render prints each template as helm template does", "[helm][cli]") {
  Run r = cli({"render", chart()});
  INFO(r.err);
  CHECK(r.code == 0);
  CHECK(
      r.out.find("---\n# Source: agent-sandbox/templates/deployment.yaml\napiVersion: apps/v1\n") !=
      std::string::npos);
  CHECK(r.out.find("---\n# Source: agent-sandbox/charts/egress-proxy/templates/service.yaml\n") !=
        std::string::npos);
  CHECK(r.out.find("            privileged: true\n") != std::string::npos);
  CHECK(r.out.find("NOTES") == std::string::npos);
  // helm template prints the test hooks too (--skip-tests drops them); they run in the cluster.
  CHECK(r.out.find("---\n# Source: agent-sandbox/templates/tests/test-connection.yaml\n") !=
        std::string::npos);
}

TEST_CASE("render helm --is-upgrade renders what helm template --is-upgrade renders",
          "[helm][cli]") {
  // node-agent: an init container only an upgrade adds, a Job only a first install runs.
  std::string node_agent = sbr::test::source_dir() + "/fixtures/helm/node-agent";
  Run install = cli({"render", "helm", node_agent});
  Run upgrade = cli({"render", "helm", "--is-upgrade", node_agent});
  INFO(install.err << upgrade.err);
  CHECK(install.code == 0);
  CHECK(upgrade.code == 0);
  CHECK(install.out.find("name: migrate-state") == std::string::npos);
  CHECK(install.out.find("# Source: node-agent/templates/bootstrap-job.yaml") != std::string::npos);
  CHECK(upgrade.out.find("name: migrate-state") != std::string::npos);
  CHECK(upgrade.out.find("# Source: node-agent/templates/bootstrap-job.yaml") == std::string::npos);
}

TEST_CASE("render problems go to stderr with their location and exit 1", "[helm][cli]") {
  Run r = cli({"render", sbr::test::source_dir() + "/fixtures/helm/proxy-unsupported"});
  CHECK(r.code == 1);
  CHECK(r.err.find("templates/configmap.yaml:7:17: chart egress-gateway is not rendered: "
                   "function \"env\" is not defined") != std::string::npos);
}

TEST_CASE("check --helm-set changes what the chart renders, --render=off reads it raw",
          "[helm][cli]") {
  Run base = cli({"check", "--fail-on", "none", chart()});
  CHECK(base.out.find("[SB1001]") != std::string::npos);
  Run fixed = cli(
      {"check", "--fail-on", "none", "--helm-set", "securityContext.privileged=false", chart()});
  CHECK(fixed.out.find("[SB1001]") == std::string::npos);
  Run off = cli({"check", "--fail-on", "none", "--render=off", chart()});
  CHECK(off.out.find("[SB0001]") != std::string::npos);  // templates are not YAML
  CHECK(base.out.find("[SB0001]") == std::string::npos);
  Run bad = cli({"check", "--render=maybe", chart()});
  CHECK(bad.code == 2);
}

}  // namespace helm_cli_test
