// Observations at each rendered command: security steps and how their status is used,
// container launches and the shell options in force, commands that need NET_ADMIN, secret
// values in traces, URLs, the terminal and files, sudo grants, and `exec` handing over.
#include <fmt/format.h>

#include <algorithm>
#include <sstream>

#include "analyzer/render/bash/evaluator.h"
#include "analyzer/render/bash/observe.h"
#include "analyzer/render/bash/words.h"
#include "analyzer/support/secrets.h"

namespace sbr::bash {
namespace {

bool needs_net_admin(const std::string& b, const std::vector<std::string>& texts) {
  if (is_firewall_tool(b)) return security_step(texts).has_value();
  if (b == "ip") return texts.size() > 2 && !in(texts[2], {"show", "list", "ls"});
  if (b == "sysctl") return std::find(texts.begin(), texts.end(), "-w") != texts.end();
  return b == "tc";
}

bool strict_mode(const std::string& b, const std::vector<std::string>& texts, size_t i) {
  const std::string& m = texts[i];
  if (in(m, {"600", "0600", "400", "0400", "700", "0700", "go-rwx", "og-rwx",
             "u=rw,go=", "u=rw,g=,o=", "g-rwx,o-rwx", "go=", "og=", "u=r,go="}))
    return true;
  return b == "install" && (m == "-m" || m == "--mode") && i + 1 < texts.size() &&
         in(texts[i + 1], {"600", "0600", "400", "0400"});
}

}  // namespace

void Evaluator::note_command_facts(const Invocation& inv, const std::vector<EWord>& argv,
                                   const std::vector<EWord>& stdin_words, Ctx& ctx,
                                   const std::vector<std::pair<std::string, Location>>& writes) {
  std::vector<std::string> texts;
  texts.reserve(argv.size());
  for (const EWord& w : argv) texts.push_back(w.w.text);
  std::string b = argv[0].w.symbolic ? "" : base_name(argv[0].w.text);
  Provenance at = Provenance{argv[0].w.from.at, Frontend::Bash, ctx.cond};

  // A step that is itself an if condition is recorded by control_flow.cpp with the branch
  // taken on failure; one inside a function called from the condition runs with errexit off
  // and its status unused, and is recorded here as unchecked (the check drops the copy of the
  // first kind).
  if (auto kind = security_step(texts)) {
    SecurityStep s;
    s.kind = *kind;
    for (size_t i = 0; i < texts.size(); ++i) {
      if (i < 4) s.command += (i ? " " : "") + texts[i];
      s.line += (i ? " " : "") + texts[i];
    }
    s.status = ctx.status == StatusUse::Condition ? StatusUse::Unchecked : ctx.status;
    const bool errexit = ctx.caller_errexit.value_or(st_.opts.errexit);
    s.errexit_applies = errexit && !ctx.errexit_suppressed;
    s.status_at = ctx.status_at;
    s.from = at;
    add_step(std::move(s));
  }
  if (needs_net_admin(b, texts)) {
    if (!uses_net_admin_) net_admin_at_ = at;
    uses_net_admin_ = true;
  }
  note_splices(inv, argv, stdin_words, writes.empty() ? "" : writes.front().first, ctx);
  note_secrets(argv, stdin_words, ctx, writes);
  if (b == "chmod" || b == "install") {
    bool strict = false;
    for (size_t i = 1; i < texts.size(); ++i) strict = strict || strict_mode(b, texts, i);
    if (strict) {
      for (size_t i = 1; i < texts.size(); ++i)
        if (!starts(texts[i], "-")) chmodded_.insert(texts[i]);
    }
  }
  if ((b == "usermod" || b == "adduser" || b == "gpasswd") &&
      std::any_of(texts.begin(), texts.end(), [](const std::string& t) {
        return t == "sudo" || t == "wheel" ||
               (t.find("sudo") != std::string::npos && t.find(',') != std::string::npos);
      })) {
    observed().grants.push_back(PrivilegeGrant{GrantKind::SudoGroup, b, true, false, at});
  }
  if (is_container_launch(inv)) {
    ContainerLaunch l;
    l.command =
        fmt::format("{} {}", inv.argv[0].text.empty() ? inv.argv[0].origin : inv.argv[0].text,
                    inv.argv.size() > 1 ? inv.argv[1].text : "");
    l.errexit = st_.opts.errexit;
    l.nounset = st_.opts.nounset;
    l.pipefail = st_.opts.pipefail;
    l.from = inv.from;
    observed().launches.push_back(std::move(l));
  }
  note_resources(inv, argv, ctx);
  if (inv.via_exec) note_exec(inv, texts, ctx);
}

// A step evaluated again the same way (a loop body, a function called twice) is one
// observation: what is recorded is the place and how its status is used, not how often.
void Evaluator::add_step(SecurityStep s) {
  // Both writers (this file and an if condition in control_flow.cpp) fill `line`.
  std::vector<std::string> words;
  std::istringstream line(s.line);
  for (std::string w; line >> w;) words.push_back(w);
  while (!words.empty() && in(words[0], {"sudo", "command", "env"})) words.erase(words.begin());
  s.effect = step_effect(words);
  auto same = [&](const SecurityStep& x) {
    return x.kind == s.kind && x.line == s.line && x.status == s.status &&
           x.errexit_applies == s.errexit_applies &&
           x.failure_branch_exits == s.failure_branch_exits && x.status_at == s.status_at &&
           x.from.at == s.from.at && x.from.condition().text == s.from.condition().text;
  };
  auto& steps = observed().steps;
  if (s.status == StatusUse::Condition) {
    // The command itself was recorded as unchecked while the condition ran: the condition,
    // with its failure branch, is what describes it.
    steps.erase(std::remove_if(steps.begin(), steps.end(),
                               [&](const SecurityStep& x) {
                                 return x.status == StatusUse::Unchecked && x.kind == s.kind &&
                                        x.from.at == s.from.at;
                               }),
                steps.end());
  }
  if (std::none_of(steps.begin(), steps.end(), same)) steps.push_back(std::move(s));
}

// Where secret values go: traced by `set -x`, put in URLs, echoed, written to sudoers.
void Evaluator::note_secrets(const std::vector<EWord>& argv, const std::vector<EWord>& stdin_words,
                             Ctx& ctx,
                             const std::vector<std::pair<std::string, Location>>& writes) {
  std::string b = argv[0].w.symbolic ? "" : base_name(argv[0].w.text);
  for (const EWord& w : argv) {
    if (st_.opts.xtrace && !w.secret_var.empty()) {
      observed().traced_secrets.push_back(
          TracedSecret{w.secret_var, false, st_.opts.xtrace_at,
                       Provenance{w.w.from.at, Frontend::Bash, ctx.cond}});
    }
    const std::string& t = w.w.text;
    size_t scheme = t.find("://");
    if (scheme == std::string::npos) continue;
    size_t at_sign = t.find('@', scheme);
    size_t slash = t.find('/', scheme + 3);
    if (at_sign == std::string::npos || (slash != std::string::npos && slash < at_sign)) continue;
    std::string userinfo = t.substr(scheme + 3, at_sign - scheme - 3);
    UrlUserinfo u;
    u.secret_variable = w.secret_var;
    u.has_password = userinfo.find(':') != std::string::npos;
    u.password_key_format = secrets::key_format(userinfo);
    u.from = Provenance{w.w.from.at, Frontend::Bash, ctx.cond};
    observed().urls.push_back(std::move(u));
  }
  if ((b == "echo" || b == "printf") && writes.empty() && !ctx.stdout_piped) {
    for (size_t i = 1; i < argv.size(); ++i) {
      if (argv[i].secret_var.empty()) continue;
      observed().secret_echoes.push_back(SecretEcho{
          b, argv[i].secret_var, Provenance{argv[i].w.from.at, Frontend::Bash, ctx.cond}});
      break;
    }
  }
  for (const auto& [path, at_w] : writes) {
    if (path.rfind("/etc/sudoers", 0) != 0) continue;
    std::string body;
    for (const EWord& w : stdin_words) body += w.w.text;
    for (size_t i = 1; i < argv.size(); ++i) body += " " + argv[i].w.text;
    observed().grants.push_back(PrivilegeGrant{
        GrantKind::SudoersRule, path, body.find("ALL") != std::string::npos,
        body.find("NOPASSWD") != std::string::npos, Provenance{at_w, Frontend::Bash, ctx.cond}});
  }
}

// `exec` replaces the shell: which traps are in force, whether NET_ADMIN was used before, and
// whether the exec'd command drops the bounding set or switches user.
void Evaluator::note_exec(const Invocation& inv, const std::vector<std::string>& texts, Ctx& ctx) {
  ExecHandover e;
  e.from = inv.from;
  e.command =
      Provenance{inv.argv.empty() ? inv.from.at : inv.argv[0].from.at, Frontend::Bash, ctx.cond};
  e.container_launch = is_container_launch(inv);
  for (const Trap& t : st_.traps)
    e.traps_in_force.push_back(TrapInstall{t.signals, t.handler, t.at});
  if (uses_net_admin_) e.net_admin_used_at = net_admin_at_.at;
  for (size_t i = 0; i < texts.size(); ++i) {
    std::string w = base_name(texts[i]);
    if (w == "setpriv") {
      for (size_t j = i + 1; j < texts.size(); ++j) {
        if ((texts[j] == "--bounding-set" && j + 1 < texts.size() &&
             texts[j + 1].find("-all") != std::string::npos) ||
            (starts(texts[j], "--bounding-set=") && texts[j].find("-all") != std::string::npos))
          e.bounding_set_dropped = true;
      }
      if (!e.bounding_set_dropped) e.user_switch = "setpriv";
    } else if (w == "capsh") {
      for (size_t j = i + 1; j < texts.size(); ++j)
        if (starts(texts[j], "--drop=")) e.bounding_set_dropped = true;
    } else if (in(w, {"gosu", "su-exec", "runuser", "su", "chpst", "s6-setuidgid"})) {
      e.user_switch = w;
    }
  }
  observed().execs.push_back(std::move(e));
}

}  // namespace sbr::bash
