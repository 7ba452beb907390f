#include "analyzer/frontends/gates/run_paths.h"

#include <algorithm>
#include <array>

#include "analyzer/frontends/shell_words.h"
#include "analyzer/support/strings.h"

namespace sbr {
namespace {

struct Token {
  std::string text;
  Provenance from;
};
using Tokens = std::vector<Token>;

template <std::size_t N>
bool one_of(const std::array<std::string_view, N>& names, std::string_view s) {
  return std::find(names.begin(), names.end(), s) != names.end();
}

constexpr std::array<std::string_view, 6> kShells = {"sh", "bash", "dash", "ash", "zsh", "ksh"};
// Wrappers that run the rest of the line as a command after their own options.
constexpr std::array<std::string_view, 8> kPlainWrappers = {
    "exec", "nohup", "tini", "tini-static", "dumb-init", "catatonit", "command", "time"};
// The options of each wrapper that take the next word as their value.
struct ValueOptions {
  std::string_view wrapper;
  std::array<std::string_view, 10> options;
};
constexpr std::array<ValueOptions, 6> kValueOptions = {{
    {"sudo", {"-u", "-g", "-U", "-C", "-h", "-p", "-r", "-t", "-T", "-D"}},
    {"doas", {"-u", "-C"}},
    {"env", {"-u", "-C", "-S", "--unset", "--chdir"}},
    {"timeout", {"-s", "-k", "--signal", "--kill-after"}},
    {"nice", {"-n", "--adjustment"}},
    {"setpriv",
     {"--reuid", "--regid", "--groups", "--bounding-set", "--inh-caps", "--ambient-caps",
      "--securebits", "--pdeathsig", "--selinux-label", "--apparmor-profile"}},
}};
constexpr std::array<std::string_view, 3> kRestores = {"iptables-restore", "ip6tables-restore",
                                                       "iptables-legacy-restore"};

bool takes_value(std::string_view wrapper, std::string_view option) {
  for (const ValueOptions& v : kValueOptions) {
    if (v.wrapper == wrapper) {
      return std::find(v.options.begin(), v.options.end(), option) != v.options.end();
    }
  }
  return false;
}

// Skips a wrapper's options (and the values of those that take one) and a `--`.
void skip_options(std::string_view wrapper, const Tokens& ws, std::size_t& i) {
  while (i < ws.size() && ws[i].text.starts_with("-") && ws[i].text != "-") {
    if (ws[i].text == "--") {
      ++i;
      return;
    }
    i += takes_value(wrapper, ws[i].text) ? 2 : 1;
  }
}

void simple_command(const Tokens& words, std::vector<RunPath>& out);

// `sh [-opts] -c TEXT` or `sh [-opts] SCRIPT`: from the first word after the shell's name.
void shell_arguments(const Tokens& ws, std::size_t i, std::vector<RunPath>& out) {
  while (i < ws.size() && ws[i].text.starts_with("-") && ws[i].text != "--") {
    const std::string& o = ws[i].text;
    if (!o.starts_with("--") && o.find('c') != std::string::npos) {
      if (i + 1 < ws.size()) {
        for (auto& p : run_paths_of_shell(ws[i + 1].text, ws[i + 1].from)) out.push_back(p);
      }
      return;
    }
    i += o == "-o" ? 2 : 1;
  }
  if (i < ws.size() && ws[i].text == "--") ++i;
  if (i < ws.size()) out.push_back({ws[i].text, PathUse::ShellScript, false, ws[i].from});
}

void nft_files(const Tokens& ws, std::size_t i, const Token* stdin_file,
               std::vector<RunPath>& out) {
  for (std::size_t j = i + 1; j < ws.size(); ++j) {
    const std::string& o = ws[j].text;
    std::string file;
    Provenance at = ws[j].from;
    if (o.starts_with("--file=")) {
      file = o.substr(7);
    } else if ((o == "--file" ||
                (o.starts_with("-") && !o.starts_with("--") && o.ends_with("f"))) &&
               j + 1 < ws.size()) {
      file = ws[j + 1].text;
      at = ws[j + 1].from;
    } else {
      continue;
    }
    if (file == "-" && stdin_file != nullptr) {
      file = stdin_file->text;
      at = stdin_file->from;
    }
    if (file != "-") out.push_back({file, PathUse::File, true, at});
    return;
  }
}

void restore_file(const Tokens& ws, std::size_t i, const Token* stdin_file,
                  std::vector<RunPath>& out) {
  for (std::size_t j = i + 1; j < ws.size(); ++j) {
    if (ws[j].text.starts_with("-")) continue;
    out.push_back({ws[j].text, PathUse::File, true, ws[j].from});
    return;
  }
  if (stdin_file != nullptr)
    out.push_back({stdin_file->text, PathUse::File, true, stdin_file->from});
}

// The command a simple command runs, past assignments and wrappers.
void simple_command(const Tokens& words, std::vector<RunPath>& out) {
  Tokens ws;
  const Token* stdin_file = nullptr;
  for (std::size_t k = 0; k < words.size(); ++k) {
    const std::string& t = words[k].text;
    if ((t == "<" || t == ">") && k + 1 < words.size()) {
      if (t == "<") stdin_file = &words[k + 1];
      ++k;
    } else if (t != "<" && t != ">") {
      ws.push_back(words[k]);
    }
  }
  std::size_t i = 0;
  while (i < ws.size()) {
    const std::string& w = ws[i].text;
    const std::string b = base_name(w);
    if (is_assignment(w)) {
      ++i;
    } else if (b == "sudo" || b == "doas" || b == "env" || b == "nice" || b == "setpriv" ||
               one_of(kPlainWrappers, b)) {
      ++i;
      skip_options(b, ws, i);
      while (b == "env" && i < ws.size() && is_assignment(ws[i].text)) ++i;
    } else if (b == "timeout") {
      ++i;
      skip_options(b, ws, i);
      ++i;  // the duration
    } else if (b == "su-exec" || b == "gosu") {
      i += 2;  // the user, then the command
    } else if (b == "capsh") {
      // `capsh --drop=... -- -c TEXT`: after `--`, capsh hands its arguments to bash.
      auto dash = std::find_if(ws.begin() + static_cast<std::ptrdiff_t>(i), ws.end(),
                               [](const Token& t) { return t.text == "--"; });
      if (dash != ws.end())
        shell_arguments(ws, static_cast<std::size_t>(dash - ws.begin()) + 1, out);
      return;
    } else if (one_of(kShells, b)) {
      shell_arguments(ws, i + 1, out);
      return;
    } else if (w == "source" || w == ".") {
      if (i + 1 < ws.size())
        out.push_back({ws[i + 1].text, PathUse::ShellScript, false, ws[i + 1].from});
      return;
    } else if (b == "nft") {
      nft_files(ws, i, stdin_file, out);
      return;
    } else if (one_of(kRestores, b)) {
      restore_file(ws, i, stdin_file, out);
      return;
    } else {
      out.push_back({w, PathUse::Program, false, ws[i].from});
      return;
    }
  }
}

}  // namespace

std::vector<RunPath> run_paths_of_shell(std::string_view text, const Provenance& from) {
  std::vector<RunPath> out;
  for (const auto& words : simple_commands(text)) {
    Tokens ws;
    for (const auto& w : words) ws.push_back({w, from});
    simple_command(ws, out);
  }
  return out;
}

std::vector<RunPath> run_paths_of_argv(const std::vector<Fact<std::string>>& argv) {
  // compose's string `command: /opt/gate/apply.sh --strict` is one word split like a shell's.
  if (argv.size() == 1 && argv[0].value.find_first_of(" \t\n;&|") != std::string::npos) {
    return run_paths_of_shell(argv[0].value, argv[0].from);
  }
  Tokens ws;
  for (const auto& a : argv) ws.push_back({a.value, a.from});
  std::vector<RunPath> out;
  simple_command(ws, out);
  return out;
}

}  // namespace sbr
