// The Kubernetes frontend: golden model dumps for whole directories, and the semantics that
// decide findings (inheritance, unwrapping, policy selection, QoS, agent-sandbox defaults).
#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "analyzer/engine/defaults.h"
#include "analyzer/engine/qos.h"
#include "analyzer/frontends/k8s/k8s_frontend.h"
#include "analyzer/pipeline/analysis.h"
#include "analyzer/report/report.h"
#include "tests/fixture_harness.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace k8s_frontend_test {

using namespace sbr;

namespace {

// Reads manifests from memory into a linked model.
Model model_of(std::vector<std::string> docs) {
  Model m;
  for (size_t i = 0; i < docs.size(); ++i) {
    SourceFile f;
    f.path = "m" + std::to_string(i) + ".yaml";
    f.id = m.files.add(f.path);
    f.type = FileType::Yaml;
    f.bytes = docs[i];
    f.readable = true;
    FilePart part;
    read_kubernetes_file(f, part);
    merge_part(std::move(part), m);
  }
  link_kubernetes(m);
  engine::derive_pod_qos(m);
  return m;
}

const Workload& only(const Model& m, const std::string& container) {
  for (const auto& w : m.workloads) {
    if (w.id.container == container) return w;
  }
  FAIL("no workload for container " << container);
  return m.workloads.front();
}

}  // namespace

TEST_CASE("golden model dumps of the Kubernetes fixtures", "[k8s]") {
  test::check_golden_dump("fixtures/k8s/mixed", "fixtures/k8s/golden/mixed.dump");
  test::check_golden_dump("fixtures/k8s/frontend", "fixtures/k8s/golden/frontend.dump");
}

TEST_CASE("container securityContext overrides the pod's, provenance follows the winner", "[k8s]") {
  Model m = model_of({R"(apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  securityContext:
    runAsUser: 0
    runAsNonRoot: false
  containers:
  - name: a
    image: x
    securityContext:
      runAsUser: 1000
  - name: b
    image: x
)"});
  const Workload& a = only(m, "a");
  const Workload& b = only(m, "b");
  REQUIRE(a.identity.run_as_user);
  CHECK(a.identity.run_as_user->value == 1000);
  CHECK(a.identity.run_as_user->from.at.line == 12);
  CHECK(b.identity.run_as_user->value == 0);
  CHECK(b.identity.run_as_user->from.at.line == 6);
  CHECK(a.container_from.at.line == 9);
  CHECK(a.pod_spec_from.at.line == 4);
  CHECK(a.object_from.at.line == 2);
}

TEST_CASE("a RuntimeClass in the input decides by its handler", "[k8s]") {
  Model m = model_of({R"(apiVersion: apps/v1
kind: Deployment
metadata: {name: d}
spec:
  template:
    spec:
      runtimeClassName: gvisor
      containers: [{name: c, image: x}]
)",
                      "apiVersion: node.k8s.io/v1\nkind: RuntimeClass\nmetadata: {name: "
                      "gvisor}\nhandler: runc\n"});
  const Workload& w = only(m, "c");
  REQUIRE(w.runtime_handler);
  CHECK(w.runtime_handler->value == "runc");
  CHECK(engine::effective_runtime(w, m.cluster_facts).kind == engine::RuntimeKind::Runc);
  Model n =
      model_of({"apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  runtimeClassName: "
                "kata-fc\n  containers: [{name: c, image: x}]\n"});
  CHECK(engine::effective_runtime(only(n, "c"), n.cluster_facts).kind ==
        engine::RuntimeKind::MicroVm);
}

TEST_CASE("NetworkPolicy selection: union, implied types, expressions, namespaces", "[k8s]") {
  const std::string pod = R"(apiVersion: v1
kind: Pod
metadata: {name: p, namespace: a, labels: {app: agent, tier: x}}
spec:
  containers: [{name: c, image: x}]
)";
  const std::string ingress_only = R"(apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: ingress-only, namespace: a}
spec:
  podSelector: {}
  ingress: []
)";
  const std::string egress_expr = R"(apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: egress, namespace: a}
spec:
  podSelector:
    matchExpressions:
    - {key: app, operator: In, values: [agent, tool]}
  egress:
  - ports: [{port: 53, protocol: UDP}]
)";
  const std::string other_ns = R"(apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: elsewhere, namespace: b}
spec:
  podSelector: {}
  policyTypes: [Egress]
)";
  Model m = model_of({pod, ingress_only, egress_expr, other_ns});
  const Workload& w = only(m, "c");
  CHECK(w.network.ingress_default_deny);
  REQUIRE(w.network.egress.size() == 1);  // implied Egress from the rules; namespace b ignored
  const EgressGate& g = w.network.egress[0];
  CHECK(g.name == "NetworkPolicy a/egress");
  REQUIRE(g.allows.size() == 1);
  CHECK(g.allows[0].dest == DestKind::Any);  // a rule without `to` reaches every destination
  REQUIRE(g.allows[0].ports.size() == 1);
  CHECK(g.allows[0].ports[0].from == 53);
}

TEST_CASE("Services and Ingresses that reach a pod become exposures", "[k8s]") {
  Model m = model_of({R"(apiVersion: v1
kind: Pod
metadata: {name: p, labels: {app: agent}}
spec:
  containers: [{name: c, image: x}]
---
apiVersion: v1
kind: Service
metadata: {name: internal}
spec:
  selector: {app: agent}
---
apiVersion: v1
kind: Service
metadata: {name: lb}
spec:
  type: LoadBalancer
  selector: {app: agent}
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: web}
spec:
  rules:
  - http:
      paths:
      - path: /
        pathType: Prefix
        backend:
          service: {name: internal, port: {number: 80}}
)"});
  const Workload& w = only(m, "c");
  REQUIRE(w.network.exposures.size() == 2);
  CHECK(w.network.exposures[0].kind == ExposureKind::Ingress);
  CHECK(w.network.exposures[0].from.at.line == 30);
  CHECK(w.network.exposures[1].kind == ExposureKind::LoadBalancer);
  CHECK(w.network.exposures[1].from.at.line == 17);
}

TEST_CASE("service-account token: pod overrides account, SandboxTemplate defaults to none",
          "[k8s]") {
  Model m = model_of({R"(apiVersion: v1
kind: ServiceAccount
metadata: {name: runner}
automountServiceAccountToken: false
---
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  serviceAccountName: runner
  automountServiceAccountToken: true
  containers: [{name: pod-wins, image: x}]
---
apiVersion: v1
kind: Pod
metadata: {name: q}
spec:
  serviceAccountName: runner
  containers: [{name: account-wins, image: x}]
---
apiVersion: agents.x-k8s.io/v1alpha1
kind: Sandbox
metadata: {name: direct}
spec:
  podTemplate:
    spec:
      containers: [{name: direct-sandbox, image: x}]
---
apiVersion: extensions.agents.x-k8s.io/v1alpha1
kind: SandboxTemplate
metadata: {name: tpl}
spec:
  podTemplate:
    spec:
      containers: [{name: from-template, image: x}]
)"});
  CHECK(engine::mounts_service_account_token(only(m, "pod-wins")));
  CHECK_FALSE(engine::mounts_service_account_token(only(m, "account-wins")));
  CHECK(engine::mounts_service_account_token(only(m, "direct-sandbox")));
  CHECK_FALSE(engine::mounts_service_account_token(only(m, "from-template")));
  CHECK(only(m, "account-wins").service.account_from.at.line == 2);
}

TEST_CASE("QoS is computed per pod after LimitRange defaults", "[k8s]") {
  Model m = model_of({R"(apiVersion: v1
kind: Pod
metadata: {name: g}
spec:
  containers:
  - name: guaranteed
    image: x
    resources: {limits: {memory: 1Gi, cpu: "1"}, requests: {memory: 1024Mi, cpu: 1000m}}
---
apiVersion: v1
kind: Pod
metadata: {name: b}
spec:
  containers:
  - name: best-effort
    image: x
)"});
  CHECK(only(m, "guaranteed").resources.qos == QosClass::Guaranteed);
  CHECK(only(m, "best-effort").resources.qos == QosClass::BestEffort);
}

TEST_CASE("bad manifests become problems and do not stop the rest", "[k8s]") {
  Model m = model_of(
      {"a: [1\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: ok}\nspec:\n  containers: [{name: "
       "c, image: x}]\n",
       "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec: {replicas: 1}\n"});
  REQUIRE(m.workloads.size() == 1);
  REQUIRE(m.problems.size() == 2);
  CHECK(m.problems[0].kind == ProblemKind::ParseError);
  CHECK(m.problems[1].kind == ProblemKind::InvalidObject);
  CHECK(m.problems[1].at.line == 2);
}

TEST_CASE("Cilium FQDN rules with quoted ports are an FQDN allowlist on that port", "[k8s]") {
  Model m = model_of({R"(apiVersion: v1
kind: Pod
metadata: {name: p, labels: {app: agent}}
spec:
  containers: [{name: c, image: x}]
---
apiVersion: cilium.io/v2
kind: CiliumNetworkPolicy
metadata: {name: fqdn}
spec:
  endpointSelector: {matchLabels: {app: agent}}
  egress:
  - toFQDNs:
    - matchName: api.anthropic.com
    toPorts:
    - ports:
      - {port: "443", protocol: TCP}
)"});
  const Workload& w = only(m, "c");
  REQUIRE(w.network.egress.size() == 1);
  const EgressGate& g = w.network.egress[0];
  CHECK(g.kind == GateKind::CiliumNetworkPolicy);
  REQUIRE(g.allows.size() == 1);
  CHECK(g.allows[0].dest == DestKind::Fqdn);
  CHECK(g.allows[0].value == "api.anthropic.com");
  REQUIRE(g.allows[0].ports.size() == 1);
  CHECK(g.allows[0].ports[0].from == 443);
}

TEST_CASE("cluster tools' configuration files are other YAML, not invalid objects", "[k8s]") {
  // A kind cluster config (in a repository's CI) and a kubelet configuration borrow apiVersion
  // and kind, have no metadata.name and are never applied: no SB0005 (ingress-nginx, vault-helm,
  // sandbox0 and five more repositories of the real-world corpus carry a kind config).
  Model m =
      model_of({"kind: Cluster\n"
                "apiVersion: kind.x-k8s.io/v1alpha4\n"
                "nodes:\n"
                "  - role: control-plane\n"
                "  - role: worker\n",
                "apiVersion: kubelet.config.k8s.io/v1beta1\n"
                "kind: KubeletConfiguration\n"
                "seccompDefault: true\n",
                "apiVersion: v1\nkind: Pod\nspec:\n  containers:\n    - name: a\n"
                "      image: a\n"});
  CHECK(m.summary.other_yaml_documents == 2);
  CHECK(m.summary.kubernetes_documents == 1);
  REQUIRE(m.problems.size() == 1);  // only the Pod without a name
  CHECK(m.problems[0].message ==
        "Pod has no metadata.name: the object is invalid and cannot be "
        "applied");
}

TEST_CASE("a pod named by generateName is named by its prefix", "[k8s]") {
  // kata-containers' genpolicy test data: `metadata: {generateName: dummy}` (the API server
  // appends five random characters). Before, the messages read "Pod , container dummy".
  Model m =
      model_of({"apiVersion: v1\nkind: Pod\nmetadata:\n  generateName: dummy\n"
                "spec:\n  containers:\n    - name: dummy\n      image: pause\n"});
  CHECK(m.problems.empty());
  const Workload& w = only(m, "dummy");
  CHECK(w.id.name == "dummy*");
}

}  // namespace k8s_frontend_test
