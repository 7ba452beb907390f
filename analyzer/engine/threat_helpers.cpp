// A launcher's helper steps: `docker run --rm -v "$vol":/data alpine cat /data/settings.json`,
// `... alpine sh -c 'mkdir -p /dst && chown -R 1000:1000 /dst'`. The launcher wrote every word
// of the command, the image is a stock base image with no ENTRYPOINT of its own, and the
// command only reads, copies and changes files: no agent runs there, and no code from the
// workspace. What it handles is what the sandbox left in the volume, so it is untrusted-input.
// Anything else (an unknown word, a program that runs what it is given, a language image, a
// project image whose ENTRYPOINT may start the agent) is not a helper; agent evidence of its
// own still wins (a harness in the `sh -c` text). The tables are data.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <string_view>
#include <vector>

#include "analyzer/engine/threat_evidence.h"
#include "analyzer/support/strings.h"
#include "analyzer/support/test_paths.h"

namespace sbr::engine::threat {
namespace {

// Official base images (no ENTRYPOINT: the command is what runs) and single-tool images whose
// tool is the command.
constexpr std::array<std::string_view, 12> kStockImages = {
    "alpine",    "busybox", "debian",    "ubuntu",      "fedora",      "rockylinux",
    "almalinux", "centos",  "archlinux", "amazonlinux", "oraclelinux", "instrumentisto/rsync-ssh"};

// Programs that read, copy or change files and print, and run nothing they are given.
constexpr std::array<std::string_view, 41> kFilePrograms = {
    "cat",    "test",      "[",      "ls",       "stat",     "cp",       "mv",
    "rm",     "mkdir",     "rmdir",  "chown",    "chmod",    "chgrp",    "touch",
    "ln",     "tar",       "rsync",  "echo",     "printf",   "true",     "false",
    "sleep",  "id",        "whoami", "du",       "df",       "wc",       "head",
    "tail",   "sha256sum", "md5sum", "readlink", "realpath", "basename", "dirname",
    "mktemp", "exit",      "sync",   "date",     "cd",       "pwd"};

// Shell builtins that change only the shell's own state and run nothing they are given (not
// `eval`, `exec`, `trap`, `command`, `.`: those run a text or a program).
constexpr std::array<std::string_view, 8> kQuietBuiltins = {"set",    "shift", "continue", "break",
                                                            "return", ":",     "read",     "umask"};

std::string_view base_name(std::string_view s) {
  auto p = s.rfind('/');
  return p == std::string_view::npos ? s : s.substr(p + 1);
}

// `find` lists and deletes files, unless an action runs a program for each (`-exec`, `-ok`).
bool find_without_actions(const std::vector<std::string>& words) {
  if (words.empty() || base_name(words[0]) != "find") return false;
  return std::none_of(words.begin(), words.end(), [](const std::string& w) {
    return w == "-exec" || w == "-execdir" || w == "-ok" || w == "-okdir";
  });
}

// Whether every simple command of a shell text runs a file program or a quiet builtin
// (`mkdir -p /d && chown ...`, `for p do [ -L "$p" ] && continue; done`).
bool file_programs_only(const std::vector<std::vector<std::string>>& commands) {
  return !commands.empty() &&
         std::all_of(commands.begin(), commands.end(), [](const std::vector<std::string>& c) {
           return contains(kFilePrograms, base_name(c[0])) || contains(kQuietBuiltins, c[0]) ||
                  find_without_actions(c);
         });
}

// File programs whose options can run a command (`rsync -e`, `tar --to-command`): helpers only
// when the launcher wrote every word.
constexpr std::array<std::string_view, 2> kRunsOptions = {"rsync", "tar"};

// Whether the command runs file programs only: one directly, or a shell's `-c` text of them
// (after shell options, `sh -e -c TEXT`). The words that decide what runs must be the
// launcher's own; the operands may be open (a volume name, the shell's `$1`).
bool helper_command(const Workload& w) {
  const auto& cmd = w.command;
  auto open = [&](std::size_t i) {
    return std::find(w.command_open.begin(), w.command_open.end(), i) != w.command_open.end();
  };
  if (cmd.empty() || open(0)) return false;
  // A shell's `-c` text, read by the launch frontend (launch/shell_text.cpp).
  if (!w.script_commands.empty()) return file_programs_only(w.script_commands);
  std::vector<std::string> words;
  words.reserve(cmd.size());
  for (const auto& c : cmd) words.push_back(c.value);
  if (find_without_actions(words)) return w.command_open.empty();
  if (!contains(kFilePrograms, base_name(cmd[0].value))) return false;
  if (!contains(kRunsOptions, base_name(cmd[0].value))) return true;
  // Open words only after a written `--` (`rsync -a -- "/o/$rel" "/t/$dst"`): operands, never
  // an option that runs a command.
  std::size_t operands = cmd.size();
  for (std::size_t i = 1; i < cmd.size() && !open(i); ++i) {
    if (cmd[i].value == "--") {
      operands = i + 1;
      break;
    }
  }
  return std::all_of(w.command_open.begin(), w.command_open.end(),
                     [&](std::size_t i) { return i >= operands; });
}

// A word without its comment lines: a `sh -c` text often opens with one.
std::string without_comment_lines(std::string_view word) {
  std::string out;
  for (const std::string& line : split(word, '\n')) {
    if (trim(line).starts_with('#')) continue;
    out.append(line);
    out += '\n';
  }
  return out;
}

// The command on one line, blanks folded, a shell text's comment lines left out.
std::string shown_command(const std::vector<Fact<std::string>>& cmd) {
  std::string out;
  for (const auto& c : cmd) {
    for (char ch : " " + without_comment_lines(c.value)) {
      const bool blank = ch == ' ' || ch == '\t' || ch == '\n';
      if (blank && (out.empty() || out.back() == ' ')) continue;
      out += blank ? ' ' : ch;
    }
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return shorten(out, 60);
}

}  // namespace

bool file_program(std::string_view word) {
  return contains(kFilePrograms, base_name(word));
}

void test_script_evidence(const Model& m, const Workload& w, Evidence& out) {
  // The engine command written in the suite: a test that calls the product's own launch
  // function (ContainAI's tests reach src/lib/container.sh) runs the product's sandbox.
  if (w.id.kind != "launcher" || !w.object_from.at.valid()) return;
  const std::string& file = m.files.path(w.object_from.at.file);
  if (!test_path(file)) return;
  add(out, ThreatSignal::TestScript, ThreatClass::UntrustedInput,
      fmt::format("a test script starts it ({}): it exercises the product, whose own launchers "
                  "start the sandbox users run",
                  file),
      w.object_from);
}

void helper_evidence(const Workload& w, Evidence& out) {
  if (w.id.kind != "launcher" || !contains(kStockImages, repository_of(w.image)) ||
      !helper_command(w))
    return;
  add(out, ThreatSignal::HelperStep, ThreatClass::UntrustedInput,
      fmt::format("it runs `{}`, written in its launcher, on the stock image {}: a helper step "
                  "that handles files the sandbox left, not the agent",
                  shown_command(w.command), w.image),
      w.command.front().from);
}

}  // namespace sbr::engine::threat
