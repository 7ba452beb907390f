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
  CHECK(n >= 2);
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

TEST_CASE("guards: a check followed by || and its branch, and every if", "[bash-query]") {
  std::string s =
      "command -v iptables >/dev/null || { echo skip >&2; return 0; }\n"
      "a && b\n"
      "if [[ $MODE == permissive ]]; then exit 0; fi\n";
  CHECK(captured("guards", s, "check") ==
        std::vector<std::string>{"command -v iptables >/dev/null"});
  CHECK(captured("guards", s, "branch") ==
        std::vector<std::string>{"{ echo skip >&2; return 0; }"});
  CHECK(captured("guards", s, "if").size() == 1);
}
