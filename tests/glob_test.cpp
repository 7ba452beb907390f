// The two pattern languages a repository writes: shell patterns (bash `case`, `[[ == ]]`,
// `${x#pat}`, the configuration's selectors) and Helm's `.Files.Glob` (gobwas/glob). Both are
// matched without backtracking, so a pattern of many stars costs what its length costs.
#include <re2/re2.h>

#include <catch2/catch.hpp>

#include <string>

#include "analyzer/render/helm/context.h"
#include "analyzer/support/strings.h"

TEST_CASE("shell patterns mean what fnmatch without flags means", "[glob]") {
  using sbr::glob_match;
  CHECK(glob_match("*.yaml", "deploy/pod.yaml"));  // `*` crosses `/`
  CHECK(glob_match("a?c", "abc"));
  CHECK_FALSE(glob_match("a?c", "ac"));
  CHECK(glob_match("[a-c]x", "bx"));
  CHECK_FALSE(glob_match("[!a-c]x", "bx"));
  CHECK(glob_match("[^a-c]x", "dx"));
  CHECK(glob_match("[]]", "]"));
  CHECK(glob_match("[[:digit:]][[:alpha:]]", "1z"));
  CHECK_FALSE(glob_match("[[:digit:]]", "z"));
  CHECK(glob_match("\\*", "*"));
  CHECK_FALSE(glob_match("\\*", "x"));
  CHECK(glob_match("[ab", "[ab"));  // an unclosed bracket is itself
  CHECK(glob_match("--priv*", "--privileged"));
  CHECK(glob_match("*", ""));
  CHECK_FALSE(glob_match("?", ""));
  CHECK(glob_match("*a*b*c", "xxaxxbxxc"));
  CHECK_FALSE(glob_match("*a*b*c", "xxaxxcxxb"));
}

TEST_CASE("a pattern of forty stars on a long word is answered at once", "[glob]") {
  std::string pattern, word(200, 'a');
  for (int k = 0; k < 40; ++k) pattern += "*a";
  CHECK_FALSE(sbr::glob_match(pattern + "*b", word));
  CHECK(sbr::glob_match(pattern, word));
  RE2 files(sbr::render::helm::files_glob_regex("files/" + pattern + "*b"));
  CHECK_FALSE(RE2::FullMatch("files/" + word, files));
}

TEST_CASE(".Files.Glob patterns compile as gobwas/glob with separator '/'", "[glob][helm]") {
  auto match = [](const std::string& pattern, const std::string& path) {
    std::string re = sbr::render::helm::files_glob_regex(pattern);
    REQUIRE_FALSE(re.empty());
    return RE2::FullMatch(path, RE2(re));
  };
  CHECK(match("files/*.conf", "files/a.conf"));
  CHECK_FALSE(match("files/*.conf", "files/sub/a.conf"));  // `*` stays in its segment
  CHECK(match("files/**.conf", "files/sub/a.conf"));
  CHECK(match("**.toml", "a/b/c.toml"));
  CHECK_FALSE(match("**/c.toml", "c.toml"));  // the `/` after `**` is a character
  CHECK(match("config/{a,b}.yaml", "config/b.yaml"));
  CHECK(match("config/{a,{b,c}x}.yaml", "config/cx.yaml"));
  CHECK_FALSE(match("config/{a,b}.yaml", "config/c.yaml"));
  CHECK(match("f?le", "file"));
  CHECK_FALSE(match("f?le", "f/le"));
  CHECK(match("[!x]y", "ay"));
  CHECK_FALSE(match("[!x]y", "xy"));
  CHECK(match("[a-c].txt", "b.txt"));
  CHECK(match("a.b+c", "a.b+c"));  // regex characters are literal
  CHECK_FALSE(match("a.b", "axb"));
  // A pattern gobwas does not compile: helm then globs "**", every file.
  CHECK(sbr::render::helm::files_glob_regex("config/{a,b").empty());
  CHECK(sbr::render::helm::files_glob_regex("[]").empty());
}
