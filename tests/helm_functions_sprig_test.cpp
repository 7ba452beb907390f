// The rest of helm v4.2's function surface: sprig v3.3.0's case and word functions (xstrings
// v1.5.0, goutils v1.1.1), dates, encodings, URLs, reflection, lists, TOML and the
// placeholders. Expected texts are sprig's documented and tested outputs and Go's semantics.
#include <catch2/catch.hpp>

#include "tests/helm_engine_helpers.h"

namespace helm_functions_sprig_test {

using sbr::test::render_template;

namespace {

std::string run(const std::string& text, const std::string& values = "{}") {
  return sbr::test::render_ok(text, values);
}

std::string error_of(const std::string& text, const std::string& values = "{}") {
  auto r = render_template(text, values);
  INFO(r.text);
  REQUIRE_FALSE(r.error.empty());
  return r.error;
}

}  // namespace

TEST_CASE("snakecase and kebabcase split words as xstrings does", "[helm][functions]") {
  CHECK(run("{{ snakecase \"FirstName\" }} {{ snakecase \"HTTPServer\" }} {{ snakecase "
            "\"NoHTTPS\" }}") == "first_name http_server no_https");
  CHECK(run("{{ snakecase \"GO_PATH\" }} {{ snakecase \"GO PATH\" }} {{ snakecase \"GO-PATH\" "
            "}}") == "go_path go_path go_path");
  CHECK(run("{{ snakecase \"http2xx\" }} {{ snakecase \"HTTP20xOK\" }} {{ snakecase "
            "\"Duration2m3s\" }} {{ snakecase \"Bld4Floor3rd\" }}") ==
        "http_2xx http_20x_ok duration_2m3s bld4_floor_3rd");
  CHECK(run("{{ kebabcase \"FirstName\" }} {{ kebabcase \"HTTPServer\" }} {{ kebabcase "
            "\"HTTP20xOK\" }}") == "first-name http-server http-20x-ok");
  // An already split word keeps its number with it.
  CHECK(run("{{ kebabcase \"my_app_v2\" }}") == "my-app-v2");
}

TEST_CASE("camelcase is xstrings' ToPascalCase", "[helm][functions]") {
  CHECK(run("{{ camelcase \"http_server\" }} {{ camelcase \"some words\" }} {{ camelcase "
            "\"no_https\" }}") == "HttpServer SomeWords NoHttps");
  CHECK(run("{{ camelcase \"_complex__case_\" }} {{ camelcase \"GOLANG_IS_GREAT\" }}") ==
        "_Complex_Case_ GolangIsGreat");
  CHECK(run("{{ camelcase \"a\" }}|{{ camelcase \"\" }}|{{ camelcase \"_\" }}") == "A||__");
}

TEST_CASE("swapcase, untitle, title and initials as goutils and strings do", "[helm][functions]") {
  CHECK(run("{{ swapcase \"This Is A.Test\" }}") == "tHIS iS a.tEST");
  CHECK(run("{{ untitle \"Hello World\" }}") == "hello world");
  // strings.Title starts a word after any ASCII character but letters, digits and `_`.
  CHECK(run("{{ title \"hello-world foo_bar x.y\" }}") == "Hello-World Foo_bar X.Y");
  CHECK(run("{{ title \"élan vital\" }}") == "Élan Vital");
  CHECK(run("{{ initials \"First Try\" }} {{ initials \"  many   spaces here\" }}") == "FT msh");
}

TEST_CASE("wrap, wrapWith, abbrev and abbrevboth cut as goutils does", "[helm][functions]") {
  CHECK(run("{{ wrap 5 \"Hello World\" }}") == "Hello\nWorld");
  CHECK(run("{{ wrapWith 5 \"\\t\" \"Hello World\" }}") == "Hello\tWorld");
  CHECK(run("{{ wrap 3 \"abcdefg hi\" }}") == "abcdefg\nhi");
  CHECK(run("{{ wrapWith 3 \"|\" \"abcdefg hi\" }}") == "abc|def|g|hi");
  CHECK(run("{{ abbrev 5 \"hello world\" }} {{ abbrev 3 \"hello world\" }}") ==
        "he... hello world");
  CHECK(run("{{ abbrevboth 5 10 \"1234 5678 9123\" }}") == "...5678...");
  CHECK(run("{{ abbrevboth 5 6 \"1234 5678 9123\" }}") == "1234 5678 9123");
}

TEST_CASE("plural, splitn, trimall and hello", "[helm][functions]") {
  CHECK(run("{{ $num := len \"two\" }}{{ $num }} {{ $num | plural \"1 char\" \"chars\" }}") ==
        "3 chars");
  CHECK(run("{{ len \"t\" | plural \"cheese\" \"%d chars\" }}") == "cheese");
  CHECK(run("{{ splitn \"$\" 2 \"foo$bar$baz\" }}") == "map[_0:foo _1:bar$baz]");
  CHECK(run("{{ $p := splitn \"$\" -1 \"foo$bar$baz\" }}{{ $p._2 }}") == "baz");
  CHECK(run("{{ splitn \"$\" 0 \"foo$bar\" }}") == "map[]");
  CHECK(run("{{ splitn \"\" 2 \"abc\" }}") == "map[_0:a _1:bc]");
  CHECK(run("{{ trimall \"$\" \"$5.00\" }}") == "5.00");
  CHECK(run("{{ hello }}") == "Hello!");
}

}  // namespace helm_functions_sprig_test
