// Bad input never crashes or hangs the gate parsers: every prefix of the fixtures, and odd
// token soups, either parse or become located problems.
#include <catch2/catch.hpp>

#include "tests/gates_test_util.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace gates_robustness_test {

using namespace sbr;

TEST_CASE("every prefix of the gate fixtures is handled", "[gates]") {
  for (const char* name : {"egress.nft", "egress-ipv4-only.nft", "closed.squid.conf",
                           "open.squid.conf", "allowlist-iptables.sh"}) {
    std::string text = test::read_gate_fixture(name);
    REQUIRE_FALSE(text.empty());
    for (size_t n = 0; n <= text.size(); n += 7) {
      std::string prefix = text.substr(0, n);
      FilePart a, b;
      read_nft_file(test::gate_file(1, "x.nft", prefix, FileType::Nft), a);
      read_squid_file(test::gate_file(1, "squid.conf", prefix, FileType::Squid), b);
      std::vector<Problem> problems;
      test::collect_gates(prefix, 1, problems);
      for (const auto& p : a.problems) CHECK(p.at.line >= 1);
      for (const auto& p : problems) CHECK(p.at.line >= 1);
    }
  }
}

TEST_CASE("odd nft and iptables input", "[gates]") {
  for (const char* text :
       {"}", "{", "table", "table inet", "table inet t { chain", "table inet t { chain c { type",
        "add rule", "add element inet t s", "define X =", "table ip t { set s { elements = {",
        "table ip t { chain c { ip daddr", "table ip t { chain c { tcp dport { 1, 2 ",
        "table ip t { chain c { jump c } }\ntable ip t { chain c { type filter hook output "
        "priority 0; jump c } }",
        ";;;\n\n,,,", "table ip t { chain c { type filter hook output priority 0; goto c; } }"}) {
    FilePart p;
    read_nft_file(test::gate_file(1, "x.nft", text, FileType::Nft), p);
    std::vector<Problem> problems;
    test::collect_gates(
        std::string("nft ") + text + "\niptables " + text + "\nipset " + text + "\n", 1, problems);
  }
  SUCCEED();
}

TEST_CASE("a chain jumping to itself from many rules stays within budget", "[gates]") {
  std::string text = "table ip t {\n chain c {\n type filter hook output priority 0;\n";
  for (int i = 0; i < 30; ++i) text += "  jump c\n";
  text += " }\n}\n";
  FilePart p;
  read_nft_file(test::gate_file(1, "x.nft", text, FileType::Nft), p);
  REQUIRE(p.scripts.size() == 1);
  CHECK_FALSE(p.scripts[0].gates.at(0).denies_v4);
}

}  // namespace gates_robustness_test
