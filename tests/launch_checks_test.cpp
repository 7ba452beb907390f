// The launcher checks on hand-built models: engine defaults, conditions, no secret in messages.
#include <catch2/catch.hpp>

#include "analyzer/frontends/launch/launch.h"
#include "invariants/modules.h"
#include "tests/inv_test_support.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace launch_checks_test {

using namespace sbr;

namespace {

Workload launched(std::vector<std::string> args, std::vector<Condition> conds = {}) {
  Invocation inv;
  for (std::size_t i = 0; i < args.size(); ++i) {
    Word w;
    w.text = args[i];
    w.from.at = Location{0, static_cast<std::uint32_t>(i + 1), 1};
    if (i < conds.size()) w.from.set_condition(conds[i]);
    inv.argv.push_back(std::move(w));
  }
  FilePart out;
  REQUIRE(workloads_from_invocation(inv, {}, out));
  return out.workloads.at(0);
}

template <class Check>
std::vector<Finding> run(Check check, std::vector<Workload> ws) {
  Model m;
  m.workloads = std::move(ws);
  Findings f;
  check(m, f);
  return f.items();
}

}  // namespace

TEST_CASE("publish checks: every form, and modes that bind nothing", "[launch]") {
  auto f = run(test::rules_named({"SB5050", "SB5051", "SB5052"}),
               {launched({"podman", "run", "-p", "8080:80", "-p", "9000", "-P", "-p", "0.0.0.0:1:1",
                          "-p", "[::1]:2:2", "-p", "127.0.0.1:3:3", "img"})});
  REQUIRE(f.size() == 4);
  CHECK(f[0].rule_id == "SB5050");
  CHECK(f[0].at.line == 4);
  CHECK(f[1].rule_id == "SB5050");
  CHECK(f[2].rule_id == "SB5050");
  CHECK(f[2].at.line == 7);  // -P itself
  CHECK(f[3].rule_id == "SB5051");
  CHECK(f[3].fact_path == "ports/0.0.0.0:1:1");
  CHECK(run(test::rules_named({"SB5050", "SB5051", "SB5052"}),
            {launched({"podman", "run", "--network", "none", "-p", "8080:80", "img"})})
            .empty());
  // `none` on one branch, the publish on the other: the publish is live on its path.
  Condition a{"when NET=none", true}, b{"when NET!=none", false};
  auto g = run(test::rules_named({"SB5050", "SB5051", "SB5052"}),
               {launched({"podman", "run", "--network", "none", "-p", "8080:80", "img"},
                         {{}, {}, a, a, b, b})});
  REQUIRE(g.size() == 1);
  CHECK(g[0].condition().text == "when NET!=none");
}

TEST_CASE("publish with --network none: podman and unresolved engines, not docker", "[launch]") {
  auto p = run(test::rules_named({"SB7005", "SB7080", "SB7081", "SB7082"}),
               {launched({"podman", "run", "--network=none", "-p", "127.0.0.1:8080:80", "img"})});
  REQUIRE(p.size() == 1);
  CHECK(p[0].rule_id == "SB7080");
  CHECK(p[0].at.line == 5);  // the publish value's word
  REQUIRE(p[0].related.size() == 1);
  CHECK(p[0].related[0].at.line == 3);
  CHECK(run(test::rules_named({"SB7005", "SB7080", "SB7081", "SB7082"}),
            {launched({"docker", "run", "--network=none", "-p", "8080:80", "img"})})
            .empty());
  Workload u = launched({"docker", "run", "--network=none", "-p", "8080:80", "img"});
  u.engine_unresolved = true;
  CHECK(run(test::rules_named({"SB7005", "SB7080", "SB7081", "SB7082"}), {u}).size() == 1);
}

TEST_CASE("none on the default path, host behind a switch: the publish is discarded", "[launch]") {
  Condition full{"when NET=full", true}, dflt{"when NET!=full", false};
  Workload w = launched(
      {"podman", "run", "--network", "host", "--network", "none", "-p", "5173:5173", "img"},
      {{}, {}, full, full, dflt, dflt, dflt, dflt});
  CHECK(run(test::rules_named({"SB5050", "SB5051", "SB5052"}), {w}).empty());
  auto f = run(test::rules_named({"SB7005", "SB7080", "SB7081", "SB7082"}), {w});
  REQUIRE(f.size() == 1);
  CHECK(f[0].rule_id == "SB7080");
}

TEST_CASE("pids limit judged with the engine's default", "[launch]") {
  CHECK(run(test::rules_named({"SB6002", "SB6003"}), {launched({"podman", "run", "img"})}).empty());
  auto d = run(test::rules_named({"SB6002", "SB6003"}),
               {launched({"docker", "run", "--memory-swap=-1", "img"})});
  REQUIRE(d.size() == 2);
  CHECK(d[0].rule_id == "SB6002");
  CHECK(d[0].at.line == 3);
  CHECK(d[1].rule_id == "SB6003");
  CHECK(d[1].at.line == 1);  // the invocation's first word
  auto zero = run(test::rules_named({"SB6002", "SB6003"}),
                  {launched({"podman", "run", "--pids-limit", "-1", "img"})});
  REQUIRE(zero.size() == 1);
  CHECK(zero[0].at.line == 4);
  Workload u = launched({"podman", "run", "img"});
  u.engine = Engine::Docker;
  u.engine_unresolved = true;
  auto un = run(test::rules_named({"SB6002", "SB6003"}), {u});
  REQUIRE(un.size() == 1);
  CHECK(un[0].message.find("judged as docker") != std::string::npos);
  Workload k;  // Kubernetes pods are judged by their own rule
  k.engine = Engine::Kubelet;
  CHECK(run(test::rules_named({"SB6002", "SB6003"}), {k}).empty());
}

// A public value (MODE) is no secret to keep off the command line (issue 34 §5).
TEST_CASE("values on argv: high for secret names, medium for a secret word, never the value",
          "[launch]") {
  auto f = run(test::rules_named({"SB4070", "SB4071"}),
               {launched({"podman", "run", "-e", "MODE=x", "-e", "API_TOKEN=supersecretvalue", "-e",
                          "HOME_COPY", "-e", "GH_AUTH=opaque-value", "img"})});
  REQUIRE(f.size() == 2);
  CHECK(f[0].rule_id == "SB4071");
  CHECK(f[0].at.line == 6);
  CHECK(f[0].message.find("API_TOKEN") != std::string::npos);
  CHECK(f[0].message.find("supersecretvalue") == std::string::npos);
  CHECK(f[1].rule_id == "SB4070");
  CHECK(f[1].message.find("GH_AUTH") != std::string::npos);
}

TEST_CASE("host loopback facts are reported where written", "[launch]") {
  auto f = run(test::rules_named({"SB5050", "SB5051", "SB5052"}),
               {launched({"podman", "run", "--network", "pasta:--map-gw", "img"})});
  REQUIRE(f.size() == 1);
  CHECK(f[0].rule_id == "SB5052");
  CHECK(f[0].at.line == 4);
}

TEST_CASE("seccomp profile findings list the workloads that use the profile", "[launch]") {
  Model m;
  SeccompProfile p;
  p.path = "sandbox/seccomp.json";
  p.default_action = fact(std::string("SCMP_ACT_ERRNO"), Provenance{});
  auto at = [](std::uint32_t line) {
    return Provenance{Location{1, line, 3}, Frontend::Seccomp, {}};
  };
  p.rules.push_back({"bpf", "SCMP_ACT_ALLOW", true, at(5)});
  p.rules.push_back({"bpf", "SCMP_ACT_ALLOW", false, at(6)});
  p.rules.push_back({"ptrace", "SCMP_ACT_ALLOW", true, at(7)});
  // Denied outright: the check, not the frontend, knows ERRNO lets nothing through.
  p.rules.push_back({"init_module", "SCMP_ACT_ERRNO", true, at(8)});
  m.seccomp_profiles.push_back(p);
  m.workloads.push_back(
      launched({"podman", "run", "--security-opt", "seccomp=./seccomp.json", "img"}));
  m.workloads.push_back(launched({"podman", "run", "--security-opt", "seccomp=unconfined", "img"}));
  Findings f;
  inv::check_seccomp_profiles(m, f);
  REQUIRE(f.items().size() == 1);
  CHECK(f.items()[0].rule_id == "SB2052");
  CHECK(f.items()[0].at.line == 5);
  REQUIRE(f.items()[0].related.size() == 1);
  CHECK(f.items()[0].related[0].at.line == 4);
}

}  // namespace launch_checks_test
