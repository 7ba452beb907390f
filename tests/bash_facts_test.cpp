// Script judgments end to end: the renderer's observations of a script, judged by the checks'
// functions (invariants/script_judgments.h). Every judgment kind, with a case where it must be
// made and a close case where it must not.
#include <catch2/catch.hpp>

#include "invariants/script_judgments.h"
#include "tests/bash_helpers.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace bash_facts_test {

using namespace sbr;
using sbr::test::render_text;

namespace {

std::vector<inv::ScriptJudgment> judged(const bash::ScriptRender& r) {
  std::vector<inv::ScriptJudgment> out;
  for (auto* judge : {&inv::judge_lifecycle, &inv::judge_secrets, &inv::judge_privilege}) {
    for (auto& j : (*judge)(r.observed)) out.push_back(std::move(j));
  }
  return out;
}

std::vector<inv::ScriptJudgment> judged_as(const bash::ScriptRender& r, inv::ScriptFindingKind k) {
  std::vector<inv::ScriptJudgment> out;
  for (auto& j : judged(r)) {
    if (j.kind == k) out.push_back(std::move(j));
  }
  return out;
}

std::size_t count(const std::string& script, inv::ScriptFindingKind k) {
  auto r = render_text(script);
  return judged_as(r, k).size();
}

}  // namespace

TEST_CASE("errexit missing at a launch", "[bash]") {
  auto r = render_text("#!/bin/bash\nmkdir -p x\npodman run --rm img\npodman run --rm img2\n");
  auto f = judged_as(r, inv::ScriptFindingKind::ErrexitMissing);
  REQUIRE(f.size() == 1);  // once per script, at the first launch
  CHECK(f[0].from.at.line == 3);
  CHECK(count("#!/bin/bash\nset -o errexit\npodman run --rm img\n",
              inv::ScriptFindingKind::ErrexitMissing) == 0);
  CHECK(count("#!/bin/bash -e\npodman run --rm img\n", inv::ScriptFindingKind::ErrexitMissing) ==
        0);
  // Not a launcher: no finding.
  CHECK(count("#!/bin/bash\necho hello\n", inv::ScriptFindingKind::ErrexitMissing) == 0);
}

TEST_CASE("fail-open security steps", "[bash]") {
  const auto k = inv::ScriptFindingKind::FailOpenStep;
  CHECK(count("set -e\nnft -f rules.nft || true\n", k) == 1);
  CHECK(count("set -e\nnft -f rules.nft || echo failed\n", k) == 1);
  CHECK(count("nft -f rules.nft 2>/dev/null\n", k) == 1);  // no errexit, no check
  CHECK(count("set -e\nif ! iptables -P OUTPUT DROP; then echo warn >&2; fi\n", k) == 1);
  CHECK(count("set -e\nif iptables -P OUTPUT DROP; then echo ok; fi\n", k) == 1);
  CHECK(count("set -e\ng() { nft -f a; nft -f b; }\ng || echo warn\n", k) == 2);
  CHECK(count("set -e\nnft -f a | tee log\n", k) == 1);  // status lost without pipefail
  // Fail-closed forms.
  CHECK(count("set -e\nnft -f rules.nft\n", k) == 0);
  CHECK(count("nft -f rules.nft || exit 1\n", k) == 0);
  CHECK(count("set -e\nnft -f rules.nft || { echo bad >&2; exit 1; }\n", k) == 0);
  CHECK(count("die() { echo \"$*\" >&2; exit 1; }\nnft -f r || die no gate\n", k) == 0);
  CHECK(count("if ! nft -f r; then echo bad >&2; exit 1; fi\n", k) == 0);
  CHECK(count("nft -f r\nif [ $? -ne 0 ]; then exit 1; fi\n", k) == 0);
  CHECK(count("set -eo pipefail\nnft -f a | tee log\n", k) == 0);
  // Queries are not steps.
  CHECK(count("if ! nft list table inet x >/dev/null; then nft -f x || exit 1; fi\n", k) == 0);
  auto r = render_text("set -e\nnft -f rules.nft || true\n");
  auto all = judged(r);
  REQUIRE(all.size() == 1);
  CHECK(all[0].from.at.line == 2);
  CHECK(all[0].from.at.column == 1);
  REQUIRE(all[0].related.size() == 1);
  CHECK(all[0].related[0].at.column == 18);
  CHECK(all[0].key == "nft -f rules.nft");  // the fact path names the command, not the wording
}

TEST_CASE("unvalidated input spliced into code", "[bash]") {
  const auto k = inv::ScriptFindingKind::UnvalidatedSplice;
  CHECK(count("eval \"$1\"\n", k) == 1);
  CHECK(count("bash -c \"echo $GREETING\"\n", k) == 1);
  // Unquoted, the value is split into words and can add options; quoted, iptables takes it as
  // one address (below). nft re-parses its arguments as rule text, quoted or not.
  CHECK(count("iptables -A OUTPUT -d $ALLOW -j ACCEPT || exit 1\n", k) == 1);
  CHECK(count("nft add rule inet f o ip daddr \"$ALLOW\" accept\n", k) == 1);
  CHECK(count("p=$(cat ports.txt)\nnft -f - <<EOF\ntcp dport $p accept\nEOF\n", k) == 1);
  CHECK(count("read -r host\ncat > /etc/squid/squid.conf <<EOF\nacl ok dstdomain $host\nEOF\n",
              k) == 1);
  CHECK(count("sed -i \"s/@PORT@/$PORT/\" conf\n", k) == 1);
  CHECK(count("p=$(cat ports.txt)\ncat > /tmp/r.nft <<EOF\ntcp dport $p accept\nEOF\nnft -f "
              "/tmp/r.nft\n",
              k) == 1);
  // Validated first.
  CHECK(count("[[ $PORT =~ ^[0-9]+$ ]] || exit 1\nsed -i \"s/@PORT@/$PORT/\" conf\n", k) == 0);
  CHECK(count("case \"$PORT\" in ''|*[!0-9]*) exit 1 ;; esac\nnft add rule inet f o tcp dport "
              "\"$PORT\" accept\n",
              k) == 0);
  CHECK(count("check() { [[ $1 =~ ^[a-z.]+$ ]] || exit 1; }\ncheck \"$HOST\"\niptables -A OUTPUT "
              "-d \"$HOST\" -j ACCEPT\n",
              k) == 0);
  // One quoted argument of iptables/ipset is a value, not code.
  CHECK(count("iptables -A OUTPUT -d \"$ALLOW\" -j ACCEPT || exit 1\n", k) == 0);
  CHECK(count("ipset add allow \"$ALLOW\"\n", k) == 0);
  // Validated by an if whose failure branch exits, on the following lines.
  CHECK(count("if ! [[ $PORT =~ ^[0-9]+$ ]]; then\n  echo bad >&2\n  exit 1\nfi\nnft add rule "
              "inet f o tcp dport \"$PORT\" accept\n",
              k) == 0);
  CHECK(count("if ! [[ $PORT =~ ^[0-9]+$ ]]; then\n  echo bad >&2\nfi\nnft add rule "
              "inet f o tcp dport \"$PORT\" accept\n",
              k) == 1);
  // The machine's own state is not input; a lookup of a name from the environment is.
  CHECK(count("gw=$(ip route | awk '/default/ {print $3}')\nnet=$(echo \"$gw\" | sed "
              "'s/x/y/')\nnft add rule inet f o ip daddr \"$net\" accept\n",
              k) == 0);
  CHECK(count("ip=$(hostname -I | cut -d' ' -f1)\nnft add rule inet f o ip daddr $ip accept\n",
              k) == 0);
  CHECK(count("ip=$(docker inspect -f '{{.NetworkSettings.IPAddress}}' proxy)\nnft add rule inet "
              "f o ip daddr $ip accept\n",
              k) == 0);
  CHECK(count("ip=$(dig +short proxy.internal)\nnft add rule inet f o ip daddr $ip accept\n", k) ==
        0);
  CHECK(count("ip=$(getent ahostsv4 proxy.internal | awk '{print $1; exit}')\nnft add rule inet "
              "f o ip daddr $ip accept\n",
              k) == 0);
  CHECK(count("ip=$(dig +short \"$PROXY_HOST\")\nnft add rule inet f o ip daddr $ip accept\n", k) ==
        1);
  CHECK(count("ip=$(jq -r .proxy config.json)\nnft add rule inet f o ip daddr $ip accept\n", k) ==
        1);
  // Read from a process substitution: the command's output, not stdin.
  CHECK(count("mapfile -t nets < <(ip -4 route show | cut -d' ' -f1)\nnft add rule inet f o ip "
              "daddr ${nets[0]} accept\n",
              k) == 0);
  CHECK(count("mapfile -t nets < <(curl -s https://example.com/nets)\nnft add rule inet f o ip "
              "daddr ${nets[0]} accept\n",
              k) == 1);
  // Literals and the script's own values are not input.
  CHECK(count("PORT=443\nnft add rule inet f o tcp dport $PORT accept\n", k) == 0);
  auto r = render_text("p=$(cat ports.txt)\nnft -f - <<EOF\ntcp dport $p accept\nEOF\n");
  auto f = judged_as(r, k);
  REQUIRE(f.size() == 1);
  CHECK(f[0].from.at.line == 3);  // the `$p` inside the heredoc
  CHECK(f[0].from.at.column == 11);
  REQUIRE(f[0].related.size() == 1);
  CHECK(f[0].related[0].at.line == 1);  // where the value entered
}

TEST_CASE("cleanup traps: missing, after the start, sh without signals", "[bash]") {
  auto missing = render_text("set -e\npodman run -d --name gate -p 127.0.0.1:3128:3128 squid\n");
  auto f = judged_as(missing, inv::ScriptFindingKind::MissingCleanup);
  REQUIRE(f.size() == 1);
  CHECK(f[0].high_stakes);  // a published port
  auto after =
      render_text("set -e\npodman run -d --name gate squid\ntrap 'podman rm -f gate' EXIT\n");
  auto a = judged_as(after, inv::ScriptFindingKind::TrapAfterStart);
  REQUIRE(a.size() == 1);
  CHECK_FALSE(a[0].high_stakes);
  REQUIRE(a[0].related.size() == 1);
  CHECK(a[0].related[0].at.line == 3);
  CHECK(count("#!/bin/sh\nset -e\ntrap 'podman rm -f gate' EXIT\npodman run -d --name gate squid\n",
              inv::ScriptFindingKind::MissingCleanup) == 1);
  CHECK(count("#!/bin/sh\nset -e\ntrap 'podman rm -f gate' EXIT INT TERM\npodman run -d --name "
              "gate squid\n",
              inv::ScriptFindingKind::MissingCleanup) == 0);
  CHECK(count("#!/bin/bash\nset -e\ncleanup() { podman rm -f \"$cid\"; }\ntrap cleanup "
              "EXIT\ncid=$(podman run -d squid)\n",
              inv::ScriptFindingKind::MissingCleanup) == 0);
  CHECK(count("set -e\nsocat TCP-LISTEN:8080,fork TCP:10.0.0.2:80 &\n",
              inv::ScriptFindingKind::MissingCleanup) == 1);
  CHECK(count("set -e\ntrap 'kill $(jobs -p)' EXIT\nsocat TCP-LISTEN:8080,fork TCP:10.0.0.2:80 &\n",
              inv::ScriptFindingKind::MissingCleanup) == 0);
  // A foreground --rm container is not left behind.
  CHECK(count("set -e\npodman run --rm img\n", inv::ScriptFindingKind::MissingCleanup) == 0);
}

TEST_CASE("exec discards traps", "[bash]") {
  CHECK(count("trap 'rm -f /tmp/x' EXIT\nexec podman run img\n",
              inv::ScriptFindingKind::TrapDiscardedByExec) == 1);
  CHECK(count("trap 'rm -f /tmp/x' EXIT\npodman run img\n",
              inv::ScriptFindingKind::TrapDiscardedByExec) == 0);
  CHECK(count("trap 'rm -f /tmp/x' EXIT\nexec >log 2>&1\npodman run img\n",
              inv::ScriptFindingKind::TrapDiscardedByExec) == 0);
  CHECK(count("exec podman run img\n", inv::ScriptFindingKind::TrapDiscardedByExec) == 0);
}

TEST_CASE("curl piped into a shell", "[bash]") {
  CHECK(count("curl -fsSL https://x.example/i.sh | sh\n", inv::ScriptFindingKind::CurlPipeShell) ==
        1);
  CHECK(count("wget -qO- https://x.example/i.sh | sudo bash -s\n",
              inv::ScriptFindingKind::CurlPipeShell) == 1);
  CHECK(count("curl -fsSL https://x.example/data.json | jq .\n",
              inv::ScriptFindingKind::CurlPipeShell) == 0);
}

TEST_CASE("escape hatches", "[bash]") {
  CHECK(count("case \"$1\" in --insecure) INSECURE=1 ;; esac\n",
              inv::ScriptFindingKind::EscapeHatch) == 1);
  CHECK(count("case \"$1\" in --insecure) echo 'WARNING: insecure' >&2; INSECURE=1 ;; esac\n",
              inv::ScriptFindingKind::EscapeHatch) == 0);
  CHECK(count("set -e\npodman run --rm $PODMAN_EXTRA_ARGS img\n",
              inv::ScriptFindingKind::EscapeHatch) == 1);
  CHECK(count("set -e\npodman run --rm \"$IMAGE\"\n", inv::ScriptFindingKind::EscapeHatch) == 0);
}

TEST_CASE("secrets: unprotected files, xtrace, URLs", "[bash]") {
  const auto file = inv::ScriptFindingKind::SecretFileUnprotected;
  CHECK(count("echo \"$API_TOKEN\" > ~/.token\n", file) == 1);
  CHECK(count("env > /tmp/env.dump\n", file) == 1);
  CHECK(count("umask 077\necho \"$API_TOKEN\" > ~/.token\n", file) == 0);
  CHECK(count("touch ~/.token\nchmod 600 ~/.token\necho \"$API_TOKEN\" > ~/.token\n", file) == 0);
  CHECK(count("f=$(mktemp)\necho \"$API_TOKEN\" > \"$f\"\n", file) == 0);
  CHECK(count("echo \"$API_URL\" > ~/.url\n", file) == 0);

  const auto trace = inv::ScriptFindingKind::XtraceWithSecrets;
  CHECK(count("set -x\ncurl -H \"Authorization: Bearer $GH_TOKEN\" https://api.github.com\n",
              trace) == 1);
  CHECK(count("set -x\nDB_PASSWORD=$(cat /run/secrets/db)\n", trace) == 1);
  CHECK(count("set -x\nread -r API_KEY < ~/.config/key\nexport OPENAI_API_KEY=\"$API_KEY\"\n",
              trace) >= 1);
  // A secret-named variable given a literal, an empty value or a placeholder holds no secret.
  CHECK(count("set -x\nGITHUB_TOKEN=\nAPI_KEY=none\nSECRET_NAME=prod-db\n", trace) == 0);
  CHECK(
      count("set -x\nset +x\ncurl -H \"Authorization: Bearer $GH_TOKEN\" https://api.github.com\n",
            trace) == 0);
  CHECK(count("curl -H \"Authorization: Bearer $GH_TOKEN\" https://api.github.com\n", trace) == 0);

  const auto url = inv::ScriptFindingKind::SecretInUrl;
  CHECK(count("git clone https://oauth2:$GITLAB_TOKEN@gitlab.example.com/g/r.git\n", url) == 1);
  CHECK(count("echo \"$OPENAI_API_KEY\"\n", url) == 1);
  CHECK(count("echo \"$OPENAI_API_KEY\" | podman secret create key -\n", url) == 0);
  CHECK(count("git clone https://gitlab.example.com/g/r.git\n", url) == 0);
}

TEST_CASE("capabilities kept across the final exec", "[bash]") {
  const auto k = inv::ScriptFindingKind::CapabilityKeptAtExec;
  CHECK(count("nft -f /etc/gate.nft\nexec gosu agent \"$@\"\n", k) == 1);
  CHECK(count("iptables -P OUTPUT DROP\nexec su-exec 1000:1000 agent\n", k) == 1);
  CHECK(count("nft -f /etc/gate.nft\nexec \"$@\"\n", k) == 1);
  CHECK(count("nft -f /etc/gate.nft\nexec setpriv --reuid=1000 --regid=1000 --init-groups "
              "--bounding-set=-all -- \"$@\"\n",
              k) == 0);
  CHECK(count("nft -f /etc/gate.nft\nexec capsh --drop=cap_net_admin --user=agent -- -c agent\n",
              k) == 0);
  CHECK(count("exec gosu agent \"$@\"\n", k) == 0);  // no capability used by the setup
  CHECK(count("sudo nft -f gate.nft\nexec podman run --rm img\n", k) == 0);  // the engine sets caps
}

TEST_CASE("one flow, one finding: later uses are related locations", "[bash]") {
  auto r = render_text(
      "nft add rule inet f o ip daddr \"$EXTRA\" accept\n"
      "nft add rule inet f o ip daddr \"$EXTRA\" tcp dport 22 accept\n"
      "nft add rule inet f o ip daddr \"$EXTRA\" tcp dport 23 accept\n"
      "eval \"$EXTRA\"\n");
  auto f = judged_as(r, inv::ScriptFindingKind::UnvalidatedSplice);
  REQUIRE(f.size() == 2);  // the nft rules, and eval: another kind of sink
  CHECK(f[0].from.at.line == 1);
  std::size_t also = 0;
  for (const Related& x : f[0].related) also += x.at.line == 2 || x.at.line == 3;
  CHECK(also == 2);
  CHECK(f[1].from.at.line == 4);
}

TEST_CASE("a swallowed failure fails the way of what the step does", "[bash]") {
  const auto k = inv::ScriptFindingKind::FailOpenStep;
  // Idempotent cleanup before a rebuild: not fail-open.
  for (const char* cleanup :
       {"iptables -F OUTPUT || true\n", "iptables -X AGENT 2>/dev/null || true\n",
        "iptables -Z || :\n", "iptables -D OUTPUT -j AGENT || true\n",
        "iptables -N AGENT 2>/dev/null || true\n", "ip6tables -F || true\n",
        "ipset destroy allow || true\n", "ipset flush allow || true\n",
        "nft delete table inet agent || true\n", "nft flush ruleset || true\n"}) {
    INFO(cleanup);
    CHECK(count(cleanup, k) == 0);
  }
  // A failed allow blocks traffic: fail-closed.
  CHECK(count("iptables -A OUTPUT -d 10.0.0.1 -j ACCEPT || true\n", k) == 0);
  CHECK(count("ipset add allowlist 10.0.0.1 || true\n", k) == 0);
  // What enforces, or what is not known, fails open.
  CHECK(count("iptables -P OUTPUT DROP || true\n", k) == 1);
  CHECK(count("iptables -A OUTPUT -j REJECT || true\n", k) == 1);
  CHECK(count("nft -f rules.nft 2>/dev/null || true\n", k) == 1);
  CHECK(count("nft add rule inet f o drop || true\n", k) == 1);
  CHECK(count("ipset add blocked 169.254.169.254 || true\n", k) == 1);
}

TEST_CASE("a missing tool, a permissive exit, a step inside an if-called function", "[bash]") {
  const auto k = inv::ScriptFindingKind::FailOpenStep;
  CHECK(count("set -e\ngate() {\n  command -v iptables >/dev/null || { echo 'no iptables' >&2; "
              "return 0; "
              "}\n  iptables -P OUTPUT DROP\n}\ngate\n",
              k) == 1);
  CHECK(
      count(
          "set -e\ngate() {\n  command -v iptables >/dev/null || { echo 'no iptables' >&2; exit 1; "
          "}\n  iptables -P OUTPUT DROP\n}\ngate\n",
          k) == 0);
  CHECK(count("if ! which nft >/dev/null; then\n  echo warn\n  return\nfi\n", k) == 1);
  CHECK(count("if ! type -p nft >/dev/null; then\n  echo warn >&2\n  exit 1\nfi\n", k) == 0);
  CHECK(count("if hash nft; then\n  nft -f rules.nft || exit 1\nfi\n", k) == 1);
  // exit 0 on a permissive path before the gate; a --help branch is not one.
  CHECK(count("set -e\nif [[ $SANDBOX_MODE == permissive ]]; then\n  echo 'firewall disabled'\n  "
              "exit 0\nfi\niptables -P OUTPUT DROP\n",
              k) == 1);
  CHECK(count("set -e\nif [[ ${1:-} == --help ]]; then\n  echo usage\n  exit 0\nfi\niptables -P "
              "OUTPUT DROP\n",
              k) == 0);
  CHECK(count("set -e\nif [[ $SANDBOX_MODE == permissive ]]; then\n  echo 'no'\n  exit 1\nfi\n"
              "iptables -P OUTPUT DROP\n",
              k) == 0);
  // errexit does not apply inside a function called as an if condition.
  CHECK(count("set -e\nload() { nft -f rules.nft; }\nif load; then echo ok; fi\n", k) == 1);
}

TEST_CASE("a gate exec'd into a container started detached", "[bash]") {
  const auto k = inv::ScriptFindingKind::GateAfterStart;
  auto r = render_text(
      "set -e\npodman run -d --name agent img agent serve\npodman exec agent iptables -P OUTPUT "
      "DROP\npodman exec agent iptables -S\n");
  auto f = judged_as(r, k);
  REQUIRE(f.size() == 1);  // the query is not a gate
  CHECK(f[0].from.at.line == 3);
  REQUIRE(f[0].related.size() == 1);
  CHECK(f[0].related[0].at.line == 2);
  // Started in the foreground (it has ended), or another container: nothing.
  CHECK(count("set -e\npodman run --rm --name agent img true\npodman exec agent iptables -P OUTPUT "
              "DROP\n",
              k) == 0);
  CHECK(count("set -e\npodman run -d --name agent img\npodman exec proxy iptables -P OUTPUT "
              "DROP\n",
              k) == 0);
  // A container that only holds its namespaces runs nothing before the gate.
  CHECK(count("set -e\npodman run -d --name gw img sleep infinity\npodman exec gw iptables -P "
              "OUTPUT DROP\n",
              k) == 0);
}

}  // namespace bash_facts_test
