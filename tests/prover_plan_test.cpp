// Launch planning without podman: what a launcher or a manifest becomes, what is passed,
// what is replaced by a stand-in and what is left out, with the reason.
#include <catch2/catch.hpp>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "tests/prover_test_support.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace prover_plan_test {

using namespace sbr;
using prove::LaunchKind;

namespace {

bool has(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

std::string not_passed_text(const prove::LaunchPlan& p) {
  std::string out;
  for (const auto& n : p.not_passed) out += n.what + ": " + n.reason + "\n";
  return out;
}

prove::LaunchPlan plan_of(const test::Analysed& a, size_t i = 0, bool runsc = true) {
  REQUIRE(a.analysis.model.workloads.size() > i);
  return prove::plan_launch(a.analysis.model.workloads[i], a.analysis.model,
                            test::plan_context(runsc));
}

}  // namespace

TEST_CASE("prover plan: a hardened launcher passes its controls and replaces image and command",
          "[prover]") {
  auto a = test::analyse_files({{"bin/agentbox", R"(#!/usr/bin/env bash
set -euo pipefail
hardening=(--cap-drop=ALL --security-opt no-new-privileges --read-only --pids-limit 256)
limits=(--memory 512m --cpus 1.5)
podman run --rm "${hardening[@]}" "${limits[@]}" --user 1000:1000 -p 8080:8080 \
  -e ANTHROPIC_API_KEY=sk-not-a-real-key ghcr.io/acme/agent:2 claude --yolo
)"}});
  auto p = plan_of(a);
  INFO(not_passed_text(p));
  CHECK(p.kind == LaunchKind::PodmanRun);
  CHECK(p.runtime == "runc");
  for (const char* o : {"--cap-drop=ALL", "--security-opt=no-new-privileges", "--read-only",
                        "--pids-limit=256", "--memory=512m", "--cpus=1.5", "--user=1000:1000",
                        "--publish=40000:8080", "--env=ANTHROPIC_API_KEY=sbreview-prove"}) {
    INFO(o);
    CHECK(has(p.options, o));
  }
  // The written host port is replaced by a free one; the address (none) is kept as written.
  REQUIRE(p.publishes.size() == 1);
  CHECK(p.publishes[0].host_ip.empty());
  CHECK(p.publishes[0].host_port == 40000);
  CHECK(p.listen == std::vector<int>{8080});
  auto args = prove::podman_run_args(p, test::plan_context(), {"tok", {"gateway=10.88.0.1:5"}, 0});
  std::string joined;
  for (const auto& s : args) joined += s + " ";
  CHECK(joined.find("ghcr.io/acme/agent") == std::string::npos);  // the image is replaced
  CHECK(joined.find("claude") == std::string::npos);              // and the command
  CHECK(joined.find("sk-not-a-real-key") == std::string::npos);   // values never pass
  CHECK(joined.find("--pull=never") != std::string::npos);
  CHECK(joined.find("--label sbreview.prove.run=sbrp-test") != std::string::npos);
  CHECK(joined.find("localhost/sbreview-probe-sbrp-test:latest /probe --token tok") !=
        std::string::npos);
}

TEST_CASE("prover plan: host paths become stand-ins, :U, --device and --env-file are left out",
          "[prover]") {
  auto a = test::analyse_files({{"run.sh", R"(#!/bin/sh
set -eu
exec podman run --rm -v /etc:/host-etc:U -v /var/run/docker.sock:/var/run/docker.sock:ro \
  -v "$HOME/.ssh:/home/agent/.ssh:ro,rshared" --device /dev/kvm --env-file ./agent.env \
  -v cache:/cache docker.io/library/alpine sleep 1
)"}});
  auto p = plan_of(a);
  std::string skipped = not_passed_text(p);
  INFO(skipped);
  CHECK(skipped.find("/etc:/host-etc option :U: changes host files") != std::string::npos);
  CHECK(skipped.find("--device /dev/kvm: reaches a host device") != std::string::npos);
  CHECK(skipped.find("--env-file ./agent.env") != std::string::npos);
  // No host path reaches the launch: every -v source is under the run's stand-in directory
  // or a volume named after the run.
  for (const auto& o : p.options) {
    if (o.rfind("--volume=", 0) != 0) continue;
    INFO(o);
    CHECK((o.rfind("--volume=/run-dir/w0/", 0) == 0 || o.rfind("--volume=sbrp-test-w0-", 0) == 0));
  }
  CHECK(has(p.options, "--volume=/run-dir/w0/m1:/host-etc"));
  CHECK(has(p.options, "--volume=/run-dir/w0/m2.sock:/var/run/docker.sock:ro"));
  CHECK(has(p.options, "--volume=/run-dir/w0/m3:/home/agent/.ssh:ro,rshared"));
  CHECK(has(p.options, "--volume=sbrp-test-w0-vol4:/cache"));
  REQUIRE(p.stand_ins.size() == 4);
  CHECK(p.stand_ins[1].kind == prove::StandIn::Kind::Socket);
  CHECK(p.stand_ins[3].kind == prove::StandIn::Kind::Volume);
  CHECK(p.paths == std::vector<std::string>{"/var/run/docker.sock"});
  CHECK(has(p.mounts, "/host-etc"));
}

TEST_CASE("prover plan: a directory holding runtime sockets gets a stand-in socket inside",
          "[prover]") {
  auto a = test::analyse_files({{"run.sh",
                                 "#!/bin/sh\npodman run -v /run/podman:/run/podman:ro "
                                 "alpine true\n"}});
  auto p = plan_of(a);
  REQUIRE(p.stand_ins.size() == 1);
  CHECK(p.stand_ins[0].kind == prove::StandIn::Kind::Directory);
  CHECK(p.stand_ins[0].socket_inside == "podman.sock");
  CHECK(p.paths == std::vector<std::string>{"/run/podman/podman.sock"});
}

TEST_CASE("prover plan: gVisor runs with its network off, and not at all without runsc",
          "[prover]") {
  auto a = test::analyse_files({{"run.sh",
                                 "#!/bin/sh\npodman run --runtime runsc -p "
                                 "127.0.0.1:3000:3000 alpine true\n"}});
  auto p = plan_of(a, 0, true);
  CHECK(p.runtime == "runsc");
  CHECK(has(p.options, "--runtime=runsc"));
  CHECK(has(p.options, "--runtime-flag=network=none"));
  CHECK(has(p.options, "--network=none"));
  CHECK(p.publishes.empty());
  CHECK(not_passed_text(p).find("gVisor runs here with network=none") != std::string::npos);
  auto none = plan_of(a, 0, false);
  CHECK(none.kind == LaunchKind::None);
  CHECK(none.why_not == "gVisor (runsc) is not installed here");
}

TEST_CASE("prover plan: a Kubernetes container becomes a kube-play Pod with what podman honours",
          "[prover]") {
  auto a = test::analyse_files({{"k8s/pod.yaml", R"(apiVersion: v1
kind: Pod
metadata:
  name: agent
spec:
  hostPID: true
  securityContext:
    runAsNonRoot: true
  containers:
    - name: agent
      image: ghcr.io/acme/agent:2
      command: ["claude", "--dangerously-skip-permissions"]
      securityContext:
        runAsUser: 1000
        allowPrivilegeEscalation: false
        readOnlyRootFilesystem: true
        capabilities: {drop: [ALL]}
      resources:
        limits: {memory: 256Mi, cpu: 500m}
      ports: [{containerPort: 8080, hostPort: 8080}]
      env: [{name: GITHUB_TOKEN, value: ghp_notarealtokennotarealtokennotarealtok}]
      volumeMounts: [{name: scratch, mountPath: /scratch}, {name: host, mountPath: /host, readOnly: true}]
  volumes:
    - {name: scratch, emptyDir: {sizeLimit: 1Gi}}
    - {name: host, hostPath: {path: /var/lib/agent, type: DirectoryOrCreate}}
)"}});
  auto p = plan_of(a);
  REQUIRE(p.kind == LaunchKind::KubePlay);
  auto pod = nlohmann::json::parse(p.pod_json);
  const auto& c = pod["spec"]["containers"][0];
  CHECK(pod["kind"] == "Pod");
  CHECK(pod["spec"]["restartPolicy"] == "Never");
  CHECK(pod["metadata"]["labels"]["sbreview.prove.run"] == "sbrp-test");
  CHECK(c["image"] == "localhost/sbreview-probe-sbrp-test:latest");
  CHECK(c["imagePullPolicy"] == "Never");
  CHECK_FALSE(c.contains("command"));  // the probe's, added at launch
  CHECK(c["securityContext"]["runAsUser"] == 1000);
  CHECK(c["securityContext"]["capabilities"]["drop"] == nlohmann::json::array({"ALL"}));
  CHECK(c["resources"]["limits"]["memory"] == "256Mi");
  CHECK(c["ports"][0]["hostPort"] == 40000);
  CHECK(c["env"][0] == nlohmann::json({{"name", "GITHUB_TOKEN"}, {"value", "sbreview-prove"}}));
  // The hostPath is a stand-in that exists (never DirectoryOrCreate on a host path).
  CHECK(pod["spec"]["volumes"][1]["hostPath"]["path"] == "/run-dir/w0/m2");
  CHECK(pod["spec"]["volumes"][1]["hostPath"]["type"] == "Directory");
  CHECK_FALSE(pod["spec"].contains("hostPID"));
  std::string skipped = not_passed_text(p);
  INFO(skipped);
  CHECK(skipped.find("hostPID: podman kube play ignores it") != std::string::npos);
  CHECK(skipped.find("runAsNonRoot: podman kube play ignores it") != std::string::npos);
  CHECK(skipped.find("emptyDir sizeLimit /scratch") != std::string::npos);
}

TEST_CASE("prover plan: a pod spec without containers and a microVM are not launched", "[prover]") {
  auto a = test::analyse_files({{"run.sh", "#!/bin/sh\npodman run --runtime kata alpine true\n"}});
  auto p = plan_of(a);
  CHECK(p.kind == LaunchKind::None);
  CHECK(p.why_not.find("microVM") != std::string::npos);
}

TEST_CASE("prover plan: the probe's command line", "[prover]") {
  prove::LaunchPlan p;
  p.listen = {8080};
  p.mounts = {"/data"};
  p.paths = {"/var/run/docker.sock"};
  auto cmd = prove::probe_command(p, {"tok", {"gateway=10.88.0.1:4000"}, 250}, true);
  CHECK(cmd == std::vector<std::string>{"/probe", "--token", "tok", "--listen", "8080", "--canary",
                                        "gateway=10.88.0.1:4000", "--mount", "/data", "--path",
                                        "/var/run/docker.sock", "--linger-ms", "250",
                                        "--until-stdin-eof"});
}

}  // namespace prover_plan_test
