// The evaluator dispatches on node kinds resolved once to the grammar's symbol ids (syntax.h).
// If a grammar update renamed a kind, or gave one name to several symbols the table misses, the
// walk would silently stop recognising it: every node of every shell fixture must resolve to the
// kind its type string names.
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <string>
#include <utility>

#include "analyzer/render/bash/syntax.h"
#include "tests/fixture_harness.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace bash_node_kinds_test {

namespace fs = std::filesystem;
using sbr::bash::K;

namespace {

// Every entry of the table by (name, named), built from kind_name over the enum's range.
std::map<std::pair<std::string, bool>, K> table() {
  std::map<std::pair<std::string, bool>, K> out;
  for (int i = 1; i < static_cast<int>(K::end_); ++i) {
    auto k = static_cast<K>(i);
    out[{std::string(sbr::bash::kind_name(k)), k < sbr::bash::first_token_kind}] = k;
  }
  return out;
}

// Checks every node of `root` against the table, iteratively (fixtures nest deep).
int check_tree(TSNode root, const std::map<std::pair<std::string, bool>, K>& kinds) {
  int seen = 0;
  TSTreeCursor c = ts_tree_cursor_new(root);
  for (bool more = true; more;) {
    TSNode n = ts_tree_cursor_current_node(&c);
    auto it = kinds.find({ts_node_type(n), ts_node_is_named(n)});
    K got = sbr::bash::sym(n);
    INFO(ts_node_type(n));
    if (it == kinds.end()) {
      CHECK(got == K::unknown);
    } else {
      CHECK(got == it->second);
      ++seen;
    }
    if (ts_tree_cursor_goto_first_child(&c)) continue;
    while (!ts_tree_cursor_goto_next_sibling(&c)) {
      if (!ts_tree_cursor_goto_parent(&c)) {
        more = false;
        break;
      }
    }
  }
  ts_tree_cursor_delete(&c);
  return seen;
}

}  // namespace

TEST_CASE("node kinds resolve to the grammar's symbols, every one named in the table",
          "[bash-syntax]") {
  auto kinds = table();
  REQUIRE(kinds.size() > 60);
  CHECK(sbr::bash::kind_name(K::command) == "command");
  CHECK(sbr::bash::kind_name(K::and_and) == "&&");
  CHECK(sbr::bash::sym(TSNode{}) == K::unknown);
  int files = 0, seen = 0;
  for (const char* top : {"fixtures/launchers", "fixtures/rules", "examples"}) {
    fs::path root = fs::path(sbr::test::source_dir()) / top;
    for (auto it = fs::recursive_directory_iterator(root); it != fs::end(it); ++it) {
      if (!it->is_regular_file() || it->is_symlink() || it->path().extension() != ".sh") continue;
      auto tree = sbr::bash::parse_bash(sbr::test::read_file(it->path().string()));
      INFO(it->path().string());
      seen += check_tree(tree->root(), kinds);
      ++files;
    }
  }
  CHECK(files > 30);
  CHECK(seen > 5000);  // 7,013 when written
}

TEST_CASE("fields resolve to the grammar's field ids", "[bash-syntax]") {
  auto tree = sbr::bash::parse_bash("x=1\nf() { echo \"$x\"; }\nfor i in a; do :; done\n");
  TSNode assign = ts_node_named_child(tree->root(), 0);
  REQUIRE(sbr::bash::is(assign, K::variable_assignment));
  CHECK(tree->slice(sbr::bash::field(assign, sbr::bash::F::name)) == "x");
  CHECK(tree->slice(sbr::bash::field(assign, sbr::bash::F::value)) == "1");
  TSNode fn = ts_node_named_child(tree->root(), 1);
  CHECK(sbr::bash::is(sbr::bash::field(fn, sbr::bash::F::body), K::compound_statement));
  TSNode loop = ts_node_named_child(tree->root(), 2);
  CHECK(tree->slice(sbr::bash::field(loop, sbr::bash::F::variable)) == "i");
}

}  // namespace bash_node_kinds_test
