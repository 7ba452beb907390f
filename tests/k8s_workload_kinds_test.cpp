// Which Kubernetes objects are workloads (OpenShift Template and DeploymentConfig, pod specs
// without containers; Argo Rollouts and Knative Services as long-lived controllers) and a
// devcontainer that a pod builds with envbuilder (docs/kubernetes.md).
#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "analyzer/check/catalog.h"
#include "analyzer/check/runner.h"
#include "analyzer/pipeline/analysis.h"
#include "tests/fixture_harness.h"
#include "tests/temp_dir.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace k8s_workload_kinds_test {

using namespace sbr;

namespace {

Analysis analyze_fixture(const std::string& rel) {
  Config config;
  return analyze({test::source_dir() + "/fixtures/k8s/" + rel}, config, {});
}

const Workload* find(const Model& m, Engine engine, const std::string& name) {
  for (const Workload& w : m.workloads) {
    if (w.engine == engine && w.id.name == name) return &w;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("an OpenShift Template's DeploymentConfigs are workloads, with or without containers",
          "[k8s]") {
  Analysis an = analyze_fixture("openshift-template");
  const Workload* coder = find(an.model, Engine::Kubelet, "agent-<WORKSPACE>");
  REQUIRE(coder != nullptr);  // a required parameter without a default reads as <NAME>
  CHECK(coder->id.container == "coder");
  CHECK_FALSE(coder->pod_only);
  CHECK(coder->lifecycle.controller == Controller::Deployment);

  const Workload* indexer = find(an.model, Engine::Kubelet, "agent-<WORKSPACE>-indexer");
  REQUIRE(indexer != nullptr);
  CHECK(indexer->pod_only);
  REQUIRE(indexer->network.host_pid);
  CHECK(indexer->network.host_pid->value);
  REQUIRE(indexer->mounts.size() == 1);
  CHECK(indexer->mounts[0].kind == MountKind::HostPath);
  CHECK(indexer->mounts[0].target.empty());

  Config config;
  auto findings = run_checks(an.model, Catalog::embedded(), config, {"2026-01-01"});
  bool host_pid = false, container_rule = false;
  for (const Finding& f : findings) {
    if (f.subject.view().find("indexer") == std::string_view::npos) continue;
    host_pid = host_pid || f.rule_id == "SB1002";
    // No container exists: its fields are not judged as missing.
    for (const char* r : {"SB2002", "SB2005", "SB2006", "SB2008", "SB6001"}) {
      container_rule = container_rule || f.rule_id == r;
    }
  }
  CHECK(host_pid);
  CHECK_FALSE(container_rule);
  // The invalid object is reported beside those findings (SB0005 comes from this problem).
  bool problem = false;
  for (const Problem& p : an.model.problems) {
    problem = problem || (p.kind == ProblemKind::InvalidObject &&
                          p.message.find("has no containers") != std::string::npos);
  }
  CHECK(problem);
}

TEST_CASE("a devcontainer envbuilder builds inside a Sandbox is judged as part of it", "[k8s]") {
  Analysis an = analyze_fixture("envbuilder-sandbox");
  CHECK(find(an.model, Engine::Devcontainer, ".devcontainer/devcontainer.json") == nullptr);
  const Workload* pod = find(an.model, Engine::Kubelet, "payments-agent");
  REQUIRE(pod != nullptr);
  REQUIRE(pod->runs_devcontainer);
  CHECK(pod->runs_devcontainer->value == ".devcontainer/devcontainer.json");
  CHECK(pod->features.size() == 3);
  bool stripe = false;
  for (const EnvVar& e : pod->env) stripe = stripe || e.name == "STRIPE_API_KEY";
  CHECK(stripe);
  // What only a container engine applies (runArgs, docker-in-docker's privileged flag) does
  // not reach a pod that already runs.
  CHECK_FALSE(pod->identity.privileged);
  CHECK(pod->identity.cap_add.empty());
}

TEST_CASE("a remote ENVBUILDER_GIT_URL leaves the repository's devcontainer on its own", "[k8s]") {
  Analysis an = analyze_fixture("envbuilder-remote");
  const Workload* dev = find(an.model, Engine::Devcontainer, ".devcontainer/devcontainer.json");
  REQUIRE(dev != nullptr);
  CHECK(dev->identity.privileged);
  const Workload* pod = find(an.model, Engine::Kubelet, "storefront-agent");
  REQUIRE(pod != nullptr);
  CHECK_FALSE(pod->runs_devcontainer);
  CHECK(pod->features.empty());
}

TEST_CASE("an Argo Rollout and a Knative Service are long-lived controllers", "[k8s]") {
  test::TempDir dir("sbr-kinds");
  dir.write("rollout.yaml",
            "apiVersion: argoproj.io/v1alpha1\nkind: Rollout\nmetadata:\n  name: agent-api\n"
            "spec:\n  strategy:\n    canary: {steps: [{setWeight: 20}]}\n  template:\n"
            "    spec:\n      containers:\n        - name: api\n          image: acme/api:3\n");
  dir.write("worker.yaml",
            "apiVersion: serving.knative.dev/v1\nkind: Service\nmetadata:\n  name: worker\n"
            "spec:\n  template:\n    spec:\n      containers:\n"
            "        - image: acme/worker:2\n");
  Config config;
  Analysis an = analyze({dir.path.string()}, config, {});
  auto findings = run_checks(an.model, Catalog::embedded(), config, {"2026-01-01"});
  std::set<std::string> long_lived;
  for (const Finding& f : findings) {
    if (f.rule_id.str() == "SB7001") long_lived.insert(an.model.files.path(f.at.file));
  }
  CHECK(long_lived == std::set<std::string>{"rollout.yaml", "worker.yaml"});
}

}  // namespace k8s_workload_kinds_test
