// squid.conf as a gate: http_access order, the implicit opposite of the last line, CONNECT.
#include <catch2/catch.hpp>

#include "tests/gates_test_util.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace gates_squid_test {

using namespace sbr;

namespace {

FilePart read_squid(const std::string& text) {
  FilePart part;
  read_squid_file(test::gate_file(2, "proxy/squid.conf", text, FileType::Squid), part);
  return part;
}

}  // namespace

TEST_CASE("closed squid config: dstdomain allowlist, CONNECT restricted, deny all", "[gates]") {
  FilePart p = read_squid(test::read_gate_fixture("closed.squid.conf"));
  REQUIRE(p.problems.empty());
  REQUIRE(p.scripts.size() == 1);
  REQUIRE(p.scripts[0].gates.size() == 1);
  const EgressGate& g = p.scripts[0].gates[0];
  CHECK(g.kind == GateKind::Squid);
  CHECK(g.name == "proxy/squid.conf");
  CHECK(g.denies_v4);
  CHECK(g.denies_v6);
  CHECK(g.from.at.line == 14);
  REQUIRE(g.connect_restricted);
  CHECK(g.connect_restricted->value);
  REQUIRE(g.allows.size() == 3);
  CHECK(g.allows[0].dest == DestKind::Fqdn);
  CHECK(g.allows[0].value == ".pypi.org");
  CHECK(g.allows[2].value == "registry.npmjs.org");
  CHECK(g.allows[2].from.at.line == 13);
}

TEST_CASE("open squid config: allow by client only, and the opposite of a last deny", "[gates]") {
  FilePart p = read_squid(test::read_gate_fixture("open.squid.conf"));
  REQUIRE(p.problems.empty());
  const EgressGate& g = p.scripts.at(0).gates.at(0);
  CHECK_FALSE(g.denies_v4);
  CHECK(g.from.at.line == 10);
  REQUIRE(g.allows.size() == 2);
  CHECK(g.allows[0].value == "*");  // `allow localnet`: every destination for those clients
  CHECK(g.allows[0].from.at.line == 9);
  CHECK(g.allows[1].value == "*");  // nothing matched: the opposite of the last deny
  CHECK(g.allows[1].from.at.line == 10);
  CHECK_FALSE(g.connect_restricted->value);
}

TEST_CASE("squid: allow all, deny !allowlist narrowing, no access lines", "[gates]") {
  FilePart p = read_squid("http_access allow all\n");
  CHECK_FALSE(p.scripts.at(0).gates.at(0).denies_v4);
  CHECK(p.scripts.at(0).gates.at(0).allows.at(0).value == "*");

  p = read_squid(
      "acl ok dstdomain .github.com\nacl lan src 10.0.0.0/8\nhttp_access deny !ok\nhttp_access "
      "allow lan\n");
  const EgressGate& g = p.scripts.at(0).gates.at(0);
  CHECK(g.denies_v4);  // a last allow: squid denies what matched nothing
  REQUIRE(g.allows.size() == 1);
  CHECK(g.allows[0].value == ".github.com");
  CHECK(g.allows[0].from.at.line == 4);

  p = read_squid("http_port 3128\n");
  CHECK(p.scripts.at(0).gates.at(0).denies_v4);
  CHECK(p.scripts.at(0).gates.at(0).allows.empty());
}

TEST_CASE("squid refuses undefined ACLs and bad http_access lines", "[gates]") {
  FilePart p = read_squid("acl a dstdomain x.org\nhttp_access allow a b\n");
  CHECK(p.scripts.empty());
  REQUIRE(p.problems.size() == 1);
  CHECK(p.problems[0].kind == ProblemKind::ParseError);
  CHECK(p.problems[0].message == "squid: ACL `b` is not defined before use");
  CHECK(p.problems[0].at.line == 2);
  CHECK(p.problems[0].at.column == 21);

  p = read_squid("http_access permit all\n");
  REQUIRE(p.problems.size() == 1);
  CHECK(p.problems[0].message == "squid: `http_access` must be followed by allow or deny");
}

TEST_CASE("squid: a dstdomain list read from a file stays a named list", "[gates]") {
  FilePart p = read_squid(
      "acl allowed dstdomain \"/etc/squid/allowed.txt\"\nhttp_access allow allowed\nhttp_access "
      "deny all\n");
  const EgressGate& g = p.scripts.at(0).gates.at(0);
  REQUIRE(g.allows.size() == 1);
  CHECK(g.allows[0].value == "/etc/squid/allowed.txt (list read from a file)");
  CHECK(g.denies_v4);
}

}  // namespace gates_squid_test
