#include <catch2/catch.hpp>

#include "analyzer/support/yaml_tree.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace yaml_tree_test {

using sbr::yaml::Document;
using sbr::yaml::DocumentReader;
using sbr::yaml::ParseFailure;

TEST_CASE("yaml tree keeps absolute positions across documents", "[yaml]") {
  std::string text = "a: 1\n---\nkind: Pod\nspec:\n  x: true\n";
  DocumentReader r(text);
  Document d;
  ParseFailure f;
  REQUIRE(r.next(d, f) == DocumentReader::Status::Document);
  REQUIRE(d.root->get("a")->as_int() == 1);
  REQUIRE(r.next(d, f) == DocumentReader::Status::Document);
  const auto* x = d.root->get("spec")->get("x");
  REQUIRE(x != nullptr);
  CHECK(x->line == 5);
  CHECK(x->column == 6);
  CHECK(x->as_bool() == true);
  CHECK(d.root->key_node("spec")->line == 4);
  CHECK(r.next(d, f) == DocumentReader::Status::End);
}

TEST_CASE("a broken document does not hide the next one", "[yaml]") {
  std::string text = "a: [1, 2\n---\nb: 2\n";
  DocumentReader r(text);
  Document d;
  ParseFailure f;
  REQUIRE(r.next(d, f) == DocumentReader::Status::Error);
  CHECK(f.line >= 1);
  REQUIRE(r.next(d, f) == DocumentReader::Status::Document);
  REQUIRE(d.root->get("b") != nullptr);
  CHECK(d.root->get("b")->line == 3);
}

// Found by the `chart_gen` fuzz target: a template printing a broken document in a `range` of
// 100,000 makes the reader resync 100,000 times, each resync counting lines from the start of
// the stream. It now counts from where it is; the places it reports stay the same.
TEST_CASE("broken documents one after another keep their own lines", "[yaml]") {
  std::string text = "a: 1\n";
  for (int k = 0; k < 200; ++k) text += "---\nkind: Pod\n]\n";
  text += "---\nlast: true\n";
  DocumentReader r(text);
  Document d;
  ParseFailure f;
  REQUIRE(r.next(d, f) == DocumentReader::Status::Document);
  int errors = 0;
  DocumentReader::Status st;
  while ((st = r.next(d, f)) == DocumentReader::Status::Error) {
    // Document k starts at line 2 + 3k; its `]` is its third line.
    CHECK(f.line == 4u + 3u * static_cast<unsigned>(errors));
    ++errors;
  }
  CHECK(errors == 200);
  REQUIRE(st == DocumentReader::Status::Document);
  REQUIRE(d.root->get("last") != nullptr);
  CHECK(d.root->get("last")->line == 603);
}

// Found by the `splice` fuzz target (a 7-byte input ran out of memory): yaml-cpp reports an
// empty document at a document-level `,` again and again without moving on.
TEST_CASE("a stray comma is a parse error, not an endless run of empty documents", "[yaml]") {
  std::string text = "kind: Pod\n---\n, image: agent\n---\nkind: Service\n";
  DocumentReader r(text);
  Document d;
  ParseFailure f;
  REQUIRE(r.next(d, f) == DocumentReader::Status::Document);
  CHECK(d.root->get("kind")->scalar == "Pod");
  int empty = 0;
  DocumentReader::Status st = r.next(d, f);
  for (; st == DocumentReader::Status::Document && d.root != nullptr &&
         d.root->get("kind") == nullptr;
       st = r.next(d, f)) {
    ++empty;
  }
  // yaml-cpp reports an empty document at the marker, then one at the comma, where it stays.
  CHECK(empty == 2);
  REQUIRE(st == DocumentReader::Status::Error);
  CHECK(f.message == "a `,` outside a flow collection (`[...]` or `{...}`)");
  CHECK(f.line == 3);
  CHECK(f.column == 1);
  REQUIRE(r.next(d, f) == DocumentReader::Status::Document);
  CHECK(d.root->get("kind")->scalar == "Service");
  CHECK(r.next(d, f) == DocumentReader::Status::End);

  // Bytes that are not UTF-8 after the comma, as the fuzzer found them.
  DocumentReader bytes(std::string_view(",\x97\xbd\xf4\xf4\xff\xdb", 7));
  int documents = 0;
  for (st = bytes.next(d, f); st == DocumentReader::Status::Document; st = bytes.next(d, f))
    ++documents;
  CHECK(documents <= 1);
  CHECK(st == DocumentReader::Status::Error);
  CHECK(bytes.next(d, f) == DocumentReader::Status::End);
}

TEST_CASE("quoted booleans are strings, YAML 1.1 booleans are read", "[yaml]") {
  std::string text = "a: \"true\"\nb: yes\nc: off\n";
  DocumentReader r(text);
  Document d;
  ParseFailure f;
  REQUIRE(r.next(d, f) == DocumentReader::Status::Document);
  CHECK_FALSE(d.root->get("a")->as_bool().has_value());
  CHECK(d.root->get("b")->as_bool() == true);
  CHECK(d.root->get("c")->as_bool() == false);
}

TEST_CASE("merge keys, duplicates and alias budgets", "[yaml]") {
  std::string text = "base: &b {x: 1}\nm:\n  <<: *b\n  y: 2\n  y: 3\n";
  DocumentReader r(text);
  Document d;
  ParseFailure f;
  REQUIRE(r.next(d, f) == DocumentReader::Status::Document);
  CHECK(d.root->get("m")->get("x")->as_int() == 1);
  REQUIRE(d.duplicates.size() == 1);
  CHECK(d.duplicates[0].key == "y");
  CHECK(d.duplicates[0].line == 5);

  std::string bomb =
      "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
      "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, "
      "*c]\n"
      "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: [*e, *e, *e, *e, *e, *e, *e, *e, *e, "
      "*e]\n";
  DocumentReader r2(bomb, 100000);
  REQUIRE(r2.next(d, f) == DocumentReader::Status::Document);
  CHECK(d.over_budget);
}

TEST_CASE("JSONC comments and trailing commas become spaces, positions kept", "[yaml]") {
  std::string text = "{\n  // c\n  \"a\": [1, 2,],\n  /* b */ \"s\": \"//x\",\n}\n";
  std::string s = sbr::yaml::strip_jsonc(text);
  CHECK(s.size() == text.size());
  DocumentReader r(s);
  Document d;
  ParseFailure f;
  REQUIRE(r.next(d, f) == DocumentReader::Status::Document);
  CHECK(d.root->get("a")->items.size() == 2);
  CHECK(d.root->get("s")->scalar == "//x");
  CHECK(d.root->get("s")->line == 4);
}

}  // namespace yaml_tree_test
