#include "analyzer/frontends/launch/image_grants.h"

#include <algorithm>

#include "analyzer/frontends/launch/dockerfile_text.h"
#include "analyzer/frontends/launch/specs.h"
#include "analyzer/support/strings.h"

namespace sbr::launch {
namespace {

// The simple commands of shell text, split at `&&`, `||`, `;`, `|` and newlines outside quotes.
// Enough to read the few commands judged here; the bash frontend renders the script in full.
std::vector<std::string> simple_commands(const std::string& s) {
  std::vector<std::string> out(1);
  char quote = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (quote != 0) {
      if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == ';' || c == '|' || c == '\n' ||
               (c == '&' && i + 1 < s.size() && s[i + 1] == '&')) {
      if (c == '&' || (c == '|' && i + 1 < s.size() && s[i + 1] == '|')) ++i;
      out.emplace_back();
      continue;
    }
    out.back().push_back(c);
  }
  std::erase_if(
      out, [](const std::string& x) { return x.find_first_not_of(" \t") == std::string::npos; });
  return out;
}

// The command's words after `sudo`/`env` wrappers, with the command reduced to its basename.
std::vector<std::string> command_words(const std::string& cmd) {
  std::vector<std::string> w = dockerfile::quoted_words(cmd);
  while (!w.empty() && (w[0] == "sudo" || w[0] == "env" || w[0] == "command" || w[0] == "exec"))
    w.erase(w.begin());
  if (!w.empty()) w[0] = base_name(w[0]);
  return w;
}

bool privileged_group(const std::string& g) {
  return g == "docker" || g == "sudo" || g == "wheel" || g == "root" || g == "admin";
}

// The groups a user-management command adds its user to: usermod/useradd -G, gpasswd -a U G,
// adduser/addgroup U G (Debian and BusyBox take the group as the second operand).
std::vector<std::string> added_groups(const std::vector<std::string>& w) {
  std::vector<std::string> groups, operands;
  if (w.empty()) return groups;
  const std::string& c = w[0];
  for (std::size_t i = 1; i < w.size(); ++i) {
    const std::string& a = w[i];
    bool takes_groups = (c == "usermod" || c == "useradd") &&
                        (a == "-G" || a == "--groups" || a == "-aG" || a == "-Ga");
    if (takes_groups && i + 1 < w.size()) {
      for (const auto& g : split(w[++i], ',')) groups.push_back(g);
    } else if (a.starts_with("--groups=")) {
      for (const auto& g : split(a.substr(9), ',')) groups.push_back(g);
    } else if (c == "gpasswd" && (a == "-a" || a == "--add") && i + 2 < w.size()) {
      groups.push_back(w[i + 2]);
      i += 2;
    } else if (!a.starts_with("-")) {
      operands.push_back(a);
    }
  }
  if ((c == "adduser" || c == "addgroup") && operands.size() == 2) groups.push_back(operands[1]);
  std::erase_if(groups, [](const std::string& g) { return !privileged_group(g); });
  return groups;
}

// chmod u+s / +s / a+s / 4755 / 6755, install -m 4755: the files given the setuid bit.
bool setuid_mode(const std::string& m) {
  if (m.size() == 4 && std::all_of(m.begin(), m.end(), [](char c) { return c >= '0' && c <= '7'; }))
    return ((m[0] - '0') & 4) != 0;
  for (const auto& clause : split(m, ',')) {
    std::size_t op = clause.find_first_of("+=");
    if (op == std::string::npos || clause.find('s', op) == std::string::npos) continue;
    std::string who = clause.substr(0, op);
    if (who.empty() || who.find_first_of("ua") != std::string::npos) return true;
  }
  return false;
}

std::vector<std::string> setuid_files(const std::vector<std::string>& w) {
  std::vector<std::string> files;
  if (w.empty() || (w[0] != "chmod" && w[0] != "install")) return files;
  bool setuid = false;
  for (std::size_t i = 1; i < w.size(); ++i) {
    if (w[0] == "install" && (w[i] == "-m" || w[i] == "--mode") && i + 1 < w.size()) {
      setuid = setuid_mode(w[++i]);
    } else if (w[0] == "chmod" && !setuid && files.empty() && setuid_mode(w[i])) {
      setuid = true;
    } else if (!w[i].starts_with("-")) {
      files.push_back(w[i]);
    }
  }
  if (!setuid) files.clear();
  if (w[0] == "install" && !files.empty()) files = {files.back()};  // install SRC... DEST
  return files;
}

// The rule text around a NOPASSWD written by a RUN line: from the quote, newline or command
// start before it to the quote, newline or redirection after it.
std::string rule_around(const std::string& s, std::size_t at) {
  std::size_t b = s.find_last_of("\"'\n", at);
  std::size_t e = s.find_first_of("\"'\n>|", at);
  b = b == std::string::npos ? 0 : b + 1;
  return s.substr(b, (e == std::string::npos ? s.size() : e) - b);
}

// What a rule allows without a password: the commands after `NOPASSWD:`.
std::string nopasswd_commands(const std::string& rule) {
  std::size_t k = rule.find("NOPASSWD");
  std::string rest = rule.substr(k + 8);
  if (!rest.empty() && rest[0] == ':') rest.erase(0, 1);
  std::string cmds(trim(rest));
  if (cmds.ends_with("\\n")) cmds = trim(cmds.substr(0, cmds.size() - 2));
  return cmds.empty() ? "ALL" : cmds;
}

// The commands of a NOPASSWD rule's list (`/usr/local/bin/init-firewall.sh, /usr/bin/x ""`),
// tags such as `SETENV:` left out; `ALL` names no command.
std::vector<SudoCommand> sudo_command_list(const std::string& list) {
  std::vector<SudoCommand> out;
  for (const auto& part : split(list, ',')) {
    std::string cmd(trim(part));
    while (cmd.find(':') != std::string::npos && !cmd.starts_with("/"))
      cmd = std::string(trim(cmd.substr(cmd.find(':') + 1)));
    if (!cmd.starts_with("/")) continue;
    std::size_t sp = cmd.find_first_of(" \t");
    std::string args = sp == std::string::npos ? "" : std::string(trim(cmd.substr(sp)));
    out.push_back({cmd.substr(0, sp), args.empty() || args.find('*') != std::string::npos});
  }
  return out;
}

ImageGrant sudo_grant(const std::string& rule, const std::string& via, const Provenance& at) {
  std::string commands = nopasswd_commands(rule);
  std::vector<SudoCommand> list = sudo_command_list(commands);
  return {ImageGrantKind::PasswordlessSudo, std::move(commands), via, at, std::move(list)};
}

std::string sudoers_target(const std::string& s) {
  std::size_t p = s.find("/etc/sudoers");
  if (p == std::string::npos) return "";
  std::size_t e = s.find_first_of(" \t\n\"';&|)", p);
  return s.substr(p, e == std::string::npos ? std::string::npos : e - p);
}

}  // namespace

bool is_sudoers_path(const std::string& p) {
  return p == "/etc/sudoers" || p.starts_with("/etc/sudoers.d/") || p == "/etc/sudoers.d";
}

std::vector<ImageGrant> sudoers_grants(const std::string& text, const std::string& via,
                                       const Provenance& at) {
  std::vector<ImageGrant> out;
  for (const auto& raw : split(text, '\n')) {
    std::string line(trim(raw));
    if (line.empty() || line[0] == '#' || line.find("NOPASSWD") == std::string::npos) continue;
    out.push_back(sudo_grant(line, via, at));
  }
  return out;
}

std::vector<ImageGrant> shell_grants(const std::string& script, const Provenance& at) {
  std::vector<ImageGrant> out;
  // A NOPASSWD rule counts when the same RUN line writes sudoers configuration (echo, printf,
  // tee, a heredoc, sed -i): the text is the rule whatever command carries it.
  std::string target = sudoers_target(script);
  if (!target.empty()) {
    for (std::size_t k = script.find("NOPASSWD"); k != std::string::npos;
         k = script.find("NOPASSWD", k + 8)) {
      out.push_back(sudo_grant(rule_around(script, k), target, at));
    }
  }
  for (const auto& cmd : simple_commands(script)) {
    std::vector<std::string> w = command_words(cmd);
    for (const auto& g : added_groups(w))
      out.push_back({ImageGrantKind::PrivilegedGroup, g, w[0], at, {}});
    for (const auto& f : setuid_files(w))
      out.push_back({ImageGrantKind::SetuidBit, f, w[0], at, {}});
  }
  return out;
}

}  // namespace sbr::launch
