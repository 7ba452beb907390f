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
constexpr std::array<std::string_view, 40> kFilePrograms = {
    "cat",      "test",     "[",       "ls",    "stat",  "cp",        "mv",     "rm",
    "mkdir",    "rmdir",    "chown",   "chmod", "chgrp", "touch",     "ln",     "tar",
    "rsync",    "echo",     "printf",  "true",  "false", "sleep",     "id",     "whoami",
    "du",       "df",       "wc",      "head",  "tail",  "sha256sum", "md5sum", "readlink",
    "realpath", "basename", "dirname", "exit",  "sync",  "date",      "cd",     "pwd"};

// Words of shell syntax a simple command may start with before its program.
constexpr std::array<std::string_view, 12> kShellWords = {
    "if", "then", "else", "elif", "fi", "do", "done", "while", "until", "!", "{", "}"};

constexpr std::array<std::string_view, 6> kShells = {"sh",   "bash",    "ash",
                                                     "dash", "/bin/sh", "/bin/bash"};

bool assignment(std::string_view w) {
  auto eq = w.find('=');
  return eq != std::string_view::npos && eq > 0 && w.find_first_of("/-") > eq;
}

std::string_view base_name(std::string_view s) {
  auto p = s.rfind('/');
  return p == std::string_view::npos ? s : s.substr(p + 1);
}

// `find` lists and deletes files, unless an action runs a program for each (`-exec`, `-ok`).
bool find_without_actions(const std::vector<std::string>& words, std::size_t k) {
  if (base_name(words[k]) != "find") return false;
  return std::none_of(words.begin() + static_cast<std::ptrdiff_t>(k), words.end(),
                      [](const std::string& w) {
                        return w == "-exec" || w == "-execdir" || w == "-ok" || w == "-okdir";
                      });
}

// Whether every simple command of shell text runs a file program (`mkdir -p /d && chown ...`,
// `test -f /v/x || exit 1`). Substitutions and `case`/`for` are more than a helper says.
bool file_programs_only(std::string_view text) {
  if (text.find("$(") != std::string_view::npos || text.find('`') != std::string_view::npos)
    return false;
  std::vector<std::string> words;
  std::string cur;
  std::size_t programs = 0;
  auto end_command = [&]() {
    if (!cur.empty()) words.push_back(cur);
    cur.clear();
    std::size_t k = 0;
    while (k < words.size() && (contains(kShellWords, words[k]) || assignment(words[k]))) ++k;
    const bool ok = k == words.size() || contains(kFilePrograms, base_name(words[k])) ||
                    find_without_actions(words, k);
    if (k < words.size()) ++programs;
    words.clear();
    return ok;
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    // `2>&1`, `&>/dev/null`: a redirection, not the end of a command.
    const bool redirect = c == '&' && ((i > 0 && (text[i - 1] == '>' || text[i - 1] == '<')) ||
                                       (i + 1 < text.size() && text[i + 1] == '>'));
    // A subshell's parentheses (`tar -cf - . | (cd /t && tar -xf -)`) end a command too.
    if (!redirect && (c == ';' || c == '&' || c == '|' || c == '\n' || c == '(' || c == ')')) {
      if (!end_command()) return false;
    } else if (c == ' ' || c == '\t') {
      if (!cur.empty()) words.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  return end_command() && programs > 0;
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
  if (contains(kShells, cmd[0].value)) {
    // `-c`, or short options that end in it (`-ec`).
    auto takes_text = [](const std::string& v) {
      return v.size() > 1 && v[0] == '-' && v[1] != '-' && v.back() == 'c';
    };
    std::size_t i = 1;
    while (i < cmd.size() && !open(i) && !takes_text(cmd[i].value) && cmd[i].value.size() > 1 &&
           cmd[i].value[0] == '-')
      ++i;
    return i + 1 < cmd.size() && takes_text(cmd[i].value) && !open(i) && !open(i + 1) &&
           file_programs_only(cmd[i + 1].value);
  }
  if (base_name(cmd[0].value) == "find") {
    std::vector<std::string> words;
    words.reserve(cmd.size());
    for (const auto& c : cmd) words.push_back(c.value);
    return w.command_open.empty() && find_without_actions(words, 0);
  }
  if (!contains(kFilePrograms, base_name(cmd[0].value))) return false;
  return !contains(kRunsOptions, base_name(cmd[0].value)) || w.command_open.empty();
}

// The command on one line, blanks folded (a `sh -c` text is often indented over lines).
std::string shown_command(const std::vector<Fact<std::string>>& cmd) {
  std::string out;
  for (const auto& c : cmd) {
    for (char ch : " " + c.value) {
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
