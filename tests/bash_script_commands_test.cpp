// What a container's `sh -c` text runs (analyzer/render/bash/script_commands.cpp): the simple
// commands read with the bash grammar, as the helper-step class asks them (issue 34). The texts
// are in the style of novotnyllc/ContainAI's import helpers.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "analyzer/render/bash/script_commands.h"

namespace bash_script_commands_test {

using Commands = std::vector<std::vector<std::string>>;

TEST_CASE("a helper text's commands are read past comments loops and substitutions",
          "[bash][script-commands]") {
  const std::string text = R"(
    # Check each path component for symlinks (POSIX-compatible)
    target_file="$1"
    prefix="/target"
    oldifs="$IFS"
    IFS="/"
    set -- $target_file
    for part do
        [ -z "$part" ] && continue
        prefix="$prefix/$part"
        if [ -L "$prefix" ]; then
            echo "symlink_in_path"
            exit 0
        fi
    done
    tmp=$(mktemp -p /target)
    cat > "$tmp"
)";
  auto got = sbr::bash::script_commands(text);
  REQUIRE(got.has_value());
  // `[ ... ]` is tree-sitter-bash's test_command, not a program; `tmp=$(mktemp ...)` runs one.
  const Commands want = {{"set", "--", "$target_file"},   {"continue"},
                         {"echo", "\"symlink_in_path\""}, {"exit", "0"},
                         {"mktemp", "-p", "/target"},     {"cat"}};
  CHECK(*got == want);
}

TEST_CASE("a text whose program is not written out says nothing is known",
          "[bash][script-commands]") {
  CHECK_FALSE(sbr::bash::script_commands("mkdir -p /d && \"$tool\" /d").has_value());
  CHECK_FALSE(sbr::bash::script_commands("$(printf cat) /etc/passwd").has_value());
  CHECK_FALSE(sbr::bash::script_commands("if then fi (").has_value());
}

TEST_CASE("commands inside substitutions and pipelines are each one command",
          "[bash][script-commands]") {
  auto got = sbr::bash::script_commands(
      "find /p -name '.orphaned_at' -delete -print | wc -l || echo \"$(date -u)\"");
  REQUIRE(got.has_value());
  const Commands want = {{"find", "/p", "-name", "'.orphaned_at'", "-delete", "-print"},
                         {"wc", "-l"},
                         {"echo", "\"$(date -u)\""},
                         {"date", "-u"}};
  CHECK(*got == want);
}

TEST_CASE("the text a shell is given to run is found after its options",
          "[bash][script-commands]") {
  using V = std::vector<std::string_view>;
  CHECK(sbr::bash::shell_text_at(V{"sh", "-c", "mkdir /d", "_", "x"}) == 2u);
  CHECK(sbr::bash::shell_text_at(V{"/usr/bin/bash", "--norc", "-e", "-c", "true"}) == 4u);
  CHECK(sbr::bash::shell_text_at(V{"bash", "-cx", "true"}) == 2u);
  CHECK(sbr::bash::shell_text_at(V{"sh", "-ec", "true"}) == 2u);
  // A script file is not a `-c` text, whatever follows it; nor is a `-c` with no text.
  CHECK_FALSE(sbr::bash::shell_text_at(V{"bash", "run.sh", "-c", "true"}).has_value());
  CHECK_FALSE(sbr::bash::shell_text_at(V{"sh", "-c"}).has_value());
  CHECK_FALSE(sbr::bash::shell_text_at(V{"python3", "-c", "print(1)"}).has_value());
}

}  // namespace bash_script_commands_test
