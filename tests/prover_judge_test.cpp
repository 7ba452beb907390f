// Judging without podman: findings of a real analysis against hand-written probe reports, as
// the probe prints them. Each case states what the sandbox showed and what the verdict must be.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "generated/rule_ids.h"
#include "prover/lib/controls.h"
#include "prover/lib/judge.h"
#include "prover/lib/runtime_findings.h"
#include "tests/prover_test_support.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace prover_judge_test {

using namespace sbr;
using prove::Verdict;
using Json = nlohmann::json;

namespace {

// What a plain runc container shows; each test changes what its case is about.
Json base_report() {
  return Json::parse(R"({
    "probe": 1, "token": "tok",
    "identity": {"uid": 1000, "gid": 1000, "groups": [], "cap_eff": "0000000000000000",
                 "cap_bnd": "0000000000000000", "cap_amb": "0000000000000000",
                 "no_new_privs": 1, "seccomp": 2, "lsm_label": ""},
    "kernel": {"release": "6.1.0-host", "gvisor": false, "pid": 1},
    "namespaces": {"net": "net:[2]", "pid": "pid:[3]", "user": "user:[1]", "ipc": "ipc:[5]",
                   "uts": "uts:[6]"},
    "filesystem": {"root": {"target": "/", "mounted": true, "read_only_flag": true,
                            "writable": false},
                   "mounts": [], "masked": [{"path": "/proc/keys", "masked": true}]},
    "paths": [],
    "cgroup": {"version": 1, "memory": "536870912", "memory_swap": "1073741824",
               "pids": "256", "cpu": "150000 100000"},
    "network": {"interfaces": [{"name": "lo", "addresses": ["127.0.0.1"]},
                               {"name": "eth0", "addresses": ["10.88.0.5"]}],
                "canaries": [{"name": "gateway", "address": "10.88.0.1:4000",
                              "reachable": true, "banner_ok": true}]},
    "listen": [{"port": 8080, "ok": true}],
    "env": ["HOME", "PATH"]
  })");
}

struct Case {
  test::Analysed a;
  prove::LaunchPlan plan;
  prove::Observation obs;

  Case(const std::string& script, const Json& report,
       std::vector<prove::PortBinding> bindings = {}) {
    a = test::analyse_files({{"run.sh", script}});
    REQUIRE(a.analysis.model.workloads.size() == 1);
    plan = prove::plan_launch(w(), a.analysis.model, test::plan_context());
    obs.launched = true;
    obs.runtime = "podman/" + plan.runtime;
    obs.host_kernel_release = "6.1.0-host";
    obs.host_namespaces = {{"net", "net:[90]"},
                           {"pid", "pid:[91]"},
                           {"user", "user:[1]"},
                           {"ipc", "ipc:[92]"},
                           {"uts", "uts:[93]"}};
    auto r = prove::parse_probe_report(test::probe_line(report.dump()));
    REQUIRE(r.ok());
    obs.probe = *r;
    obs.bindings = std::move(bindings);
  }
  const Workload& w() const { return a.analysis.model.workloads[0]; }
  const Finding* finding(RuleId id) const {
    for (const auto& f : a.findings) {
      if (f.rule_id == id) return &f;
    }
    return nullptr;
  }
  prove::RuntimeVerdict verdict(RuleId id) const {
    const Finding* f = finding(id);
    INFO("no finding " << id);
    REQUIRE(f != nullptr);
    return prove::judge_finding(*f, &w(), &plan, &obs);
  }
  std::vector<prove::Control> controls() const {
    std::set<std::string> reported;
    for (const auto& f : a.findings) reported.insert(std::string(f.rule_id));
    return prove::judge_controls(w(), a.analysis.model, reported, plan, obs);
  }
  const prove::Control& control(const std::string& key) const {
    static std::vector<prove::Control> keep;
    keep = controls();
    for (const auto& c : keep) {
      if (c.key == key) return c;
    }
    FAIL("no control " << key);
    return keep.front();
  }
};

constexpr const char* kDoneWhen = R"(#!/usr/bin/env bash
set -euo pipefail
podman run --rm --cap-drop=ALL --security-opt no-new-privileges --read-only \
  --pids-limit 256 --memory 512m --cpus 1.5 --user 1000:1000 -p 8080:8080 agent:1 claude
)";

}  // namespace

TEST_CASE("prover judge: the hardened launcher's controls are confirmed, its bare -p too",
          "[prover]") {
  Case c(kDoneWhen, base_report(), {{40000, {"0.0.0.0"}, true}});
  CHECK(c.verdict(rule::publish_binds_all_interfaces).verdict == Verdict::Confirmed);
  CHECK(c.verdict(rule::publish_binds_all_interfaces).observed ==
        "`8080:8080` (its host port replaced) listens on 0.0.0.0 and reaches the probe");
  auto boundary = c.verdict(rule::runtime_not_hardened);
  CHECK(boundary.verdict == Verdict::Confirmed);
  CHECK(boundary.runtime == "podman/runc");
  for (const char* key :
       {"capabilities.drop-all", "no-new-privileges", "read-only-root", "limits.memory",
        "limits.pids", "limits.cpu", "user", "seccomp.default"}) {
    INFO(key);
    CHECK(c.control(key).verdict.verdict == Verdict::Confirmed);
  }
  // Nothing true is refuted.
  for (const auto& f : c.a.findings) {
    INFO(f.rule_id << " " << f.message);
    CHECK(prove::judge_finding(f, &c.w(), &c.plan, &c.obs).verdict != Verdict::Refuted);
  }
}

TEST_CASE("prover judge: a loopback -p is refuted as every-interface, and bound loopback",
          "[prover]") {
  Case c(kDoneWhen, base_report(), {{40000, {"127.0.0.1"}, true}});
  CHECK(c.verdict(rule::publish_binds_all_interfaces).verdict == Verdict::Refuted);
  Case lo("#!/bin/sh\npodman run -p 127.0.0.1:8080:8080 agent:1\n", base_report(),
          {{40001, {"127.0.0.1"}, true}});
  CHECK(lo.control("publish.loopback:127.0.0.1:8080:8080").verdict.verdict == Verdict::Confirmed);
  Case wide("#!/bin/sh\npodman run -p 127.0.0.1:8080:8080 agent:1\n", base_report(),
            {{40001, {"0.0.0.0"}, true}});
  CHECK(wide.control("publish.loopback:127.0.0.1:8080:8080").verdict.verdict == Verdict::Refuted);
}

TEST_CASE("prover judge: capabilities kept and privileges allowed are confirmed", "[prover]") {
  Json r = base_report();
  r["identity"]["cap_bnd"] = "00000000a80425fb";
  r["identity"]["no_new_privs"] = 0;
  r["filesystem"]["root"]["read_only_flag"] = false;
  Case c("#!/bin/sh\npodman run --user 0 agent:1\n", r);
  CHECK(c.verdict(rule::capabilities_not_dropped_as_root).verdict == Verdict::Confirmed);
  CHECK(c.verdict(rule::privilege_escalation_allowed).verdict == Verdict::Confirmed);
  CHECK(c.verdict(rule::writable_root_filesystem).verdict == Verdict::Confirmed);
  Json dropped = base_report();
  Case d("#!/bin/sh\npodman run --user 0 agent:1\n", dropped);
  CHECK(d.verdict(rule::capabilities_not_dropped_as_root).verdict == Verdict::Refuted);
  CHECK(d.verdict(rule::writable_root_filesystem).verdict == Verdict::Refuted);
}

TEST_CASE("prover judge: the runtime's limits decide SB6001/SB6005, --memory 0 is no limit",
          "[prover]") {
  Json none = base_report();
  none["cgroup"]["memory"] = "9223372036854771712";
  none["cgroup"]["cpu"] = "-1 100000";
  none["cgroup"]["pids"] = "2048";  // podman's default, as the review expects
  Case c("#!/bin/sh\npodman run --memory 0 --cpus 0 agent:1\n", none);
  // The review reads `--memory 0` and `--cpus 0` as limits; the runtime shows none.
  CHECK(c.finding(rule::no_memory_limit) == nullptr);
  CHECK(c.control("limits.memory").verdict.verdict == Verdict::Refuted);
  CHECK(c.control("limits.cpu").verdict.verdict == Verdict::Refuted);
  std::vector<prove::Judged> judged;
  auto own = prove::runtime_findings(c.w(), c.plan, c.obs, c.controls(), judged);
  size_t absent = 0;
  for (const auto& f : own) absent += f.rule_id == rule::runtime_control_absent ? 1 : 0;
  CHECK(absent == 2);
  Case unlimited("#!/bin/sh\npodman run agent:1\n", none);
  CHECK(unlimited.verdict(rule::no_memory_limit).verdict == Verdict::Confirmed);
  CHECK(unlimited.verdict(rule::no_cpu_limit).verdict == Verdict::Confirmed);
}

TEST_CASE("prover judge: podman's default pids limit refutes a naive 'no pids limit'", "[prover]") {
  Json r = base_report();
  r["cgroup"]["pids"] = "2048";
  // An engine the script leaves open is judged as docker (no default pids limit).
  Case open("#!/bin/sh\n\"$ENGINE\" run --cap-drop=ALL agent:1\n", r);
  auto v = open.verdict(rule::no_pids_limit);
  CHECK(v.verdict == Verdict::Refuted);
  CHECK(v.reason == "podman's default pids limit applies");
  std::vector<prove::Judged> judged = {{open.finding(rule::no_pids_limit), v}};
  auto own = prove::runtime_findings(open.w(), open.plan, open.obs, {}, judged);
  REQUIRE(own.size() == 1);
  CHECK(own[0].rule_id == rule::runtime_refutes_finding);
  // A docker launch really has no default: measured on podman, it stays open.
  Case docker("#!/bin/sh\ndocker run --cap-drop=ALL agent:1\n", r);
  CHECK(docker.verdict(rule::no_pids_limit).verdict == Verdict::Unverifiable);
}

TEST_CASE("prover judge: --network none with -p: the mapping is confirmed dropped", "[prover]") {
  Json r = base_report();
  r["network"]["interfaces"] = Json::array({{{"name", "lo"}, {"addresses", {"127.0.0.1"}}}});
  r["network"]["canaries"][0]["reachable"] = false;
  Case c("#!/bin/sh\npodman run --network none -p 8080:8080 agent:1\n", r, {{40000, {}, false}});
  c.obs.engine_stderr =
      "Port mappings have been discarded as one of the Host, Container, Pod, "
      "and None network modes are in use\n";
  auto v = c.verdict(rule::publish_with_network_none);
  CHECK(v.verdict == Verdict::Confirmed);
  CHECK(v.observed.find("Port mappings have been discarded") != std::string::npos);
  CHECK(c.control("network.none").verdict.verdict == Verdict::Confirmed);
  Case kept("#!/bin/sh\npodman run --network none -p 8080:8080 agent:1\n", r,
            {{40000, {"0.0.0.0"}, true}});
  CHECK(kept.verdict(rule::publish_with_network_none).verdict == Verdict::Refuted);
}

TEST_CASE("prover judge: what the launch left out is not verifiable, never refuted", "[prover]") {
  Json r = base_report();
  r["filesystem"]["mounts"] = Json::array({{{"target", "/host-etc"},
                                            {"mounted", true},
                                            {"read_only_flag", false},
                                            {"writable", true}}});
  Case c("#!/bin/sh\npodman run -v /etc:/host-etc:U --device /dev/kvm agent:1\n", r);
  CHECK(c.verdict(rule::host_mount_chown).verdict == Verdict::Unverifiable);
  CHECK(c.verdict(rule::host_device_access).verdict == Verdict::Unverifiable);
  CHECK(c.verdict(rule::host_system_path_writable).verdict == Verdict::Confirmed);
  // The image's USER decides the uid: the probe's uid does not refute "runs as root".
  CHECK(c.verdict(rule::runs_as_root).verdict == Verdict::Unverifiable);
}

TEST_CASE("prover judge: gVisor is recognised, its missing NoNewPrivs and cgroups are open",
          "[prover]") {
  Json r = base_report();
  r["kernel"]["gvisor"] = true;
  r["kernel"]["release"] = "4.4.0";
  r["identity"].erase("no_new_privs");
  r["cgroup"] = {{"version", 0}};
  Case c(
      "#!/bin/sh\npodman run --runtime runsc --security-opt no-new-privileges "
      "--memory 1g agent:1\n",
      r);
  CHECK(c.plan.runtime == "runsc");
  CHECK(c.control("runtime.gvisor").verdict.verdict == Verdict::Confirmed);
  CHECK(c.control("no-new-privileges").verdict.verdict == Verdict::Unverifiable);
  CHECK(c.control("limits.memory").verdict.verdict == Verdict::Unverifiable);
  Json runc = base_report();
  Case fake("#!/bin/sh\npodman run --runtime runsc agent:1\n", runc);
  CHECK(fake.control("runtime.gvisor").verdict.verdict == Verdict::Refuted);
}

TEST_CASE("prover judge: a failed launch leaves every verdict open and is SB0040", "[prover]") {
  Case c(kDoneWhen, base_report());
  c.obs.launched = false;
  c.obs.probe.reset();
  c.obs.error = "Error: cannot parse \"localhost\" as an IP address";
  auto v = c.verdict(rule::publish_binds_all_interfaces);
  CHECK(v.verdict == Verdict::Unverifiable);
  CHECK(v.reason == "the launch failed: Error: cannot parse \"localhost\" as an IP address");
  auto own = prove::runtime_findings(c.w(), c.plan, c.obs, c.controls(), {});
  REQUIRE(own.size() == 1);
  CHECK(own[0].rule_id == rule::runtime_launch_failed);
  CHECK(own[0].message.find("cannot parse") != std::string::npos);
}

TEST_CASE("prover judge: a runtime socket reached through a read-only mount is confirmed",
          "[prover]") {
  Json r = base_report();
  r["paths"] = Json::array({{{"path", "/var/run/docker.sock"},
                             {"exists", true},
                             {"type", "socket"},
                             {"connects", true}}});
  r["filesystem"]["mounts"] = Json::array(
      {{{"target", "/var/run/docker.sock"}, {"mounted", true}, {"read_only_flag", true}}});
  Case c("#!/bin/sh\npodman run -v /var/run/docker.sock:/var/run/docker.sock:ro agent:1\n", r);
  CHECK(c.verdict(rule::runtime_socket_mount).verdict == Verdict::Confirmed);
  CHECK(c.control("mount.read-only:/var/run/docker.sock").verdict.verdict == Verdict::Confirmed);
}

TEST_CASE("prover judge: a finding about no workload is not verifiable", "[prover]") {
  Finding f;
  f.rule_id = rule::parse_error;
  auto v = prove::judge_finding(f, nullptr, nullptr, nullptr);
  CHECK(v.verdict == Verdict::Unverifiable);
  CHECK(v.reason == "not about a workload the prover launches");
}

}  // namespace prover_judge_test
