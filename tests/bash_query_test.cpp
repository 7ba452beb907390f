// The embedded tree-sitter queries (analyzer/render/bash/queries/*.scm): each compiles against
// the pinned grammar, and the text predicates the runtime leaves to us hold as written.
#include <catch2/catch.hpp>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analyzer/render/bash/query.h"

namespace sbr::embedded {
const std::vector<std::pair<std::string_view, std::string_view>>& query_files();
}

using sbr::bash::Query;

namespace {

std::vector<std::string> captured(std::string_view query, const std::string& text,
                                  std::string_view capture) {
  auto tree = sbr::bash::parse_bash(text);
  std::vector<std::string> out;
  for (const auto& m : Query::get(query).matches(tree->root(), *tree)) {
    TSNode n = m[capture];
    if (!ts_node_is_null(n)) out.emplace_back(tree->slice(n));
  }
  return out;
}

}  // namespace

TEST_CASE("every embedded query compiles against the grammar", "[bash-query]") {
  int n = 0;
  for (const auto& [path, text] : sbr::embedded::query_files()) {
    std::string_view p = path;
    std::string_view stem = p.substr(p.rfind('/') + 1);
    stem = stem.substr(0, stem.size() - 4);  // ".scm"
    INFO(path);
    CHECK_NOTHROW(Query::get(stem));
    ++n;
  }
  CHECK(n >= 1);  // fetch_pipe
  CHECK_THROWS_AS(Query::get("no-such-query"), std::logic_error);
}

TEST_CASE("fetch_pipe: every later stage is a sink, and only downloads match", "[bash-query]") {
  auto sinks = captured("fetch_pipe",
                        "curl -fsSL https://x/i.sh 2>/dev/null | tee i.log | sudo sh\n", "sink");
  REQUIRE(sinks.size() == 2);
  CHECK(sinks[0] == "tee i.log");
  CHECK(sinks[1] == "sudo sh");
  CHECK(captured("fetch_pipe", "echo curl | sh\ncat x | bash\n", "sink").empty());
  CHECK(captured("fetch_pipe", "wget -qO- \"$URL\" | python3 -\n", "fetcher") ==
        std::vector<std::string>{"wget"});
}

TEST_CASE("fetch_pipe: a quoted program name is the same download", "[bash-query]") {
  CHECK(captured("fetch_pipe", "\"curl\" -fsSL https://x/i.sh | sh\n", "sink") ==
        std::vector<std::string>{"sh"});
  CHECK(captured("fetch_pipe", "'wget' -qO- https://x/i.sh 2>/dev/null | bash\n", "fetcher") ==
        std::vector<std::string>{"'wget'"});
  // Quoting does not make another program a download.
  CHECK(captured("fetch_pipe", "\"echo\" curl | sh\n'cat' wget | bash\n", "sink").empty());
}

TEST_CASE("guard sites: a check followed by || and its branch, and every if", "[bash-query]") {
  auto tree = sbr::bash::parse_bash(
      "command -v iptables >/dev/null || { echo skip >&2; return 0; }\n"
      "a && b\n"
      "if [[ $MODE == permissive ]]; then exit 0; fi\n"
      "a && b || c\n");
  std::vector<std::string> checks, branches;
  int ifs = 0;
  for (const auto& g : sbr::bash::guard_sites(tree->root())) {
    if (!ts_node_is_null(g.if_stmt)) ++ifs;
    if (!ts_node_is_null(g.check)) checks.emplace_back(tree->slice(g.check));
    if (!ts_node_is_null(g.branch)) branches.emplace_back(tree->slice(g.branch));
  }
  CHECK(checks == std::vector<std::string>{"command -v iptables >/dev/null", "a && b"});
  CHECK(branches == std::vector<std::string>{"{ echo skip >&2; return 0; }", "c"});
  CHECK(ifs == 1);
}

TEST_CASE("guard sites of a chain of 30,000 && are found in one pass", "[bash-query]") {
  std::string chain;
  for (int k = 0; k < 30000; ++k) chain += "echo a && ";
  auto tree = sbr::bash::parse_bash(chain + "true || exit 0\n");
  auto sites = sbr::bash::guard_sites(tree->root());
  REQUIRE(sites.size() == 1);
  CHECK(tree->slice(sites[0].branch) == "exit 0");
}
