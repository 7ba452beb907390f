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

}  // namespace bash_script_commands_test
