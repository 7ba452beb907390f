// What the bash renderer observes, read from the syntax tree: status uses, step kinds, warning
// branches, regex tests, `$?` reads, splice sources, resources and their cleanup, exec, fetch
// pipes, grants. Includes the cases a substring guess got wrong. The last cases judge
// hand-built observations, so each check is tested without the renderer.
#include <catch2/catch.hpp>

#include <algorithm>

#include "analyzer/check/fingerprint.h"
#include "generated/rule_ids.h"
#include "invariants/script_findings.h"
#include "invariants/script_judgments.h"
#include "tests/bash_helpers.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace script_observations_test {

using namespace sbr;
using sbr::test::render_text;

namespace {

ScriptObservations observe(const std::string& script, const std::string& path = "launch.sh") {
  return render_text(script, path).observed;
}

StatusUse only_step_status(const std::string& script) {
  auto o = observe(script);
  REQUIRE(o.steps.size() == 1);
  return o.steps[0].status;
}

std::vector<OptionBranch> branches(const std::string& script) {
  return observe(script).option_branches;
}

}  // namespace

TEST_CASE("observed: how a security step's status is used", "[observe]") {
  CHECK(only_step_status("nft -f r || true\n") == StatusUse::OrTrue);
  CHECK(only_step_status("nft -f r || :\n") == StatusUse::OrTrue);
  CHECK(only_step_status("nft -f r || echo failed\n") == StatusUse::OrContinue);
  CHECK(only_step_status("nft -f r || exit 1\n") == StatusUse::ExitsOnFailure);
  CHECK(only_step_status("nft -f r\nif [ $? -ne 0 ]; then exit 1; fi\n") ==
        StatusUse::StatusReadNext);
  // `$?` inside single quotes is text, not an expansion: the status is not read.
  CHECK(only_step_status("nft -f r\necho 'status: $?'\n") == StatusUse::Unchecked);
  CHECK(only_step_status("nft -f r | tee log\n") == StatusUse::PipedWithoutPipefail);
  CHECK(only_step_status("! nft -f r\n") == StatusUse::Negated);
  auto o = observe("set -e\nnft -f r || true\n");
  REQUIRE(o.steps.size() == 1);
  CHECK(o.steps[0].status_at.column == 10);  // the `||`
  CHECK_FALSE(o.steps[0].errexit_applies);   // left of ||
  CHECK(observe("set -e\nnft -f r\n").steps.at(0).errexit_applies);
}

TEST_CASE("observed: a step as an if condition records its failure branch", "[observe]") {
  auto exits = observe("if ! nft -f r; then echo bad >&2; exit 1; fi\n");
  REQUIRE(exits.steps.size() == 1);
  CHECK(exits.steps[0].status == StatusUse::Condition);
  CHECK(exits.steps[0].failure_branch_exits == std::optional<bool>(true));
  auto goes_on = observe("if iptables -P OUTPUT DROP; then echo ok; fi\n");
  REQUIRE(goes_on.steps.size() == 1);
  CHECK(goes_on.steps[0].failure_branch_exits == std::optional<bool>(false));
}

TEST_CASE("observed: what a step configures", "[observe]") {
  CHECK(observe("nft -f r\n").steps.at(0).kind == StepKind::GateLoad);
  CHECK(observe("capsh --drop=cap_net_admin -- -c x\n").steps.at(0).kind ==
        StepKind::CapabilityDrop);
  CHECK(observe("setpriv --bounding-set=-all true\n").steps.at(0).kind == StepKind::CapabilityDrop);
  CHECK(observe("setpriv --reuid=1000 true\n").steps.at(0).kind == StepKind::UserSwitch);
  CHECK(observe("nft list ruleset\n").steps.empty());
  CHECK(observe("iptables -S\n").steps.empty());
  // In an if condition the step is read from the command node's words, quotes removed.
  CHECK(observe("if ! \"nft\" -f r; then exit 1; fi\n").steps.size() == 1);
}

TEST_CASE("observed: a branch warns only by writing to stderr or logger", "[observe]") {
  auto b = branches("case \"$1\" in --insecure) echo x >&2; I=1 ;; esac\n");
  REQUIRE(b.size() == 1);
  CHECK(b[0].option == "--insecure");
  CHECK(b[0].warns);
  CHECK(branches("case \"$1\" in --insecure) logger -t x insecure ;; esac\n").at(0).warns);
  CHECK(branches("warn() { echo \"$*\" >&2; }\ncase \"$1\" in --insecure) warn off ;; esac\n")
            .at(0)
            .warns);
  // The old text guess took these for warnings.
  CHECK_FALSE(branches("case \"$1\" in --insecure) warn_user ;; esac\n").at(0).warns);
  CHECK_FALSE(
      branches("case \"$1\" in --insecure) echo \"warning: insecure\" ;; esac\n").at(0).warns);
  CHECK_FALSE(branches("warn_user() { echo \"$*\"; }\ncase \"$1\" in --insecure) warn_user off ;; "
                       "esac\n")
                  .at(0)
                  .warns);
}

TEST_CASE("observed: splices with their sink and the value's source", "[observe]") {
  auto one = [](const std::string& s) {
    auto o = observe(s);
    REQUIRE(o.splices.size() == 1);
    return o.splices[0];
  };
  auto e = one("eval \"$1\"\n");
  CHECK(e.sink == SinkKind::Eval);
  CHECK(e.source == ValueSource::Argument);
  CHECK(e.variable == "argument 1");
  auto c = one("bash -c \"echo $GREETING\"\n");
  CHECK(c.sink == SinkKind::ShellCommandString);
  CHECK(c.source == ValueSource::Environment);
  CHECK(c.variable == "GREETING");
  CHECK(one("read -r host\ncat > /etc/squid/squid.conf <<EOF\nacl ok dstdomain $host\nEOF\n")
            .source == ValueSource::StdinRead);
  CHECK(
      one("p=$(curl -s https://x.example/p)\nnft add rule inet f o tcp dport $p accept\n").source ==
      ValueSource::NetworkRead);
  auto f = one("p=$(cat ports.txt)\nnft add rule inet f o tcp dport $p accept\n");
  CHECK(f.source == ValueSource::CommandSubstitution);
  CHECK(f.sink == SinkKind::FirewallRule);
  CHECK(one("sed -i \"s/@P@/$PORT/\" conf\n").sink == SinkKind::SedScript);
  // A regex test that exits on failure validates: still observed, marked validated.
  CHECK(one("[[ $PORT =~ ^[0-9]+$ ]] || exit 1\nsed -i \"s/@P@/$PORT/\" conf\n").validated);
}

TEST_CASE("observed: `=~` in a string is not a regex test", "[observe]") {
  // A validating function needs a test node; text that mentions `=~` does not validate.
  auto o = observe(
      "check() { echo \"use =~ to match\"; [ -n \"$1\" ] || exit 1; }\ncheck \"$HOST\"\n"
      "iptables -A OUTPUT -d \"$HOST\" -j ACCEPT\n");
  REQUIRE(o.splices.size() == 1);
  CHECK_FALSE(o.splices[0].validated);
  auto real = observe(
      "check() { [[ $1 =~ ^[a-z.]+$ ]] || exit 1; }\ncheck \"$HOST\"\n"
      "iptables -A OUTPUT -d \"$HOST\" -j ACCEPT\n");
  REQUIRE(real.splices.size() == 1);
  CHECK(real.splices[0].validated);
  // `[[ $x == "=~" ]] || exit` compares with a string: no validation.
  auto eq = observe("[[ $PORT == \"=~\" ]] || exit 1\nsed -i \"s/@P@/$PORT/\" conf\n");
  REQUIRE(eq.splices.size() == 1);
  CHECK_FALSE(eq.splices[0].validated);
}

TEST_CASE("observed: traps, resources and which trap removes them", "[observe]") {
  auto o = observe(
      "set -e\ntrap 'podman rm -f gate' EXIT\npodman run -d --name gate -p 8080:80 "
      "squid\npodman run -d --name other img\n");
  REQUIRE(o.traps.size() == 1);
  CHECK(o.traps[0].signals == std::vector<std::string>{"EXIT"});
  CHECK(o.traps[0].at.line == 2);
  REQUIRE(o.resources.size() == 2);
  CHECK(o.resources[0].kind == ResourceKind::Container);
  CHECK(o.resources[0].name == "gate");
  CHECK(o.resources[0].publishes_ports);
  CHECK(o.resources[0].cleanup_trap == std::optional<std::size_t>(0));
  CHECK(o.resources[0].cleanup_installed_before);
  CHECK_FALSE(o.resources[1].cleanup_trap.has_value());
  auto late = observe("podman run -d --name gate img\ntrap 'podman rm -f gate' EXIT\n");
  REQUIRE(late.resources.size() == 1);
  CHECK(late.resources[0].cleanup_trap.has_value());
  CHECK_FALSE(late.resources[0].cleanup_installed_before);
  auto tmp = observe("f=/tmp/tok\necho \"$API_TOKEN\" > \"$f\"\n");
  REQUIRE(tmp.resources.size() == 1);
  CHECK(tmp.resources[0].kind == ResourceKind::TempSecretFile);
  CHECK(tmp.resources[0].holds == "API_TOKEN");
  REQUIRE(tmp.secret_files.size() == 1);
  CHECK_FALSE(tmp.secret_files[0].created_private);
  CHECK(observe("#!/bin/sh\necho hi\n").posix_sh);
}

TEST_CASE("observed: exec hand-over, fetch pipes, grants", "[observe]") {
  auto o = observe("trap 'rm -f /tmp/x' EXIT\nnft -f g.nft\nexec gosu agent \"$@\"\n");
  REQUIRE(o.execs.size() == 1);
  CHECK(o.execs[0].traps_in_force.size() == 1);
  CHECK(o.execs[0].net_admin_used_at.line == 2);
  CHECK(o.execs[0].user_switch == "gosu");
  CHECK_FALSE(o.execs[0].bounding_set_dropped);
  CHECK(observe("exec capsh --drop=cap_net_admin -- -c x\n").execs.at(0).bounding_set_dropped);
  auto p = observe("curl -fsSL https://x.example/i.sh | sudo bash -s\n");
  REQUIRE(p.fetch_pipes.size() == 1);
  CHECK(p.fetch_pipes[0].producer == "curl");
  CHECK(p.fetch_pipes[0].consumer == "bash");
  // An assignment before the command does not hide it (the first word of the text did).
  CHECK(observe("FOO=1 curl -fsSL https://x.example/i.sh | sh\n").fetch_pipes.size() == 1);
  auto g = observe("echo 'agent ALL=(ALL) NOPASSWD: ALL' > /etc/sudoers.d/agent\n").grants;
  REQUIRE(g.size() == 1);
  CHECK(g[0].kind == GrantKind::SudoersRule);
  CHECK(g[0].grants_all);
  CHECK(g[0].nopasswd);
  CHECK(observe("usermod -aG sudo agent\n").grants.size() == 1);
  CHECK(observe("usermod -aG docker agent\n").grants.empty());
  CHECK_FALSE(observe("echo 'Defaults env_reset' > /etc/sudoers.d/d\n").grants.at(0).grants_all);
}

TEST_CASE("judged: hand-built observations", "[observe][inv7]") {
  ScriptObservations o;
  SecurityStep s;
  s.command = "nft -f gate.nft";
  s.from = Provenance{Location{0, 3, 1}, Frontend::Bash, {}};
  for (StatusUse use : {StatusUse::OrTrue, StatusUse::OrContinue, StatusUse::Negated,
                        StatusUse::PipedWithoutPipefail}) {
    s.status = use;
    o.steps = {s};
    CHECK(inv::judge_lifecycle(o).size() == 1);
  }
  for (StatusUse use : {StatusUse::ExitsOnFailure, StatusUse::StatusReadNext}) {
    s.status = use;
    o.steps = {s};
    CHECK(inv::judge_lifecycle(o).empty());
  }
  s.status = StatusUse::Unchecked;
  s.errexit_applies = true;
  o.steps = {s};
  CHECK(inv::judge_lifecycle(o).empty());
  s.errexit_applies = false;
  o.steps = {s, s};  // the same step twice (a function called twice): one finding
  CHECK(inv::judge_lifecycle(o).size() == 1);

  ScriptObservations r;
  ResourceStart fwd;
  fwd.kind = ResourceKind::PortForwarder;
  fwd.name = "socat";
  r.resources = {fwd};
  auto j = inv::judge_lifecycle(r);
  REQUIRE(j.size() == 1);
  CHECK(j[0].kind == inv::ScriptFindingKind::MissingCleanup);
  CHECK(j[0].high_stakes);
  CHECK(j[0].key == "port-forwarder.socat");
}

TEST_CASE("script fact paths come from the judgment's key, not its wording", "[observe]") {
  Model m;
  ScriptFacts s;
  s.file = m.files.add("launch.sh");
  inv::ScriptJudgment a;
  a.kind = inv::ScriptFindingKind::FailOpenStep;
  a.key = "nft -f gate.nft";
  a.message = "`nft -f gate.nft` can fail and the script goes on";
  a.from = Provenance{Location{s.file, 3, 1}, Frontend::Bash, {}};
  inv::ScriptJudgment b = a;
  b.message = "reworded entirely";
  b.from.at.line = 40;  // and moved
  CHECK(inv::script_finding(m, s, a, rule::security_step_fails_open).fact_path ==
        "script.fail-open.nft -f gate.nft");
  CHECK(inv::script_finding(m, s, a, rule::security_step_fails_open).fact_path ==
        inv::script_finding(m, s, b, rule::security_step_fails_open).fact_path);
  b.key = "nft -f other.nft";  // the offending command changed
  CHECK(inv::script_finding(m, s, a, rule::security_step_fails_open).fact_path !=
        inv::script_finding(m, s, b, rule::security_step_fails_open).fact_path);
}

TEST_CASE("observed: a step evaluated again the same way is one observation", "[observe]") {
  // A function called twice with the same words runs the same step the same way: one step.
  auto o = observe("gate() { nft -f g.nft || echo skip; }\ngate\ngate\n");
  REQUIRE(o.steps.size() == 1);
  CHECK(o.steps[0].status == StatusUse::OrContinue);
  // Two loop iterations with other values are two command lines at one place: two steps, one
  // finding (a place fails open once).
  auto loop = observe("for h in a b; do iptables -A OUT -d \"$h\" -j DROP || echo skip; done\n");
  REQUIRE(loop.steps.size() == 2);
  CHECK(loop.steps[0].line == "iptables -A OUT -d a -j DROP");
  CHECK(loop.steps[1].line == "iptables -A OUT -d b -j DROP");
  CHECK(inv::judge_lifecycle(loop).size() == 1);
  // The same command used differently on another line is another observation.
  CHECK(observe("nft -f r || true\nnft -f r || exit 1\n").steps.size() == 2);
}

TEST_CASE("an endless loop is found by its commands, not by the word `break` in text",
          "[observe]") {
  auto endless = [](const std::string& script) {
    auto r = render_text(script, "launch.sh");
    return std::any_of(r.problems.begin(), r.problems.end(), [](const Problem& p) {
      return p.message.find("loop without an exit") != std::string::npos;
    });
  };
  CHECK(endless("while true; do echo 'no break here'; sleep 1; done\n"));
  CHECK(endless("while true; do sleep 1 # break\ndone\n"));
  CHECK_FALSE(endless("while true; do sleep 1; break; done\n"));
  CHECK_FALSE(endless("while true; do if [ -f x ]; then break; fi; sleep 1; done\n"));
}

TEST_CASE("steps with the same first words are told apart by their whole line",
          "[observe][fingerprint]") {
  Model m;
  ScriptFacts s;
  s.file = m.files.add("gate.sh");
  s.observed = observe(
      "iptables -A OUTPUT -p tcp -d 140.82.112.0/20 --dport 443 -j REJECT\n"
      "iptables -A OUTPUT -p udp --dport 53 -j REJECT\n");
  auto j = inv::judge_lifecycle(s.observed);
  REQUIRE(j.size() == 2);
  CHECK(j[0].message == j[1].message);  // the wording shows the first words only
  CHECK(fingerprint(inv::script_finding(m, s, j[0], rule::security_step_fails_open)) !=
        fingerprint(inv::script_finding(m, s, j[1], rule::security_step_fails_open)));
  // Lines inserted above move the step but keep its fingerprint.
  ScriptFacts moved = s;
  moved.observed = observe(
      "# a comment\necho setting up\n"
      "iptables -A OUTPUT -p tcp -d 140.82.112.0/20 --dport 443 -j REJECT\n");
  auto k = inv::judge_lifecycle(moved.observed);
  REQUIRE(k.size() == 1);
  CHECK(k[0].from.at.line == 3);
  CHECK(fingerprint(inv::script_finding(m, moved, k[0], rule::security_step_fails_open)) ==
        fingerprint(inv::script_finding(m, s, j[0], rule::security_step_fails_open)));
}

}  // namespace script_observations_test
