// Compose interpolation and the `.env` file, as compose-spec defines them.
#include <catch2/catch.hpp>

#include "analyzer/frontends/launch/compose_interpolate.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace compose_interpolate_test {

using namespace sbr::launch;

namespace {

ComposeEnv env_of(std::initializer_list<std::pair<const char*, const char*>> kv) {
  ComposeEnv e;
  for (const auto& [k, v] : kv) e.values[k] = v;
  return e;
}

}  // namespace

TEST_CASE("compose interpolation: every operator, set, empty and unset", "[compose]") {
  ComposeEnv env = env_of({{"SET", "v"}, {"EMPTY", ""}});
  CHECK(interpolate("${SET:-d}", env).text == "v");
  CHECK(interpolate("${EMPTY:-d}", env).text == "d");  // `:` counts empty as unset
  CHECK(interpolate("${EMPTY-d}", env).text.empty());  // without `:` only absent counts
  CHECK(interpolate("${NOPE-d}", env).text == "d");
  CHECK(interpolate("${SET:+x}", env).text == "x");
  CHECK(interpolate("${EMPTY:+x}", env).text.empty());
  CHECK(interpolate("$SET/b", env).text == "v/b");
  CHECK(interpolate("${SET}${SET}", env).text == "vv");
  CHECK(interpolate("a$$b", env).text == "a$b");
  CHECK(interpolate("$${SET}", env).text == "${SET}");  // an escaped `$` starts nothing
  CHECK(interpolate("${SET:?must be set}", env).text == "v");
}

TEST_CASE("compose interpolation: nested defaults and unknown variables", "[compose]") {
  ComposeEnv env = env_of({{"B", "inner"}});
  CHECK(interpolate("${A:-${B:-x}}/y", env).text == "inner/y");
  CHECK(interpolate("${A:-${C:-x}}/y", env).text == "x/y");
  Interpolated u = interpolate("${WS}:/workspace", env);
  CHECK(u.text == "<unknown $WS>:/workspace");
  CHECK(u.unknown == std::vector<std::string>{"WS"});
  CHECK(has_unknown(u.text));
  CHECK(interpolate("${REQ:?set it}", env).text == "<unknown $REQ>");
  // Host variables whose meaning is known stay spelled so paths still read them.
  CHECK(interpolate("${HOME}/.claude", env).text == "$HOME/.claude");
  CHECK(interpolate("${WS:-.}:/workspace:rw", env).text == ".:/workspace:rw");
  CHECK(interpolate("${PORT:-6080}:6080", env).text == "6080:6080");
  CHECK_FALSE(interpolate("plain", env).changed);
  // Unclosed: kept as written (compose rejects the file; nothing is invented).
  CHECK(interpolate("${OPEN", env).text == "${OPEN");
}

TEST_CASE(".env as compose parses it: quotes, comments, export", "[compose]") {
  ComposeEnv e = parse_dot_env(
      "# comment\n"
      "A=1\n"
      "export B=two\n"
      "C=\"quoted # not a comment\"\n"
      "D='single $NOT'\n"
      "E=value # trailing comment\n"
      "F=a#b\n"
      "  G = spaced\r\n"
      "bare\n"
      "H=\"line\\nbreak\"\n");
  CHECK(e.values.at("A") == "1");
  CHECK(e.values.at("B") == "two");
  CHECK(e.values.at("C") == "quoted # not a comment");
  CHECK(e.values.at("D") == "single $NOT");
  CHECK(e.values.at("E") == "value");
  CHECK(e.values.at("F") == "a#b");
  CHECK(e.values.at("G") == "spaced");
  CHECK(e.values.count("bare") == 0);
  CHECK(e.values.at("H") == "line\nbreak");
}

}  // namespace compose_interpolate_test
