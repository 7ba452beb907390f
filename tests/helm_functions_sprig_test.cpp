// The rest of helm v4.2's function surface: sprig v3.3.0's case and word functions (xstrings
// v1.5.0, goutils v1.1.1), dates, encodings, URLs, reflection, lists, TOML and the
// placeholders. Expected texts are sprig's documented and tested outputs and Go's semantics.
#include <catch2/catch.hpp>

#include "tests/helm_engine_helpers.h"

namespace helm_functions_sprig_test {

namespace {

std::string run(const std::string& text, const std::string& values = "{}") {
  return sbr::test::render_ok(text, values);
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

TEST_CASE("dates: now is the placeholder, layouts are Go's", "[helm][functions]") {
  CHECK(run("{{ now }}") == "2000-01-01 00:00:00 +0000 UTC");
  CHECK(run("{{ now | date \"2006-01-02\" }} {{ now | htmlDate }} {{ htmlDateInZone now "
            "\"UTC\" }}") == "2000-01-01 2000-01-01 2000-01-01");
  CHECK(run("{{ date \"Mon Jan _2 15:04:05 MST 2006\" now }}") == "Sat Jan  1 00:00:00 UTC 2000");
  CHECK(run("{{ date \"Monday, January 2, 2006 3:04:05.000 PM -07:00 Z07:00\" now }}") ==
        "Saturday, January 1, 2000 12:00:00.000 AM +00:00 Z");
  CHECK(run("{{ now | unixEpoch }} {{ typeOf now }} {{ kindOf now }}") ==
        "946684800 time.Time struct");
  CHECK(run("{{ toJson (dict \"t\" now) }}") == "{\"t\":\"2000-01-01T00:00:00Z\"}");
  CHECK(run("{{ dateInZone \"2006-01-02 15:04\" 1560458379 \"UTC\" }}") == "2019-06-13 20:39");
  // A value that is neither a time nor an integer is now, as sprig's default branch.
  CHECK(run("{{ date \"2006\" .Values.x }}", "x: 1560458379") == "2000");
}

TEST_CASE("toDate parses with Go's layouts", "[helm][functions]") {
  CHECK(run("{{ toDate \"2006-01-02\" \"2017-12-31\" | date \"02/01/2006\" }}") == "31/12/2017");
  CHECK(run("{{ toDate \"02 Jan 06 15:04:05 MST\" \"13 Jun 19 20:39:39 GMT\" | unixEpoch }}") ==
        "1560458379");
  CHECK(run("{{ date_in_zone \"02 Jan 06 15:04 -0700\" (toDate \"02 Jan 06 15:04:05 MST\" \"13 "
            "Jun 19 20:39:39 GMT\") \"UTC\" }}") == "13 Jun 19 20:39 +0000");
  CHECK(run("{{ toDate \"2006-01-02T15:04:05.000Z07:00\" \"2019-06-13T20:39:39.123+02:00\" }}") ==
        "2019-06-13 20:39:39.123 +0200 +0200");
  CHECK(run("{{ toDate \"15:04\" \"13:05\" | date \"3:04PM\" }}") == "1:05PM");
  CHECK(run("{{ toDate \"2006-01-02\" \"2020-03-01\" | date \"002 __2\" }}") == "061  61");
  CHECK(run("{{ toDate \"2006-01-02\" \"nope\" }}") == "0001-01-01 00:00:00 +0000 UTC");
  CHECK(sbr::test::render_error("{{ mustToDate \"2006-01-02\" \"nope\" }}")
            .find("parsing time \"nope\" as \"2006-01-02\": cannot parse \"nope\" as \"2006\"") !=
        std::string::npos);
  CHECK(sbr::test::render_error("{{ mustToDate \"2006-01-02\" \"2017-13-01\" }}")
            .find("parsing time \"2017-13-01\": month out of range") != std::string::npos);
  CHECK(sbr::test::render_error("{{ mustToDate \"2006-01-02\" \"2017-02-30\" }}")
            .find("parsing time \"2017-02-30\": day out of range") != std::string::npos);
  CHECK(
      sbr::test::render_error("{{ unixEpoch \"2017\" }}").find("expected time.Time; got string") !=
      std::string::npos);
}

TEST_CASE("durations: duration, durationRound, ago, dateModify", "[helm][functions]") {
  CHECK(run("{{ duration \"61\" }} {{ duration \"3600\" }} {{ duration \"93784\" }}") ==
        "1m1s 1h0m0s 26h3m4s");
  CHECK(run("{{ duration \"-90\" }} {{ duration \"x\" }} {{ duration .Values.s }}", "s: 5") ==
        "-1m30s 0s 0s");
  CHECK(run("{{ durationRound \"2h5s\" }} {{ durationRound \"24h5s\" }} {{ durationRound "
            "\"2400h5s\" }} {{ durationRound \"1.5s\" }}") == "2h 1d 3mo 1s");
  CHECK(run("{{ ago now }} {{ ago (toDate \"2006-01-02\" \"1999-12-31\") }}") == "0s 24h0m0s");
  CHECK(run("{{ now | date_modify \"-1.5h\" | date \"2006-01-02 15:04\" }}") == "1999-12-31 22:30");
  CHECK(run("{{ now | dateModify \"90m\" | date \"15:04\" }} {{ dateModify \"x\" now | date "
            "\"2006\" }}") == "01:30 2000");
  CHECK(sbr::test::render_error("{{ mustDateModify \"x\" now }}")
            .find("error calling mustDateModify: time: invalid duration \"x\"") !=
        std::string::npos);
  CHECK(sbr::test::render_error("{{ must_date_modify \"5\" now }}")
            .find("must_date_modify: time: missing unit in duration \"5\"") != std::string::npos);
}

}  // namespace helm_functions_sprig_test
